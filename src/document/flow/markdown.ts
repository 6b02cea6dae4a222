/**
 * The Markdown reader (CommonMark and pandoc's common extensions): ATX and Setext headings,
 * paragraphs, list items, block quotes, pipe tables with their `Table:` captions, footnote
 * definitions (region footnote), a lone image as a figure whose alt text is its caption, display
 * math as an equation block with its `\tag{}` as label. Code blocks, front matter, HTML comments and
 * thematic breaks are not prose: left out.
 */

import type { FlowBuilder } from "./builder.js";
import { referenceLabel, renderInline } from "./markdown-inline.js";
import type { FlowBlockKind, FlowLimits, FlowReader } from "./model.js";
import { checkDeadline, lineReader, textLines } from "./text-lines.js";

type Kind = Exclude<FlowBlockKind, "heading" | "title">;

const FENCE = /^ {0,3}(`{3,}|~{3,})/u;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/u;
const SETEXT_1 = /^ {0,3}=+[ \t]*$/u;
const SETEXT_2 = /^ {0,3}-+[ \t]*$/u;
const BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/u;
const NOTE = /^ {0,3}\[\^([^\]]+)\]:[ \t]*(.*)$/u;
/** A link reference definition: `[label]: destination "title"`. */
const REFERENCE = /^ {0,3}\[([^\]^][^\]]{0,998})\]:[ \t]*\S+(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$/u;
const QUOTE = /^ {0,3}>[ ]?(.*)$/u;
const ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/u;
const TABLE_RULE = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$/u;
const TABLE_CAPTION = /^ {0,3}(?:Table)?:[ \t]+(\S.*)$/u;
const FIGURE = /^ {0,3}!\[([^\]]*)\]\([^)]*\)[ \t]*(?:\{[^}]*\})?[ \t]*$/u;
const MATH_OPEN = /^ {0,3}\$\$/u;
const LABELLED = /^(figure|fig\.|table|tab\.)\s*(\d+(?:\.\d+)*[a-z]?)(?![\p{L}\p{N}])/iu;

/** Markdown text into the builder. */
export function appendMarkdown(builder: FlowBuilder, source: string, limits: FlowLimits): void {
  const lines = textLines(source);
  const references = new Set<string>();
  for (const line of lines) {
    const definition = REFERENCE.exec(line);
    if (definition) references.add(referenceLabel(definition[1]));
  }
  const render = (text: string) => renderInline(text, references);
  let i = frontMatter(builder, lines);
  let para: string[] = [];
  let kind: Kind = "paragraph";
  let inList = false;
  let afterBlank = true;
  // A note stands under the heading its mark stands under, wherever it is defined.
  const notes: { id: string; text: string }[] = [];
  const noteHeadings = new Map<string, number>();
  const emit = (k: Kind, text: string, region: "body" | "footnote" | "table" | "caption" = "body") => {
    for (const mark of text.matchAll(/\[\^([^[\]\s]{1,200})\]/gu))
      if (!noteHeadings.has(mark[1])) noteHeadings.set(mark[1], builder.currentHeading);
    const block = builder.block(k, render(text), { region });
    const label = k === "caption" ? LABELLED.exec(render(text).trim()) : null;
    if (label && block >= 0)
      builder.label(
        /^tab/iu.test(label[1]) ? "table" : "figure",
        `${/^tab/iu.test(label[1]) ? "Table" : "Figure"} ${label[2]}`,
        block,
      );
  };
  const flush = () => {
    if (para.length > 0) emit(kind, para.join("\n"));
    para = [];
    kind = "paragraph";
  };
  while (i < lines.length) {
    checkDeadline(limits, i, "the Markdown");
    const line = lines[i];
    if (line.trim() === "") {
      flush();
      afterBlank = true;
      i++;
      continue;
    }
    const blank = afterBlank;
    afterBlank = false;
    const indent = /^ */u.exec(line)?.[0].length ?? 0;
    if (inList && blank && indent < 2 && !ITEM.test(line)) inList = false;
    if (FENCE.test(line)) {
      flush();
      i = skipFence(lines, i);
      continue;
    }
    if (MATH_OPEN.test(line)) {
      flush();
      i = displayMath(builder, lines, i);
      continue;
    }
    if (line.trimStart().startsWith("<!--")) {
      flush();
      while (i < lines.length && !lines[i].includes("-->")) i++;
      i++;
      continue;
    }
    if (indent >= 4 && para.length === 0 && !inList) {
      i++;
      continue;
    }
    // A definition is not printed; it cannot interrupt a paragraph.
    if (para.length === 0 && REFERENCE.test(line)) {
      i++;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      flush();
      builder.heading(atx[1].length, render(atx[2] ?? ""));
      i++;
      continue;
    }
    if (para.length > 0 && kind === "paragraph" && (SETEXT_1.test(line) || SETEXT_2.test(line))) {
      builder.heading(SETEXT_1.test(line) ? 1 : 2, render(para.join(" ")));
      para = [];
      i++;
      continue;
    }
    if (BREAK.test(line)) {
      flush();
      i++;
      continue;
    }
    const note = NOTE.exec(line);
    if (note) {
      flush();
      i = footnote(lines, i, note[2], (text) => notes.push({ id: note[1], text }));
      continue;
    }
    if (i + 1 < lines.length && line.includes("|") && TABLE_RULE.test(lines[i + 1])) {
      flush();
      i = table(lines, i, emit);
      continue;
    }
    const caption = TABLE_CAPTION.exec(line);
    if (caption && para.length === 0) {
      emit("caption", caption[1], "caption");
      i++;
      continue;
    }
    const figure = FIGURE.exec(line);
    if (figure && para.length === 0) {
      emit("caption", figure[1], "caption");
      i++;
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      if (kind !== "block-quote") flush();
      kind = "block-quote";
      if (quote[1].trim() === "") flush();
      else para.push(quote[1]);
      i++;
      continue;
    }
    const item = ITEM.exec(line);
    if (item && (para.length === 0 || inList || kind !== "paragraph")) {
      flush();
      inList = true;
      kind = "list-item";
      para.push(item[1] ?? "");
      i++;
      continue;
    }
    if (para.length === 0 && inList) kind = "list-item";
    para.push(line);
    i++;
  }
  flush();
  for (const note of notes)
    builder.block("note", render(note.text), {
      region: "footnote",
      heading: noteHeadings.get(note.id),
    });
}

/** Front matter (`---` ... `---`): its title and lang are kept; returns the first line after it. */
function frontMatter(builder: FlowBuilder, lines: string[]): number {
  if (lines[0] !== "---") return 0;
  const end = lines.findIndex((line, k) => k > 0 && (line === "---" || line === "..."));
  if (end < 0) return 0;
  for (const line of lines.slice(1, end)) {
    const field = /^(title|lang):\s*["']?(.*?)["']?\s*$/u.exec(line);
    if (field?.[1] === "title") builder.title ??= field[2];
    if (field?.[1] === "lang") builder.language ??= field[2];
  }
  return end + 1;
}

function skipFence(lines: string[], start: number): number {
  const open = FENCE.exec(lines[start])?.[1] ?? "```";
  for (let i = start + 1; i < lines.length; i++) {
    const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/u.exec(lines[i])?.[1];
    if (close && close[0] === open[0] && close.length >= open.length) return i + 1;
  }
  return lines.length;
}

