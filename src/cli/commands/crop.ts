import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import type { Box } from "../../document/model.js";
import { DEFAULT_RENDER_DPI, MAX_RENDER_DPI, MIN_RENDER_DPI, renderRegion } from "../../document/render.js";
import { CiteproofError } from "../../errors.js";
import type { FoundAnchor } from "../../layout/anchor-lookup.js";
import { openForAnchors } from "../../layout/anchors.js";
import {
  anchorRefArg,
  assertBoxOrAnchor,
  assertNonEmptyBox,
  type CropNaming,
  clipBox,
  locateAnchor,
  requireCropPage,
} from "../../layout/crop-region.js";
import { DEFAULT_MAX_PDF_BYTES, readPdfFile } from "../../source/file.js";
import { replaceFile } from "../../util/atomic-file.js";
import {
  addDocumentOptions,
  type DocumentFlags,
  documentOptions,
  EXIT_CLEAN,
  positiveInt,
  printJson,
  runAction,
} from "../io.js";

const FLAGS: CropNaming = {
  subject: { page: "--page", box: "--box", anchor: "--anchor" },
  mention: { page: "--page", box: "--box", anchor: "--anchor" },
  anchorsListing: "citeproof anchors",
  kindInNotFound: false,
};

interface CropFlags extends DocumentFlags {
  page?: string;
  box?: string;
  anchor?: string;
  out: string;
  dpi: string;
}

export function register(program: Command): void {
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
      .option("--json", "print what was written as JSON"),
  ).action((pdf: string, flags: CropFlags) =>
    runAction(flags.json, async () => {
      const dpi = parseDpi(flags.dpi);
      assertBoxOrAnchor(flags.box !== undefined, flags.anchor !== undefined, FLAGS);
      let page = flags.page === undefined ? undefined : positiveInt(flags.page, "--page");
      const out = resolve(flags.out);
      assertWritableTarget(out);
      const options = documentOptions(flags);
      let region: Box | "page" = "page";
      let found: FoundAnchor | undefined;
      let source =
        flags.anchor === undefined
          ? await readPdfFile(pdf, options.maxBytes ?? DEFAULT_MAX_PDF_BYTES)
          : undefined;
      if (flags.anchor !== undefined) {
        const ref = anchorRefArg(flags.anchor, FLAGS);
        const doc = await openForAnchors(pdf, options);
        source = doc.source;
        ({ page, region, found } = await locateAnchor(doc, ref, page, options, FLAGS));
      } else if (flags.box !== undefined) {
        region = parseBox(flags.box);
      }
      page = requireCropPage(page, FLAGS);
      const rendered = await renderRegion(source!, page, region, dpi, {
        password: options.password,
        timeoutMs: options.timeoutMs,
      });
      writeAtomically(out, rendered.png);
      const t = rendered.transform;
      const shown = region === "page" ? t.cropBox : clipBox(region, t.cropBox);
      const report = {
        out,
        page,
        dpi,
        widthPx: rendered.widthPx,
        heightPx: rendered.heightPx,
        box: shown,
        transform: t,
        ...(found ? { anchor: { kind: found.kind, ...found.anchor } } : {}),
      };
      if (flags.json) printJson(report);
      else
        process.stdout.write(
          `wrote ${flags.out} (${rendered.widthPx} x ${rendered.heightPx} px at ${dpi} dpi): page ${page}, box ${[shown.left, shown.bottom, shown.right, shown.top].map((v) => v.toFixed(1)).join(",")}${found ? `, ${found.kind} ${found.anchor.label}` : ""}\n`,
        );
      return EXIT_CLEAN;
    }),
  );
}

function parseDpi(value: string): number {
  const dpi = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(dpi >= MIN_RENDER_DPI && dpi <= MAX_RENDER_DPI))
    throw new CiteproofError(
      "USAGE",
      `--dpi must be a number from ${MIN_RENDER_DPI} to ${MAX_RENDER_DPI} (got ${JSON.stringify(value)})`,
    );
  return dpi;
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
  return assertNonEmptyBox({ left, bottom, right, top }, `--box ${text}`);
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
