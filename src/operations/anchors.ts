import type { z } from "zod";
import type { EquationLabelReading, OcrEquationPlace } from "../checks/ocr-equations.js";
import type { Box } from "../document/model.js";
import { pagesByLayer, type TextLayerKind } from "../document/text-layer-kind.js";
import {
  type AnchorsRecord,
  type CaptionExplanation,
  documentAnchors,
  type EquationExplanation,
  openForAnchors,
} from "../layout/anchors.js";
import { callDeadline, defineOperation } from "./operation.js";
import { inputPdf } from "./paths.js";
import type { anchorsInput } from "./schemas/documents.js";

export type AnchorsInput = z.infer<typeof anchorsInput.object>;

export type AnchorsReport = {
  document: {
    sha256: string;
    pages: number;
    /** The pages of each text layer that occurs (see text-layer-kind.ts). */
    pagesByLayer: Partial<Record<TextLayerKind, number[]>>;
  };
  /** With `ocr`: the equation labels OCR of the scanned pages found that the text layer does not hold. */
  ocrEquations?: (Omit<OcrEquationPlace, "label"> & { label: string; layer: "ocr" })[];
  /** With `ocr`: the OCR engine, model and resolutions, and the pages read and not read. */
  ocr?: EquationLabelReading["source"] & {
    label_dpi: number[];
    pagesRead: number[];
    pagesNotRead?: EquationLabelReading["unread"];
    /** Some label spots were not read before the deadline: the list may lack labels. */
    labelsCut?: true;
  };
} & AnchorsRecord;

export const anchorsOperation = defineOperation<AnchorsInput, AnchorsReport>({
  name: "anchors",
  title: "List equation labels and figure captions in a PDF",
  description:
    "Lists every equation label printed beside a displayed equation and every figure caption found in " +
    "a PDF (label, page, box of the label and of the equation or caption, in PDF points, bottom-left " +
    "origin), and every rejected equation-label candidate with its reasons, so you can see why a label " +
    "would not pass verify. Returns the document `citeproof anchors --json` prints.",
  schema: () => import("./schemas/documents.js").then((m) => m.anchorsInput),
  output: () => import("./schemas/outputs.js").then((m) => m.anchorsOutput),
  async run(input, ctx) {
    const explain = input.explain === true;
    const options = { ...ctx.open, password: input.password, deadline: callDeadline(ctx), explain };
    // Explained anchors are decided afresh, so the geometry is read even where a record is cached.
    const doc = await openForAnchors(await inputPdf(ctx, input.pdf), {
      ...options,
      withGeometry: explain || undefined,
    });
    const record = await documentAnchors(doc, options);
    const report: AnchorsReport = {
      document: { sha256: doc.sha256, pages: doc.pageCount, pagesByLayer: pagesByLayer(doc.pages) },
      ...record,
    };
    if (input.ocr === undefined) return report;
    // The same reading verify's equation check makes of a scan, for every label rather than the asked ones.
    const { readEquationLabels } = await import("../checks/ocr-equations.js");
    const { LABEL_READ_DPI } = await import("../checks/ocr-label-readings.js");
    const reading = await readEquationLabels(doc.pages, "any", {
      doc,
      deadline: options.deadline,
      password: input.password,
      ...(ctx.ocrEngine ? { engine: { engine: ctx.ocrEngine } } : {}),
    });
    const held = new Set(record.equations.map((e) => `${e.page}:${e.label}`));
    return {
      ...report,
      ocrEquations: (reading?.places ?? [])
        .filter((p) => !held.has(`${p.page}:${p.label}`))
        .map((p) => ({ ...p, layer: "ocr" as const })),
      ...(reading
        ? {
            ocr: {
              ...reading.source,
              label_dpi: [...LABEL_READ_DPI],
              pagesRead: reading.pagesRead,
              ...(reading.unread.length > 0 ? { pagesNotRead: reading.unread } : {}),
              ...(reading.labelsCut ? { labelsCut: true as const } : {}),
            },
          }
        : {}),
    };
  },
  json: (report) => report,
  format: (report, input) =>
    formatAnchors(input.pdf, report, report.document.pagesByLayer) + formatOcrLabels(report),
  exitCode: () => 0,
});

