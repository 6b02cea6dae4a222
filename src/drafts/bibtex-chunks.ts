/**
 * A BibTeX file cut into its entries before any is parsed: each `@type{key, ...}` with its line,
 * found in one linear pass by brace balance. An entry whose braces do not close before the next line
 * that opens an entry (`@word{` at a line's start) is malformed: it is named with its line, and
 * reading goes on from that line, so one bad entry never hides the others.
 */

export interface BibChunk {
  /** Lowercased: `article`, `string`, `preamble`, `comment`, ... */
  type: string;
  /** The entry's key as written (empty for @string, @preamble, @comment). */
  key: string;
  /** 1-based line where the entry starts. */
  line: number;
  /** The entry's text, `@` to its closing brace. */
  text: string;
}

export interface ChunkError {
  line: number;
  /** The malformed entry's key when it can be read, else "". */
  key: string;
  message: string;
}

const KEY = /^\s*([^,\s{}()=]+)\s*,/u;
const ENTRY_START = /@[ \t]*([A-Za-z][\w-]*)[ \t]*([{(])/gu;

export function chunkBibtex(text: string): { chunks: BibChunk[]; errors: ChunkError[] } {
  const chunks: BibChunk[] = [];
  const errors: ChunkError[] = [];
  const lineOf = lineCounter(text);
  ENTRY_START.lastIndex = 0;
  for (let m = ENTRY_START.exec(text); m; m = ENTRY_START.exec(text)) {
    const start = m.index;
    const type = m[1].toLowerCase();
    const line = lineOf(start);
    if (type === "comment") {
      // @comment{...} holds anything, balanced; an unbalanced one ends at its line.
      const end = closing(text, start + m[0].length - 1, m[2]);
      ENTRY_START.lastIndex = end.at > 0 ? end.at + 1 : text.indexOf("\n", start) + 1 || text.length;
      continue;
    }
    const end = closing(text, start + m[0].length - 1, m[2]);
    if (end.at < 0) {
      const key = text.slice(start + m[0].length, start + m[0].length + 400).match(KEY)?.[1] ?? "";
      errors.push({
        line,
        key,
        message: `the @${type} entry ${key ? `${key} ` : ""}at line ${line} ${end.reason}; it is skipped`,
      });
      ENTRY_START.lastIndex = end.resume;
      continue;
    }
    const entryText = text.slice(start, end.at + 1);
    const key =
      type === "string" || type === "preamble" ? "" : (entryText.slice(m[0].length).match(KEY)?.[1] ?? "");
    if (type !== "string" && type !== "preamble" && key === "") {
      errors.push({ line, key, message: `the @${type} entry at line ${line} has no key; it is skipped` });
    } else chunks.push({ type, key, line, text: entryText });
    ENTRY_START.lastIndex = end.at + 1;
  }
  return { chunks, errors };
}

/**
 * The offset of the delimiter closing the one at `open`, or where to resume when it never closes (the
 * next line that opens an entry, or the end).
 */
function closing(
  text: string,
  open: number,
  delimiter: string,
): { at: number; resume: number; reason: string } {
  const closer = delimiter === "{" ? "}" : ")";
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || (c === "(" && i === open)) depth++;
    else if (c === "}" || (c === closer && depth === 1)) {
      depth--;
      if (depth === 0) return { at: i, resume: i + 1, reason: "" };
      if (depth < 0) return { at: -1, resume: i + 1, reason: "closes a brace it never opened" };
    } else if (
      c === "\n" &&
      text[i + 1] === "@" &&
      /^@[ \t]*[A-Za-z][\w-]*[ \t]*[{(]/u.test(text.slice(i + 1, i + 80))
    ) {
      return {
        at: -1,
        resume: i + 1,
        reason: "has unbalanced braces (it never closes before the next entry)",
      };
    }
  }
  return { at: -1, resume: text.length, reason: "has unbalanced braces (it never closes)" };
}

/** 1-based line of an offset, for offsets asked in increasing order. */
function lineCounter(text: string): (at: number) => number {
  let line = 1;
  let pos = 0;
  return (at) => {
    for (let i = text.indexOf("\n", pos); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) {
      line++;
      pos = i + 1;
    }
    return line;
  };
}
