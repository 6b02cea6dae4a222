/**
 * What a report shows for a result on a flow source: instead of a crop, the passage from the source's
 * own text (the text the check read), with the heading chain it stands under and the words the
 * evidence points at marked. The places are those the evidence names: the match (or each part of an
 * elided quotation), the words under another heading, the source's words in another form, or the
 * closest passage to words not found.
 */
import type { FlowMatchEvidence } from "../checks/flow-quotation.js";
import type { CheckResult } from "../checks/result.js";
import type { FlowDocument } from "../document/flow/model.js";
import { FoldedFlow } from "../text/folded-flow.js";
import { MAX_PLACES } from "./places.js";

/** Code points of context shown on each side of the marked words, within their paragraphs. */
export const PASSAGE_CONTEXT_CP = 320;

export type PassageKind = "match" | "elsewhere" | "closest";

export interface Passage {
  kind: PassageKind;
  caption: string;
  /** The heading chain the marked words stand under (empty before the first heading). */
  section: string;
  /** 1-based index of the block the marked words start in. */
  paragraph: number;
  region: string;
  /** Code-point offsets of the marked words in the document's text. */
  startCp: number;
  endCp: number;
  /** The text shown: before the marked words, the words, after them (an ellipsis where cut). */
  before: string;
  marked: string;
  after: string;
}

/** The passages a flow result's evidence names, at most MAX_PLACES. */
export function passagesFor(doc: FlowDocument, chars: readonly string[], result: CheckResult): Passage[] {
  if (result.kind !== "quotation") return [];
  const e = result.evidence;
  const places: { kind: PassageKind; caption: string; at: FlowMatchEvidence }[] = [];
  const add = (kind: PassageKind, caption: string, value: unknown) => {
    if (isMatch(value)) places.push({ kind, caption, at: value });
  };
  const listed = (value: unknown) => (Array.isArray(value) ? value : []);
  if (result.verdict === "PASS") {
    for (const m of listed(e.matches)) add("match", "the words, where the check found them", m);
    for (const p of listed(e.parts)) add("match", "a part of the quotation, where the check found it", p);
  } else if (result.reason === "wrong-section" || result.reason === "wrong-page") {
    for (const m of listed(e.matches))
      add("elsewhere", "the words, under another heading than the one named", m);
  } else if (result.reason === "form-differs") {
    add("closest", "the source's words, in another form than quoted", e.match);
  } else if (result.reason === "absent") {
    add("closest", "the closest passage to the words not found", (e.hint as { passage?: unknown })?.passage);
  }
  return places.slice(0, MAX_PLACES).map(({ kind, caption, at }) => passage(doc, chars, kind, caption, at));
}

/**
 * The passage of a span given by its code-point offsets in the document's text (an evidence run's span
 * on a user-supplied file): its block, region and heading chain found from the document's structure.
 */
export function spanPassage(
  doc: FlowDocument,
  chars: readonly string[],
  caption: string,
  span: { startCp: number; endCp: number },
): Passage {
  let lo = 0;
  let hi = doc.blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (doc.blocks[mid].startCp <= span.startCp) lo = mid;
    else hi = mid - 1;
  }
  const block = doc.blocks[lo];
  const section = block && block.heading >= 0 ? new FoldedFlow(doc).chainName(block.heading) : "";
  return passage(doc, chars, "match", caption, {
    ...span,
    text: chars.slice(span.startCp, span.endCp).join(""),
    paragraph: block ? lo + 1 : 0,
    region: block?.region ?? "body",
    section,
  });
}

function passage(
  doc: FlowDocument,
  chars: readonly string[],
  kind: PassageKind,
  caption: string,
  at: FlowMatchEvidence,
): Passage {
  const first = doc.blocks[at.paragraph - 1];
  let last = first;
  for (let i = at.paragraph; i < doc.blocks.length && doc.blocks[i].startCp < at.endCp; i++)
    last = doc.blocks[i];
  const blockStart = first?.startCp ?? at.startCp;
  const blockEnd = last?.endCp ?? at.endCp;
  const from = Math.max(blockStart, at.startCp - PASSAGE_CONTEXT_CP);
  const to = Math.min(blockEnd, at.endCp + PASSAGE_CONTEXT_CP);
  const text = (a: number, b: number) => chars.slice(a, b).join("");
  return {
    kind,
    caption,
    section: at.section,
    paragraph: at.paragraph,
    region: at.region,
    startCp: at.startCp,
    endCp: at.endCp,
    before: `${from > blockStart ? "… " : ""}${text(from, at.startCp)}`,
    marked: text(at.startCp, at.endCp),
    after: `${text(at.endCp, to)}${to < blockEnd ? " …" : ""}`,
  };
}

function isMatch(value: unknown): value is FlowMatchEvidence {
  const v = value as FlowMatchEvidence | undefined;
  return (
    typeof v === "object" &&
    v !== null &&
    Number.isInteger(v.startCp) &&
    Number.isInteger(v.endCp) &&
    Number.isInteger(v.paragraph) &&
    typeof v.section === "string"
  );
}
