// Words across a page break are looked for in a stretch of the joined text around the break, not in
// the whole of it: for every run of words around every break of the generated documents (and the
// same words changed, hyphenated or spaced out), the stretch finds what a search of the whole joined
// text finds, part for part.
import { beforeAll, describe, expect, it } from "vitest";
import { openDocument } from "../../src/document/open.js";
import { fold } from "../../src/text/fold.js";
import { FoldedPages, onWordBoundaries } from "../../src/text/folded-pages.js";
import { findAcrossBreak, joinedView } from "../../src/text/page-break.js";
import { fixture } from "../helpers/fixture-files.js";

const docs = new Map<string, FoldedPages>();
beforeAll(async () => {
  for (const name of ["page-break", "page-break-twocolumn", "paper"])
    docs.set(name, new FoldedPages((await openDocument(fixture(name), { noCache: true })).pages));
});

/** The first match across the break found in the whole joined text, as findAcrossBreak reports one. */
function wholeSearch(pages: FoldedPages, first: number, needle: string) {
  const words = needle.split(" ");
  const onA = pages.view(first, "joined")?.text;
  const onB = pages.view(first + 1, "joined")?.text;
  if (!onA || !onB || !onA.includes(words[0].replace(/-$/, "")) || !onB.includes(words[words.length - 1]))
    return undefined;
  for (const reading of ["joined", "kept"] as const) {
    const joined = joinedView(pages, first, reading);
    if (!joined) return undefined;
    const { view, boundary } = joined;
    for (let at = view.text.indexOf(needle); at >= 0; at = view.text.indexOf(needle, at + 1)) {
      if (!onWordBoundaries(view.text, at, needle)) continue;
      const start = view.startUtf16[at];
      const end = view.endUtf16[at + needle.length - 1];
      if (start >= boundary || end <= boundary) continue;
      return { start, end, reading };
    }
  }
  return undefined;
}

describe("words across a page break, looked for near the break", () => {
  it("finds what the whole joined text gives, for every run of words around every break", () => {
    let crossings = 0;
    let compared = 0;
    for (const pages of docs.values()) {
      for (let first = 1; first < pages.pages.count; first++) {
        const joined = joinedView(pages, first, "joined");
        if (!joined) continue;
        const words = joined.text.split(/\s+/).filter((w) => w.length > 0);
        // The words around the break: where the second page's text starts among them.
        const before = joined.text
          .slice(0, joined.boundary)
          .split(/\s+/)
          .filter((w) => w.length > 0).length;
        for (let from = Math.max(0, before - 40); from < Math.min(words.length, before + 5); from++) {
          for (const length of [1, 2, 3, 5, 8, 13, 21, 34, 55]) {
            const run = words.slice(from, from + length).join(" ");
            for (const text of [run, run.toUpperCase(), run.replace(/ /g, "  \n "), `${run}s`]) {
              const needle = fold(text, { trim: true }).text;
              if (needle.length === 0) continue;
              const expected = wholeSearch(pages, first, needle);
              const found = findAcrossBreak(pages, first, needle);
              compared++;
              if (expected) crossings++;
              expect(found && { start: found.parts[0].startUtf16, reading: found.reading }).toEqual(
                expected && { start: expected.start, reading: expected.reading },
              );
              if (found && expected) expect(found.parts[1].endUtf16 + joined.boundary).toBe(expected.end);
            }
          }
        }
      }
    }
    expect(crossings).toBeGreaterThan(50);
    expect(compared).toBeGreaterThan(1000);
  });
});
