/**
 * The plain-text reader: paragraphs are separated by blank lines (a form feed is one). A paragraph
 * of one line that starts with a section number (`3.2.  Methods`, `Appendix A.  Terms`) is a
 * heading of its number's depth; where the body is indented (an RFC), a short unindented line
 * without closing punctuation is a heading too. Page furniture of paginated text (`[Page 4]`
 * footers, the running head after a form feed) is left out.
 */

import type { FlowBuilder } from "./builder.js";
import type { FlowLimits, FlowReader } from "./model.js";
import { checkDeadline, lineReader, textLines } from "./text-lines.js";

/** A section number (a letter only with its dot or after `Appendix`), then words starting with a capital. */
const NUMBERED =
  /^(?:[Aa]ppendix\s+([A-Z](?:\.\d{1,2}){0,5})\.?|(\d{1,2}(?:\.\d{1,2}){0,5})\.?|([A-Z](?:\.\d{1,2}){0,5})\.)[ \t]+(\p{Lu}.{0,100})$/u;
const LEADERS = /(?:\s\.){3,}|\.{4,}|\s\d+\s*$/u;
const PAGE_FOOTER = /\[Page \d+\][ \t]*$/u;
const UNNUMBERED_MAX = 60;

interface Paragraph {
  lines: string[];
  indent: number;
}

/** Plain text into the builder. */
export function appendText(builder: FlowBuilder, source: string, limits: FlowLimits): void {
  const paragraphs = paragraphsOf(source, limits);
  // Whether the body is indented is told from the paragraphs that are not numbered headings.
  const rest = paragraphs.filter(
    (p) => !(p.lines.length === 1 && p.indent === 0 && numberedLevel(p.lines[0]) !== undefined),
  );
  const bodyIndented = rest.filter((p) => p.indent > 0).length * 5 >= rest.length * 3;
  for (const p of paragraphs) {
    const text = p.lines.map((line) => line.trim()).join("\n");
    const level = p.lines.length === 1 && p.indent === 0 ? headingLevel(text, bodyIndented) : undefined;
    if (level !== undefined) builder.heading(level, text);
    else builder.block("paragraph", text);
  }
}

function paragraphsOf(source: string, limits: FlowLimits): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let current: string[] = [];
  let afterFormFeed = false;
  const end = () => {
    if (current.length > 0)
      paragraphs.push({
        lines: current,
        indent: Math.min(...current.map((l) => /^ */u.exec(l)?.[0].length ?? 0)),
      });
    current = [];
  };
  const lines = textLines(source);
  for (let i = 0; i < lines.length; i++) {
    checkDeadline(limits, i, "the text");
    let line = lines[i];
    if (line.includes("\f")) {
      line = line.replace(/\f/gu, "");
      afterFormFeed = true;
      end();
    }
    if (PAGE_FOOTER.test(line)) continue;
    if (line.trim() === "") {
      end();
      continue;
    }
    // The running head is the first line of a page after a form feed.
    if (afterFormFeed) {
      afterFormFeed = false;
      if (/\S\s{3,}\S/u.test(line.trim())) continue;
    }
    current.push(line);
  }
  end();
  return paragraphs;
}

/** The heading level of a one-line paragraph, or undefined when it is not a heading. */
function headingLevel(text: string, bodyIndented: boolean): number | undefined {
  const numbered = numberedLevel(text);
  if (numbered !== undefined) return numbered;
  if (bodyIndented && text.length <= UNNUMBERED_MAX && !/[.,;:!?]$/u.test(text) && !LEADERS.test(text))
    return 1;
  return undefined;
}

export const textReader: FlowReader = lineReader("text", appendText);

/** The depth of a numbered heading's number, or undefined when the line is not one. */
function numberedLevel(line: string): number | undefined {
  const text = line.trim();
  const numbered = NUMBERED.exec(text);
  if (!numbered || LEADERS.test(text) || /[.,;:]$/u.test(numbered[4].trim())) return undefined;
  return (numbered[1] ?? numbered[2] ?? numbered[3]).split(".").length;
}
