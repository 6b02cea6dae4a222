/**
 * The quotation check on a flow source: are these words in the section named (or, with no section,
 * in the document)? The same folding and verdicts as on a page: PASS `found` / `found-elided`; FAIL
 * `wrong-section` when they stand under another heading (named as its chain), `form-differs`,
 * `absent` with the closest passage; FLAG `no-quotation` under four words. Offsets in the evidence
 * count code points (`startCp`, `endCp`) of the document's text.
 */

import { withoutInvisible } from "../document/flow/builder.js";
import { closestPassage } from "../text/closest-passage.js";
import { elidedIn } from "../text/elided-match.js";
import { ellipsisParts, everyPartHasWords } from "../text/ellipsis.js";
import { countWords, type FoldedText, fold, skeletonText } from "../text/fold.js";
import type { FlowMatch, FoldedFlow } from "../text/folded-flow.js";
import { describeDifferences } from "../text/word-diff.js";
import {
  type FlowScope,
  printedPageAt,
  printedPageScope,
  sectionScope,
  wholeDocument,
} from "./flow-scope.js";
import { describeOmissions, MAX_GAP_UTF16, omission } from "./quotation-elided.js";
import { formDifferences } from "./repair-hint.js";
import type { CheckResult } from "./result.js";
import { MIN_QUOTATION_WORDS } from "./verdicts.js";

export interface FlowQuotationInput {
  id?: string;
  text: string;
  /** A heading's words, its number, or both. */
  section?: string;
  /** A printed page, only on a source that prints page labels (checked before the call). */
  page?: number;
}

/** A match as evidence: where it stands in the text and in the document's structure. */
export interface FlowMatchEvidence {
  /** Code-point offsets in the document's text. */
  startCp: number;
  endCp: number;
  text: string;
  /** 1-based index of the block the match starts in. */
  paragraph: number;
  region: string;
  /** The heading chain above it, `2 Methods > 2.1 Data` (empty before the first heading). */
  section: string;
  printedPage?: string;
}

export function checkFlowQuotation(flow: FoldedFlow, record: FlowQuotationInput): CheckResult {
  const base = { id: record.id, kind: "quotation" as const };
  const locator = {
    ...(record.section !== undefined ? { section: record.section } : {}),
    ...(record.page !== undefined ? { page: record.page } : {}),
  };
  const evidence: Record<string, unknown> = { quotation: record.text, ...locator };
  const scope = scopeOf(flow, record);
  if (!scope) return noSuchPlace(flow, record, base, evidence);
  const quoted = withoutInvisible(record.text);
  const parts = ellipsisParts(quoted)?.filter((part) => everyPartHasWords([part]));
  const words = countWords(parts ? parts.join(" ") : quoted);
  if (words < MIN_QUOTATION_WORDS)
    return {
      ...base,
      verdict: "FLAG",
      reason: "no-quotation",
      message: `${capital(scope.name)} exists; no quotation to verify: ${words} words, need ${MIN_QUOTATION_WORDS}`,
      evidence: { ...evidence, words },
    };
  // Dots the source prints itself ("KB, MB, ...") are matched as written before they are read as an
  // elision, so words standing under another heading are named there either way.
  const literal = parts ? flow.find(fold(quoted, { trim: true }).text) : [];
  if (parts && parts.length > 1 && !literal.some((m) => scope.holds(m.startUtf16))) {
    const elided = checkFlowElided(flow, scope, parts, base, evidence);
    if (elided) return elided;
  }
  const matches =
    literal.length > 0 ? literal : flow.find(fold(parts ? parts.join(" ") : quoted, { trim: true }).text);
  const inScope = matches.filter((m) => scope.holds(m.startUtf16));
  if (inScope.length > 0)
    return {
      ...base,
      verdict: "PASS",
      reason: "found",
      message: `found in ${scope.name}${placeNote(flow, inScope[0])}`,
      evidence: { ...evidence, matches: inScope.map((m) => matchEvidence(flow, m)) },
    };
  if (matches.length > 0 && scope.elsewhere) {
    const found = matches.map((m) => matchEvidence(flow, m));
    const where =
      scope.elsewhere === "wrong-page"
        ? found.map((m) => `printed page ${m.printedPage}`)
        : found.map((m) => `"${m.section}"`);
    return {
      ...base,
      verdict: "FAIL",
      reason: scope.elsewhere,
      message: `not found in ${scope.name}; the words are ${scope.elsewhere === "wrong-page" ? "on" : "under"} ${[...new Set(where)].join(", ")}`,
      evidence: { ...evidence, matches: found },
    };
  }
  const elsewhere =
    parts && parts.length > 1 && scope.elsewhere === "wrong-section"
      ? checkFlowElided(flow, scope, parts, base, evidence, true)
      : undefined;
  return (
    elsewhere ??
    formDiffers(flow, scope, quoted, base, evidence) ??
    absent(flow, scope, quoted, base, evidence)
  );
}