/** `$$ ... $$` over one or more lines: an equation block, its `\tag{N}` the label "(N)". */
function displayMath(builder: FlowBuilder, lines: string[], start: number): number {
  const body: string[] = [];
  let i = start;
  let text = lines[i].replace(MATH_OPEN, "");
  for (;;) {
    const close = text.indexOf("$$");
    if (close >= 0) {
      body.push(text.slice(0, close));
      break;
    }
    body.push(text);
    if (++i >= lines.length) break;
    text = lines[i];
  }
  const math = body.join("\n");
  const block = builder.block("equation", math.replace(/\\tag\{[^{}]{0,200}\}/gu, ""));
  const tag = /\\tag\{([^{}]{1,200})\}/u.exec(math)?.[1];
  if (tag !== undefined && block >= 0) builder.label("equation", `(${tag.trim()})`, block);
  return i + 1;
}

/** A footnote definition and its indented continuation; returns the first line after it. */
function footnote(lines: string[], start: number, first: string, emit: (text: string) => void): number {
  const parts = [first];
  let i = start + 1;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") {
      if (i + 1 < lines.length && /^(?: {4}|\t)/u.test(lines[i + 1])) continue;
      break;
    }
    if (!/^\s/u.test(line) && (NOTE.test(line) || ATX.test(line))) break;
    parts.push(line.trim());
  }
  emit(parts.join("\n"));
  return i;
}

/** A pipe table: every cell a block of region table. */
function table(
  lines: string[],
  start: number,
  emit: (kind: Kind, text: string, region: "table") => void,
): number {
  let i = start;
  for (; i < lines.length && lines[i].includes("|"); i++) {
    if (i === start + 1) continue;
    const row = lines[i]
      .trim()
      .replace(/^\|/u, "")
      .replace(/(?<!\\)\|$/u, "");
    for (const cell of row.split(/(?<!\\)\|/u)) emit("table-cell", cell.trim(), "table");
  }
  return i;
}

export const markdownReader: FlowReader = lineReader("markdown", appendMarkdown);
