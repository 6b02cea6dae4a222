/**
 * The section a span sits in: the last heading that starts at or before it. HTML snapshots carry
 * their headings (h1-h6) from extraction and PDF snapshots the headings their layout shows
 * (src/layout/headings.ts); for other text, a heading is a line that is a Markdown heading or, alone on
 * its line and optionally numbered, one of the usual section names of papers and reports. No heading
 * before the span: section null.
 */

import { SECTION_NAMES } from "../layout/headings.js";
import type { CodePointIndex } from "../util/codepoints.js";
import type { SectionStart, Snapshot } from "./snapshot.js";

const NUMBERING = /^(?:(?:\d+(?:\.\d+)*|[IVXLC]+|[A-Z])[.)]?\s+)/;
const MARKDOWN_HEADING = /^#{1,6}\s+(\S.*?)\s*#*\s*$/;

/** Finds heading lines in plain text; offsets in code points. */
export function findHeadings(index: CodePointIndex): SectionStart[] {
  const text = index.text;
  const out: SectionStart[] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    if (line.length > 0 && line.length <= 80) {
      const title = headingTitle(line);
      if (title) {
        const lead = line.length - line.trimStart().length;
        out.push({ start: index.toCodePoints(lineStart + lead), title });
      }
    }
    lineStart = lineEnd + 1;
  }
  return out;
}

function headingTitle(line: string): string | undefined {
  const trimmed = line.replace(/[\f\r]/g, "").trim();
  const md = MARKDOWN_HEADING.exec(trimmed);
  if (md) return md[1];
  const bare = trimmed.replace(NUMBERING, "").replace(/[.:]$/, "").trim();
  return SECTION_NAMES.has(bare.toLowerCase()) ? bare : undefined;
}

/** Heading lists per snapshot, computed once. */
export class SectionFinder {
  private readonly cache = new Map<string, SectionStart[]>();

  sectionAt(snapshot: Snapshot, index: CodePointIndex, startCp: number): string | null {
    let headings = this.cache.get(snapshot.source_id);
    if (!headings) {
      headings = snapshot.sections ?? findHeadings(index);
      this.cache.set(snapshot.source_id, headings);
    }
    let lo = 0;
    let hi = headings.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (headings[mid].start <= startCp) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? headings[lo - 1].title : null;
  }
}
