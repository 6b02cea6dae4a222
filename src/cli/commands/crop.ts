import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import type { Box } from "../../document/model.js";
import { DEFAULT_RENDER_DPI, MAX_RENDER_DPI, MIN_RENDER_DPI } from "../../document/render.js";
import { CiteproofError } from "../../errors.js";
import { cropOperation } from "../../operations/crop.js";
import { runOperation } from "../../operations/run-operation.js";
import { replaceFile } from "../../util/atomic-file.js";
import type { CommandIo } from "../cli-io.js";
import { parseDpi } from "../dpi.js";
import {
  addDocumentOptions,
  commandContext,
  type DocumentFlags,
  EXIT_CLEAN,
  positiveInt,
  printJson,
  runAction,
} from "../io.js";

interface CropFlags extends DocumentFlags {
  page?: string;
  box?: string;
  anchor?: string;
  out: string;
  dpi: string;
  explain?: boolean;
}

export function register(program: Command, io: CommandIo): void {
  addDocumentOptions(
    program
      .command("crop")
      .description(
        "render a place of a PDF page to PNG: a box in default user space, an equation or figure anchor, or the whole page",
      )
      .argument("<pdf>", "the PDF to render from")
      .option("--page <n>", "physical page, counting the file's first page as 1 (optional with --anchor)")
      .option(
        "--box <l,b,r,t>",
        "region in PDF points, default user space (origin bottom-left of the MediaBox)",
      )
      .option("--anchor <kind:label>", "equation:LABEL or figure:LABEL, as listed by `citeproof anchors`")
      .requiredOption("--out <file>", "PNG file to write")
      .option(
        "--dpi <dpi>",
        `resolution (${MIN_RENDER_DPI} to ${MAX_RENDER_DPI})`,
        String(DEFAULT_RENDER_DPI),
      )
      .option(
        "--explain",
        "also write OUT with .svg for .png: the image with each equation-label candidate's label, display and column frame, and each caption candidate's label, block and figure, drawn over it (green accepted, red rejected, tagged with the predicates that refused it)",
      )
      .option("--json", "print what was written as JSON"),
  ).action((pdf: string, flags: CropFlags) =>
    runAction(io, flags.json, async () => {
      const dpi = parseDpi(flags.dpi);
      const page = flags.page === undefined ? undefined : positiveInt(flags.page, "--page");
      const out = resolve(flags.out);
      assertWritableTarget(out);
      const box = flags.box === undefined ? undefined : parseBox(flags.box);
      const explain = flags.explain === true || undefined;
      const args = { pdf, page, box, anchor: flags.anchor, dpi, explain, password: flags.password };
      const outcome = await runOperation(cropOperation, args, commandContext(io, flags));
      writeAtomically(out, outcome.result.png);
      const svg = outcome.result.svg === undefined ? undefined : explainSvgPath(out);
      if (svg !== undefined) writeAtomically(svg, new TextEncoder().encode(outcome.result.svg));
      if (flags.json) printJson({ out, ...(svg ? { svg } : {}), ...(outcome.json as object) }, io.stdout);
      else io.stdout.write(`wrote ${flags.out}${svg ? ` and ${svg}` : ""} ${outcome.text()}\n`);
      return EXIT_CLEAN;
    }),
  );
}

export function parseBox(text: string): Box {
  const parts = text.split(",").map((p) => p.trim());
  const values = parts.map((p) =>
    /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(p) ? Number(p) : Number.NaN,
  );
  if (parts.length !== 4 || !values.every(Number.isFinite))
    throw new CiteproofError(
      "BOX_INVALID",
      `--box must be four finite numbers left,bottom,right,top in PDF points (got ${JSON.stringify(text)})`,
    );
  const [left, bottom, right, top] = values;
  return { left, bottom, right, top };
}

/** Where `--explain` writes its SVG: the PNG's path with .svg for .png (or .svg added). */
export function explainSvgPath(out: string): string {
  return /\.png$/i.test(out) ? out.replace(/\.png$/i, ".svg") : `${out}.svg`;
}

/** Refuses an output path whose folder is missing or that names a folder, before any work is done. */
function assertWritableTarget(out: string): void {
  const dir = dirname(out);
  let info: ReturnType<typeof statSync> | undefined;
  try {
    info = statSync(dir);
  } catch {
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${out}: its folder ${dir} does not exist`);
  }
  if (!info.isDirectory())
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${out}: ${dir} is not a folder`);
  try {
    if (statSync(out).isDirectory())
      throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${out}: it is a folder`);
  } catch (error) {
    if (error instanceof CiteproofError) throw error;
  }
}

/** Writes beside the target and renames into place, so a failure never leaves a partial PNG. */
function writeAtomically(out: string, data: Uint8Array): void {
  try {
    replaceFile(out, data, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code ?? "unknown error";
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${out} (${code})`);
  }
}
