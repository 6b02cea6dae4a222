/**
 * Where a quotation on a flow source is claimed to stand: the whole document, a section (a heading
 * named by its words, its number, or both, with its subsections), or a printed page of a source that
 * prints page labels (an EPUB page-list). A scope says whether a match stands in it and which stretch
 * of the text a closest passage is looked for in.
 */

import { foldedText } from "../text/fold.js";
import type { FoldedFlow } from "../text/folded-flow.js";

export interface FlowScope {
  /** `the document`, `section "2.1 Data"`, `printed page 12`: how messages name it. */
  name: string;
  /** The reason when the words are in the source outside it. */
  elsewhere: "wrong-section" | "wrong-page" | undefined;
  holds(startUtf16: number): boolean;
  /** The UTF-16 ranges of the text the scope covers, in order. */
  rangesUtf16: [number, number][];
}

export function wholeDocument(flow: FoldedFlow): FlowScope {
  return {
    name: "the document",
    elsewhere: undefined,
    holds: () => true,
    rangesUtf16: [[0, flow.doc.text.length]],
  };
}

/** The scope of a section locator, or undefined when no heading reads so. */
export function sectionScope(flow: FoldedFlow, section: string): FlowScope | undefined {
  const named = headingsNamed(flow, section);
  if (named.length === 0) return undefined;
  const set = new Set(named);
  return {
    name: `section "${section.trim()}"`,
    elsewhere: "wrong-section",
    holds: (startUtf16) => {
      const block = flow.blockAt(startUtf16);
      const heading = block < 0 ? -1 : flow.doc.blocks[block].heading;
      return flow.chain(heading).some((h) => set.has(h));
    },
    rangesUtf16: named.map((h) => flow.sectionUtf16(h)),
  };
}

/** The scope of a printed page (EPUB page-list), or undefined when no page is printed so. */
export function printedPageScope(flow: FoldedFlow, page: string): FlowScope | undefined {
  const labels = flow.doc.pageLabels ?? [];
  const at = labels.findIndex((p) => p.label === page);
  if (at < 0) return undefined;
  const start = flow.cp.toUtf16(labels[at].startCp);
  const end = at + 1 < labels.length ? flow.cp.toUtf16(labels[at + 1].startCp) : flow.doc.text.length;
  return {
    name: `printed page ${page}`,
    elsewhere: "wrong-page",
    holds: (startUtf16) => startUtf16 >= start && startUtf16 < end,
    rangesUtf16: [[start, end]],
  };
}

/** The printed page a UTF-16 offset stands on, or undefined when the source prints none there. */
export function printedPageAt(flow: FoldedFlow, utf16: number): string | undefined {
  const cp = flow.cp.toCodePoints(utf16);
  let label: string | undefined;
  for (const p of flow.doc.pageLabels ?? []) {
    if (p.startCp > cp) break;
    label = p.label;
  }
  return label;
}

const SECTION_WORD = /^\s*(?:§+|sect?\.|section)\s*/iu;

/** The headings a section locator names: its words, its number, or its number and words, folded. */
export function headingsNamed(flow: FoldedFlow, section: string): number[] {
  const wanted = sectionLocatorKey(section);
  if (wanted === "") return [];
  const out: number[] = [];
  headingKeys(flow).forEach((keys, i) => {
    if (keys.includes(wanted)) out.push(i);
  });
  return out;
}

/** A section locator folded as headings' names are, without a leading `§` or `Section`. */
export function sectionLocatorKey(section: string): string {
  return sectionKey(section.replace(SECTION_WORD, ""));
}

/** Each heading's names, folded: worked out once per document, not once per record naming a section. */
const keysOf = new WeakMap<FoldedFlow, string[][]>();

function headingKeys(flow: FoldedFlow): string[][] {
  let keys = keysOf.get(flow);
  if (keys === undefined) {
    keys = flow.doc.headings.map((h) => {
      const printed = flow.cp.slice(h.startCp, h.endCp);
      const names = [flow.headingName(h), h.title, printed, ...(h.number === undefined ? [] : [h.number])];
      return [...new Set(names.map(sectionKey))];
    });
    keysOf.set(flow, keys);
  }
  return keys;
}

/** A heading or locator folded, without quotes around it or dots and colons after it or its number. */
export function sectionKey(text: string): string {
  return foldedText(text, { trim: true })
    .replace(/^["']|["']$/gu, "")
    .replace(/^([\p{N}\p{L}]{1,3}(?:\.[\p{N}]{1,3})*)[.:]?(?=\s|$)/u, "$1")
    .replace(/[.:]$/u, "")
    .trim();
}
