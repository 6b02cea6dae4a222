/**
 * What a run report shows, drawn from outputs/result.json and outputs/verification.json only (never from
 * records or prose): the run's identity, the gate, the four checks, every accepted span with its re-sliced
 * excerpt, the unresolved diagnostics grouped by code, and, for spans of a user-supplied PDF, crops of the
 * place rendered from the hash-checked file with the span's glyph boxes marked; for spans of a user-supplied
 * flow file, the passage (the span marked under its heading chain).
 */

import { unionOfBoxes } from "../../document/box-union.js";
import type { FlowDocument } from "../../document/flow/model.js";
import { isCiteproofError } from "../../errors.js";
import type { AcceptedSpan, GateReport, Unresolved } from "../../evidence/assemble.js";
import type { PageBox } from "../../evidence/locate.js";
import { type RunOutputs, snapshotFlow, snapshotPdf } from "../../evidence/outputs.js";
import { REASON_MEANINGS, type ReasonCode } from "../../evidence/reasons.js";
import type { CheckReport } from "../../evidence/verify.js";
import type { PdfBytes } from "../../source/file.js";
import { type Crop, DEFAULT_REPORT_DPI, renderPlace } from "../build.js";
import { type Passage, spanPassage } from "../passages.js";
import { DEFAULT_MAX_CROPS } from "./options.js";

/** Crops drawn for one report at most, in the order of the evidence table. */
/** Pages of one span cropped at most (a span crosses at most a page break or two). */
const MAX_PAGES_PER_SPAN = 2;

export interface EvidenceRow {
  n: number;
  span: AcceptedSpan;
  /** The words of the claim the span backs (claims only; null for an extraction or appraisal). */
  claimText: string | null;
  crops: Crop[];
  /** A span of a user-supplied file of a flow kind: its passage, under its heading chain, marked. */
  passages: Passage[];
  /** Why the row has no crop, when it could have had one. */
  cropNote: string | null;
}

export interface DiagnosticGroup {
  code: ReasonCode;
  meaning: string;
  items: Unresolved[];
}

export interface RunReportModel {
  runId: string;
  createdAt: string;
  assembledAt: string;
  verifiedAt: string;
  resultSha256: string;
  gate: GateReport;
  verdict: "pass" | "fail";
  checks: CheckReport[];
  summary: RunOutputs["result"]["summary"];
  rows: EvidenceRow[];
  diagnostics: DiagnosticGroup[];
  cropsDrawn: number;
}

export interface ModelOptions {
  /** Most crops in the report (default 200; 0 for none). */
  maxCrops?: number;
  dpi?: number;
  timeoutMs?: number;
  /** Where a user-supplied flow file's parsed document is cached. */
  cacheDir?: string;
  /** Draw passages of user-supplied flow files (the HTML report). */
  passages?: boolean;
}

export async function buildRunReportModel(
  outputs: RunOutputs,
  options: ModelOptions = {},
): Promise<RunReportModel> {
  const { result, verification } = outputs;
  const maxCrops = options.maxCrops ?? DEFAULT_MAX_CROPS;
  const dpi = options.dpi ?? DEFAULT_REPORT_DPI;
  const pdfs = new Map<string, Promise<PdfBytes | string>>();
  const pdfOf = (sourceId: string) => {
    let held = pdfs.get(sourceId);
    if (!held) {
      held = snapshotPdf(outputs.context, sourceId);
      pdfs.set(sourceId, held);
    }
    return held;
  };

  const flows = new Map<string, Promise<{ doc: FlowDocument; chars: string[] } | string>>();
  const flowOf = (sourceId: string) => {
    let held = flows.get(sourceId);
    if (!held) {
      held = snapshotFlow(outputs.context, sourceId, {
        cacheDir: options.cacheDir,
        timeoutMs: options.timeoutMs,
      }).then((doc) => (typeof doc === "string" ? doc : { doc, chars: Array.from(doc.text) }));
      flows.set(sourceId, held);
    }
    return held;
  };

  let cropsDrawn = 0;
  const rows: EvidenceRow[] = [];
  const claimTexts = new Map(result.records.filter((r) => r.kind === "claim").map((r) => [r.record, r.text]));
  for (const [i, span] of result.accepted.entries()) {
    const claimText = claimTexts.get(span.record) ?? null;
    const row: EvidenceRow = { n: i + 1, span, claimText, crops: [], passages: [], cropNote: null };
    rows.push(row);
    if (span.page === null && options.passages === true) {
      const flow = await flowOf(span.source_id);
      // A source that is no user-supplied flow file (a fetched page) has no passage to add.
      if (typeof flow !== "string")
        row.passages.push(
          spanPassage(flow.doc, flow.chars, "the span, in the file as the checks read it", {
            startCp: span.start,
            endCp: span.end,
          }),
        );
      else if (!flow.startsWith("the snapshot is not")) row.cropNote = flow;
      continue;
    }
    const boxes = span.boxes ?? [];
    if (boxes.length === 0) {
      if (span.page !== null) row.cropNote = span.boxes_note ?? "no glyph boxes were derived for this span";
      continue;
    }
    if (cropsDrawn >= maxCrops) {
      row.cropNote = `not cropped: the report draws at most ${maxCrops} crop(s)`;
      continue;
    }
    const pdf = await pdfOf(span.source_id);
    if (typeof pdf === "string") {
      row.cropNote = pdf;
      continue;
    }
    for (const [page, marks] of byPage(boxes).slice(0, MAX_PAGES_PER_SPAN)) {
      if (cropsDrawn >= maxCrops) break;
      try {
        row.crops.push(
          await renderPlace(
            pdf,
            { kind: "match", page, region: around(marks), marks, caption: "the span's lines" },
            dpi,
            undefined,
            options.timeoutMs,
          ),
        );
        cropsDrawn++;
      } catch (error) {
        if (!isCiteproofError(error)) throw error;
        row.cropNote = `page ${page} could not be rendered: ${error.message} [${error.code}]`;
      }
    }
  }

  const groups = new Map<ReasonCode, Unresolved[]>();
  for (const u of result.diagnostics.unresolved) {
    const list = groups.get(u.code) ?? [];
    list.push(u);
    groups.set(u.code, list);
  }
  const diagnostics = [...groups]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, items]) => ({ code, meaning: REASON_MEANINGS[code] ?? "", items }));

  return {
    runId: result.run_id,
    createdAt: result.run_created_at,
    assembledAt: result.assembled_at,
    verifiedAt: verification.verified_at,
    resultSha256: outputs.resultSha256,
    gate: result.gate,
    verdict: verification.verdict,
    checks: verification.checks,
    summary: result.summary,
    rows,
    diagnostics,
    cropsDrawn,
  };
}

function byPage(boxes: PageBox[]): [number, PageBox[]][] {
  const pages = new Map<number, PageBox[]>();
  for (const b of boxes) {
    const list = pages.get(b.page) ?? [];
    list.push(b);
    pages.set(b.page, list);
  }
  return [...pages].sort(([a], [b]) => a - b);
}

/** Narrowest crop in points: a short span is shown with the words around it (the page clips it). */
const MIN_CROP_WIDTH = 320;

/** The lines with some room around them, so the crop shows their context. */
function around(boxes: PageBox[]): { left: number; bottom: number; right: number; top: number } {
  const { left, bottom, right, top } = unionOfBoxes(boxes);
  const grow = Math.max(12, (MIN_CROP_WIDTH - (right - left)) / 2);
  return { left: left - grow, bottom: bottom - 24, right: right + grow, top: top + 24 };
}