function scopeOf(flow: FoldedFlow, record: FlowQuotationInput): FlowScope | undefined {
  if (record.page !== undefined) return printedPageScope(flow, String(record.page));
  if (record.section !== undefined) return sectionScope(flow, record.section);
  return wholeDocument(flow);
}

/** FAIL: the section (or printed page) named is not in the source; the evidence lists what is. */
function noSuchPlace(
  flow: FoldedFlow,
  record: FlowQuotationInput,
  base: { id?: string; kind: "quotation" },
  evidence: Record<string, unknown>,
): CheckResult {
  if (record.page !== undefined) {
    const labels = (flow.doc.pageLabels ?? []).map((p) => p.label);
    return {
      ...base,
      verdict: "FAIL",
      reason: "no-such-page",
      message: `no page is printed ${record.page} in the source (its printed pages run ${labels[0]} to ${labels[labels.length - 1]})`,
      evidence: { ...evidence, printedPages: labels.length },
    };
  }
  const headings = flow.doc.headings.map((_, i) => flow.chainName(i));
  return {
    ...base,
    verdict: "FAIL",
    reason: "no-such-section",
    message: `no heading reads "${record.section}"${headings.length > 0 ? `; the headings are ${shortList(flow.doc.headings.map((h) => `"${flow.headingName(h)}"`))}` : "; the source has no headings"}`,
    evidence: { ...evidence, headings },
  };
}

/**
 * The elided quotation's parts in order within the scope (PASS found-elided), or, with `elsewhere`,
 * in the whole text outside the scope (FAIL wrong-section naming where).
 */
function checkFlowElided(
  flow: FoldedFlow,
  scope: FlowScope,
  parts: string[],
  base: { id?: string; kind: "quotation" },
  evidence: Record<string, unknown>,
  elsewhere = false,
): CheckResult | undefined {
  const needles = parts.map((part) => fold(part, { trim: true }).text);
  const ranges = elsewhere ? [[0, flow.doc.text.length] as const] : scope.rangesUtf16;
  for (const [from, to] of ranges) {
    const chain = elidedIn(rangeView(flow, from, to), needles, from);
    if (!chain || chain.widestGap > MAX_GAP_UTF16) continue;
    const found = chain.parts.map((p) => matchEvidence(flow, p));
    if (elsewhere)
      return scope.holds(chain.parts[0]!.startUtf16)
        ? undefined
        : {
            ...base,
            verdict: "FAIL",
            reason: "wrong-section",
            message: `not found in ${scope.name}; the words are under "${found[0]!.section}"`,
            evidence: { ...evidence, matches: found },
          };
    const text = flow.doc.text;
    const omitted = chain.parts
      .slice(1)
      .map((part, k) => omission(text.slice(chain.parts[k].endUtf16, part.startUtf16)));
    return {
      ...base,
      verdict: "PASS",
      reason: "found-elided",
      message: `found in ${scope.name} with words left out: ${describeOmissions(omitted)}`,
      evidence: { ...evidence, parts: found, omitted },
    };
  }
  return undefined;
}

