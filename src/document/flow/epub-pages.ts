/**
 * Where an EPUB's printed pages start in the flow text. A page-list entry points at an element (often
 * an empty `pagebreak` span in mid-paragraph); the words that follow that element in its document are
 * found in the text, searching onward from the previous page's start, so a page may start inside a
 * block. An entry whose words cannot be found is left out rather than guessed.
 */
import { withoutInvisible } from "./invisible.js";
import type { FlowPageLabel } from "./model.js";
import { attr, type XmlElement, type XmlNode } from "./xml.js";

const SKIP = new Set(["head", "script", "style", "template"]);
const SNIPPET_WORDS = 8;

export interface PageTarget {
  label: string;
  /** The words from the target element on, in its document. */
  words: string[];
}

/** The words following each id (and the document's start, under "") of an XHTML tree. */
export function wordsAfterIds(root: XmlElement, ids: ReadonlySet<string>): Map<string, string[]> {
  const texts: string[] = [];
  const starts = new Map<string, number>([["", 0]]);
  const pending: XmlNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === "string") {
      texts.push(node);
      continue;
    }
    if (SKIP.has(node.local)) continue;
    const id = attr(node, "id");
    if (id !== undefined && ids.has(id) && !starts.has(id)) starts.set(id, texts.length);
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  const found = new Map<string, string[]>();
  for (const [id, start] of starts) {
    const words: string[] = [];
    for (let i = start; i < texts.length && words.length < SNIPPET_WORDS; i++)
      words.push(
        ...withoutInvisible(texts[i]!)
          .split(/[\s\u00a0]+/u)
          .filter((w) => w !== ""),
      );
    found.set(id, words.slice(0, SNIPPET_WORDS));
  }
  return found;
}

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

/** Page labels at the code-point offsets where their words are found, in order. */
export function placePages(text: string, targets: PageTarget[]): FlowPageLabel[] {
  const placed: FlowPageLabel[] = [];
  let cursor = 0;
  let cursorCp = 0;
  for (const target of targets) {
    let at = -1;
    // Fewer words when the first ones do not match (a note mark the text leaves out, a hyphen).
    for (let n = Math.min(SNIPPET_WORDS, target.words.length); n >= 3 && at < 0; n--) {
      const pattern = new RegExp(target.words.slice(0, n).map(escaped).join("\\s+"), "gu");
      pattern.lastIndex = cursor;
      at = pattern.exec(text)?.index ?? -1;
    }
    if (at < 0) continue;
    cursorCp += [...text.slice(cursor, at)].length;
    cursor = at;
    placed.push({ label: target.label, startCp: cursorCp });
  }
  return placed;
}
