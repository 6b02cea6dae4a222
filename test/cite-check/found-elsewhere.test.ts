// cite-check says where the quote is (issue 37 item 12): for outside_box, the box on the page where
// it does occur; for a quote that differs from the page only in case, the page's text and its box.
// The box in the message, given back as the citation's box, verifies the quote.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

const PDF = fixture("cite-check");
const QUOTE = "The quick brown fox jumps over the lazy dog.";
const tmp = tempDir();
afterAll(() => tmp.remove());
const env = { CITEPROOF_CACHE_DIR: join(tmp.dir, "cache"), CITEPROOF_SERVE: "never" };

interface Result {
  id: string;
  reason: string;
  message: string;
  found_elsewhere?: { text: string; box: Record<string, number>; case_differs?: true }[];
}

function check(citations: unknown[]): Result[] {
  const path = join(tmp.dir, "citations.json");
  writeFileSync(path, JSON.stringify(citations));
  const run = runCli(["cite-check", PDF, "--citations", path, "--json"], { env });
  expect(run.stderr).toBe("");
  return (run.json as { results: Result[] }).results;
}

/** The box a message names, as a citation's bounding_box. */
function boxIn(message: string): Record<string, number> {
  const m = /in the box \(left ([\d.]+), bottom ([\d.]+), right ([\d.]+), top ([\d.]+)\)/.exec(message);
  expect(m).not.toBeNull();
  const [left, bottom, right, top] = m!.slice(1).map(Number);
  return { left, bottom, right, top };
}

describe("cite-check names where an unsupported quote is", () => {
  it("outside_box: the box it occurs in, which then verifies it", () => {
    const [moved] = check([
      { id: "moved", quote: QUOTE, page: 1, bounding_box: { left: 296, bottom: 394, right: 560, top: 416 } },
    ]);
    expect(moved.reason).toBe("outside_box");
    expect(moved.message).toMatch(
      /; it occurs on page 1 in the box \(left [\d.]+, bottom [\d.]+, right [\d.]+, top [\d.]+\)$/,
    );
    expect(moved.found_elsewhere).toHaveLength(1);
    expect(moved.found_elsewhere![0].text).toBe(QUOTE);
    const [again] = check([{ id: "again", quote: QUOTE, page: 1, bounding_box: boxIn(moved.message) }]);
    expect(again.reason).toBe("exact_in_box");
  });

  it("not_on_page with the letters in another case: the page's text and box", () => {
    const [lower] = check([
      {
        id: "case",
        quote: QUOTE.toLowerCase(),
        page: 1,
        bounding_box: { left: 66, bottom: 690, right: 400, top: 716 },
      },
    ]);
    expect(lower.reason).toBe("not_on_page");
    expect(lower.message).toMatch(
      /^the quote does not occur in page 1; it does with letters in another case, "The quick brown fox jumps over the lazy dog\.", on page 1 in the box \(/,
    );
    expect(lower.found_elsewhere).toMatchObject([{ text: QUOTE, case_differs: true }]);
  });

  it("says nothing more of a quote that is not on the page in any case", () => {
    const [absent] = check([
      {
        id: "absent",
        quote: "A slow grey wolf",
        page: 1,
        bounding_box: { left: 0, bottom: 0, right: 612, top: 792 },
      },
    ]);
    expect(absent.reason).toBe("not_on_page");
    expect(absent.message).toBe("the quote does not occur in page 1");
    expect(absent.found_elsewhere).toBeUndefined();
  });
});