/** FAIL form-differs: the same letters and digits stand in the scope, a symbol differs. */
function formDiffers(
  flow: FoldedFlow,
  scope: FlowScope,
  quoted: string,
  base: { id?: string; kind: "quotation" },
  evidence: Record<string, unknown>,
): CheckResult | undefined {
  const needle = skeletonText(quoted);
  const view = flow.skeleton;
  if (needle.length === 0) return undefined;
  for (let at = view.text.indexOf(needle); at >= 0; at = view.text.indexOf(needle, at + 1)) {
    const startUtf16 = view.startUtf16[at];
    const endUtf16 = view.endUtf16[at + needle.length - 1];
    const text = flow.doc.text;
    if (WORD_CHAR.test(text[startUtf16 - 1] ?? " ") || WORD_CHAR.test(text[endUtf16] ?? " ")) continue;
    if (!scope.holds(startUtf16)) continue;
    const words = text.slice(startUtf16, endUtf16).replace(/\s+/gu, " ");
    const hint = formDifferences(quoted, words, "source");
    return {
      ...base,
      verdict: "FAIL",
      reason: "form-differs",
      message: `not found in ${scope.name} as quoted; the source reads "${words}" (${hint.text})`,
      evidence: {
        ...evidence,
        sourceWords: words,
        match: matchEvidence(flow, { startUtf16, endUtf16 }),
        hint,
      },
    };
  }
  return undefined;
}

/** FAIL absent, with the passage of the scope closest to the quotation. */
function absent(
  flow: FoldedFlow,
  scope: FlowScope,
  quoted: string,
  base: { id?: string; kind: "quotation" },
  evidence: Record<string, unknown>,
): CheckResult {
  const quotation = fold(quoted, { trim: true });
  let best: { passage: NonNullable<ReturnType<typeof closestPassage>>; from: number } | undefined;
  for (const [from, to] of scope.rangesUtf16) {
    const passage = closestPassage(
      flow.doc.text.slice(from, to),
      rangeView(flow, from, to),
      quoted,
      quotation,
    );
    if (passage && (!best || passage.similarity > best.passage.similarity)) best = { passage, from };
  }
  if (!best)
    return { ...base, verdict: "FAIL", reason: "absent", message: `not found in ${scope.name}`, evidence };
  const { passage, from } = best;
  const differs =
    passage.differences.length > 0 ? ` (${describeDifferences(passage.differences, 4, "source")})` : "";
  const at = matchEvidence(flow, {
    startUtf16: passage.startUtf16 + from,
    endUtf16: passage.endUtf16 + from,
  });
  const hint = {
    text: `closest passage: "${passage.text}"${differs}`,
    passage: { ...at, similarity: passage.similarity },
    differences: passage.differences,
  };
  return {
    ...base,
    verdict: "FAIL",
    reason: "absent",
    message: `not found in ${scope.name}; ${hint.text}`,
    evidence: { ...evidence, hint },
  };
}

/** The scope's stretch of text folded, offsets relative to its start (the whole view when it is the whole text). */
function rangeView(flow: FoldedFlow, from: number, to: number): FoldedText {
  if (from === 0 && to === flow.doc.text.length) return flow.view;
  return fold(flow.doc.text.slice(from, to));
}

export function matchEvidence(flow: FoldedFlow, m: FlowMatch): FlowMatchEvidence {
  const block = flow.blockAt(m.startUtf16);
  const b = block >= 0 ? flow.doc.blocks[block] : undefined;
  const printedPage = printedPageAt(flow, m.startUtf16);
  return {
    startCp: flow.cp.toCodePoints(m.startUtf16),
    endCp: flow.cp.toCodePoints(m.endUtf16),
    text: flow.doc.text.slice(m.startUtf16, m.endUtf16),
    paragraph: block + 1,
    region: b?.region ?? "body",
    section: b ? flow.chainName(b.heading) : "",
    ...(printedPage !== undefined ? { printedPage } : {}),
  };
}

/** ` (paragraph 12, under "2 Methods > 2.1 Data", a footnote)` */
function placeNote(flow: FoldedFlow, m: FlowMatch): string {
  const e = matchEvidence(flow, m);
  const under = e.section ? `, under "${e.section}"` : "";
  const region = e.region === "body" ? "" : `, in a ${REGION_NAMES[e.region] ?? e.region}`;
  return ` (paragraph ${e.paragraph}${under}${region})`;
}

const REGION_NAMES: Record<string, string> = {
  footnote: "note",
  table: "table",
  caption: "caption",
  references: "reference list",
};

const WORD_CHAR = /[\p{L}\p{N}]/u;

function capital(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}

export function shortList(items: string[], limit = 12): string {
  const more = items.length - limit;
  return more > 0 ? `${items.slice(0, limit).join(", ")} and ${more} more` : items.join(", ");
}