const box = (b: Box) => [b.left, b.bottom, b.right, b.top].map((v) => v.toFixed(1)).join(",");

export function formatAnchors(
  pdf: string,
  r: AnchorsRecord,
  layers?: Partial<Record<TextLayerKind, number[]>>,
): string {
  const lines = [`${pdf} (sha256 ${r.sha256.slice(0, 12)}, ${r.pageCount} pages)`];
  if (layers)
    lines.push(
      `text layers: ${Object.entries(layers)
        .map(([layer, pages]) => `${layer} ${pageRanges(pages)}`)
        .join("; ")}`,
    );
  lines.push(`equation labels (${r.equations.length}):`);
  for (const e of r.equations)
    lines.push(
      `  (${e.label})  page ${e.page}, ${e.side}  label ${box(e.labelBox)}  equation ${box(e.equationBox)}`,
      ...explained(e.explain),
    );
  lines.push(`rejected equation-label candidates (${r.rejectedEquationCandidates.length}):`);
  for (const c of r.rejectedEquationCandidates)
    lines.push(
      `  ${c.printed}  page ${c.page}  at ${box(c.labelBox)}: ${c.reasons.join(", ")}`,
      ...explained(c.explain),
    );
  lines.push(`figure captions (${r.figures.length}):`);
  for (const f of r.figures)
    lines.push(
      `  ${f.label}  page ${f.page}  caption ${box(f.captionBox)}${f.figureBox ? `  figure ${box(f.figureBox)}` : ""}  "${clip(f.text)}"`,
      ...explained(f.explain),
    );
  if (r.rejectedCaptions.length > 0) {
    lines.push(`lines that begin like a caption but are not one (${r.rejectedCaptions.length}):`);
    for (const c of r.rejectedCaptions)
      lines.push(`  page ${c.page}  "${clip(c.text)}": ${c.reasons.join(", ")}`, ...explained(c.explain));
  }
  const unreadable = new Set(r.pagesUnreadable ?? []);
  const textless = r.pagesWithoutText.filter((p) => !unreadable.has(p));
  if (textless.length > 0)
    lines.push(`pages that gave no text (nothing could be read there): ${textless.join(", ")}`);
  if (unreadable.size > 0)
    lines.push(
      `pages whose text could not be extracted (the engine failed on them; labels there are not listed): ${[...unreadable].join(", ")}`,
    );
  return `${lines.join("\n")}\n`;
}

/** With `explain`: the predicates that held and the features measured, under the candidate's line. */
function explained(e: EquationExplanation | CaptionExplanation | undefined): string[] {
  if (!e) return [];
  const features = Object.entries(e.features)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === "number" ? Number(v.toFixed(2)) : v}`);
  return [
    `    decided by: ${e.decidedBy.join(", ") || "no predicate (accepted)"}`,
    `    features: ${features.join(" ")}`,
  ];
}

/** The labels OCR found, or nothing without `ocr`. */
function formatOcrLabels(r: AnchorsReport): string {
  if (r.ocrEquations === undefined) return "";
  const o = r.ocr;
  const lines = [
    o
      ? `equation labels read by OCR of the scanned pages ${pageRanges(o.pagesRead)} (${o.provider} ${o.provider_version}, ${o.dpi} dpi; OCR can misread) (${r.ocrEquations.length}):`
      : "equation labels read by OCR (0): no page is a scan",
  ];
  for (const e of r.ocrEquations)
    lines.push(
      `  (${e.label})  page ${e.page}, ${e.side}  label ${box(e.labelBox)}  equation ${box(e.equationBox)}  readings ${e.readings.join(" ")}`,
    );
  for (const u of o?.pagesNotRead ?? []) lines.push(`  page ${u.page} not read: ${u.why}`);
  if (o?.labelsCut)
    lines.push("  some labels the pages show were not read before the deadline: the list may lack them");
  return `${lines.join("\n")}\n`;
}

function clip(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}

/** 1-3, 5, 7-9 */
function pageRanges(pages: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j++;
    out.push(i === j ? String(pages[i]) : `${pages[i]}-${pages[j]}`);
    i = j;
  }
  return out.join(", ");
}
