import type { Command } from "commander";
import type { Box } from "../../document/model.js";
import { type AnchorsRecord, documentAnchors, openForAnchors } from "../../layout/anchors.js";
import {
  addDocumentOptions,
  type DocumentFlags,
  documentOptions,
  EXIT_CLEAN,
  printJson,
  runAction,
} from "../io.js";

export function register(program: Command): void {
  addDocumentOptions(
    program
      .command("anchors")
      .description(
        "list the equation labels and figure captions found in a PDF, and every rejected equation-label candidate with its reasons",
      )
      .argument("<pdf>", "the PDF to read")
      .option("--json", "print the anchors record as JSON"),
  ).action((pdf: string, flags: DocumentFlags) =>
    runAction(flags.json, async () => {
      const options = documentOptions(flags);
      const doc = await openForAnchors(pdf, options);
      const record = await documentAnchors(doc, options);
      if (flags.json) printJson({ document: { sha256: doc.sha256, pages: doc.pageCount }, ...record });
      else process.stdout.write(formatAnchors(pdf, record));
      return EXIT_CLEAN;
    }),
  );
}

const box = (b: Box) => [b.left, b.bottom, b.right, b.top].map((v) => v.toFixed(1)).join(",");

export function formatAnchors(pdf: string, r: AnchorsRecord): string {
  const lines = [`${pdf} (sha256 ${r.sha256.slice(0, 12)}, ${r.pageCount} pages)`];
  lines.push(`equation labels (${r.equations.length}):`);
  for (const e of r.equations)
    lines.push(
      `  (${e.label})  page ${e.page}, ${e.side}  label ${box(e.labelBox)}  equation ${box(e.equationBox)}`,
    );
  lines.push(`rejected equation-label candidates (${r.rejectedEquationCandidates.length}):`);
  for (const c of r.rejectedEquationCandidates)
    lines.push(`  ${c.printed}  page ${c.page}  at ${box(c.labelBox)}: ${c.reasons.join(", ")}`);
  lines.push(`figure captions (${r.figures.length}):`);
  for (const f of r.figures)
    lines.push(
      `  ${f.label}  page ${f.page}  caption ${box(f.captionBox)}${f.figureBox ? `  figure ${box(f.figureBox)}` : ""}  "${clip(f.text)}"`,
    );
  if (r.rejectedCaptions.length > 0) {
    lines.push(`lines that begin like a caption but are not one (${r.rejectedCaptions.length}):`);
    for (const c of r.rejectedCaptions)
      lines.push(`  page ${c.page}  "${clip(c.text)}": ${c.reasons.join(", ")}`);
  }
  if (r.pagesWithoutText.length > 0)
    lines.push(`pages that gave no text (nothing could be read there): ${r.pagesWithoutText.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

function clip(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}
