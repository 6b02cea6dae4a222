/**
 * Finding words in a flow source before citing them: every occurrence, folded as the quotation check
 * folds (ellipses allowed), each with what a citation needs: the section to name (the heading chain),
 * the block index, the region, and the code-point offsets of the match.
 */

import type { FlowDocument, FlowKind } from "../document/flow/model.js";
import { elidedIn } from "../text/elided-match.js";
import { ellipsisParts } from "../text/ellipsis.js";
import { fold } from "../text/fold.js";
import { FoldedFlow } from "../text/folded-flow.js";
import { type FlowMatchEvidence, matchEvidence } from "./flow-quotation.js";
import { countLine, MAX_LOCATED, validateLocateText } from "./locate.js";
import { MAX_GAP_UTF16 } from "./quotation-elided.js";

export interface FlowOccurrence {
  /** The heading chain the first part stands under, the `section` to cite (empty before the first heading). */
  section: string;
  /** One part, or one per ellipsis part. */
  parts: FlowMatchEvidence[];
}

export interface FlowLocateReport {
  document: { sha256: string; kind: FlowKind };
  text: string;
  occurrences: FlowOccurrence[];
  count: number;
}

export function locateInFlow(doc: FlowDocument, text: string): FlowLocateReport {
  validateLocateText(text);
  const flow = new FoldedFlow(doc);
  const parts = ellipsisParts(text);
  const found: FlowMatchEvidence[][] = [];
  if (parts) {
    // The chain that spans least: one occurrence, as verify would find it.
    const chain = elidedIn(
      flow.view,
      parts.map((p) => fold(p, { trim: true }).text),
      0,
    );
    if (chain && chain.widestGap <= MAX_GAP_UTF16) found.push(chain.parts.map((p) => matchEvidence(flow, p)));
  } else {
    const needle = fold(text, { trim: true }).text;
    for (const m of flow.find(needle, Number.MAX_SAFE_INTEGER)) found.push([matchEvidence(flow, m)]);
  }
  return {
    document: { sha256: doc.sha256, kind: doc.kind },
    text,
    occurrences: found.slice(0, MAX_LOCATED).map((p) => ({ section: p[0].section, parts: p })),
    count: found.length,
  };
}

/** The human listing: one line per occurrence, then the count. */
export function formatFlowLocateReport(report: FlowLocateReport, header: string): string {
  const lines = [header];
  for (const o of report.occurrences) {
    const words = o.parts.map((p) => p.text.replace(/\s+/g, " ")).join(" … ");
    const offsets = o.parts.map((p) => `${p.startCp}-${p.endCp}`).join(", ");
    const first = o.parts[0];
    const region = first.region === "body" ? "" : `  in the ${first.region}`;
    const section = o.section ? `§ ${o.section}` : "before the first heading";
    lines.push(`  ${section}  paragraph ${first.paragraph}${region}  code points ${offsets}  "${words}"`);
  }
  lines.push(countLine(report.count, report.occurrences.length));
  return `${lines.join("\n")}\n`;
}
