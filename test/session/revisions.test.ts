// Revisions stored beside the original, and each pool claim's outcome in one: a quotation that
// moved one page, reworded text, a page gone, an image-only page, equation and figure anchors.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPARE_CAVEAT } from "../../src/session/compare.js";
import { MOVED, ORIGINAL, SCAN } from "../prose/support.js";
import { type SessionBench, sessionBench } from "./helpers.js";

interface CompareJson {
  revision: { id: string; pages: number; pagesWithoutText: number[] };
  claims: { claim: string; anchor: string; outcome: string; pages: number[]; detail: string }[];
  caveat: string;
}

let bench: SessionBench;
beforeAll(async () => {
  bench = sessionBench();
  expect((await bench.session("new", [ORIGINAL])).status).toBe(0);
  const evidence = bench.file("evidence.json", [
    { kind: "quotation", page: 1, text: "a finite set of nodes" },
    { kind: "quotation", page: 4, text: "To test the method, we generate random sequences" },
    { kind: "quotation", page: 2, text: "The sampler is set up from a single starting vertex" },
    { kind: "quotation", page: 2, text: "uniformly at random" },
    { kind: "page", page: 10 },
    { kind: "equation", label: "1" },
    { kind: "equation", label: "2" },
    { kind: "figure", label: "1" },
  ]);
  const run = await bench.session("verify", ["--evidence", evidence]);
  expect(run.status, run.stdout + run.stderr).toBe(0);
});
afterAll(() => bench.remove());

function outcomes(json: CompareJson): string[][] {
  return json.claims.map((c) => [c.anchor, c.outcome, c.pages.join(",")]);
}

describe("session revise", () => {
  it("refuses the original as its own revision", async () => {
    const run = await bench.session("revise", [ORIGINAL, "--json"]);
    expect(run.status).toBe(2);
    expect((run.json as { error: { code: string; message: string } }).error.message).toMatch(
      /is the original of session demo/,
    );
  });

  it("stores a revision beside the original, which stays as it was", async () => {
    const original = readFileSync(join(bench.dir, "original.pdf"));
    const run = await bench.session("revise", [MOVED, "--json"]);
    expect(run.status).toBe(0);
    expect(run.json).toMatchObject({ created: true, revision: { id: "r1", pages: 11 } });
    expect(existsSync(join(bench.dir, "revisions", "r1", "revision.pdf"))).toBe(true);
    expect(existsSync(join(bench.dir, "revisions", "r1", "extraction.json"))).toBe(true);
    expect(readFileSync(join(bench.dir, "original.pdf")).equals(original)).toBe(true);
    const again = await bench.session("revise", [MOVED, "--json"]);
    expect(again.json).toMatchObject({ created: false, revision: { id: "r1" } });
  });
});

describe("session compare", () => {
  it("gives each claim one outcome in a revision where a quotation moved one page", async () => {
    const run = await bench.session("compare", ["--revision", "r1", "--json"]);
    expect(run.status).toBe(0);
    const json = run.json as CompareJson;
    expect(json.revision).toMatchObject({ id: "r1", pages: 11, pagesWithoutText: [] });
    expect(outcomes(json)).toEqual([
      ["p. 1", "unchanged", "1"],
      ["p. 4", "moved", "5"],
      ["p. 2", "not found", ""],
      ["p. 2", "page exists", "2"],
      ["p. 10", "page exists", "10"],
      ["Eq. (1)", "anchor exists", ""],
      ["Eq. (2)", "anchor unverified", ""],
      ["Fig. (1)", "anchor exists", ""],
    ]);
    expect(json.claims[2].detail).toMatch(/does not say the authors removed it/);
    expect(json.caveat).toBe(COMPARE_CAVEAT);
  });

  it("answers uncheckable for quotations found nowhere when a page gave no text, and page gone", async () => {
    const stored = await bench.session("revise", [SCAN, "--json"]);
    expect(stored.json).toMatchObject({ created: true, revision: { id: "r2", pages: 9 } });
    const json = (await bench.session("compare", ["--json"])).json as CompareJson;
    expect(json.revision).toMatchObject({ id: "r2", pagesWithoutText: [4] });
    expect(outcomes(json)).toEqual([
      ["p. 1", "unchanged", "1"],
      ["p. 4", "uncheckable", ""],
      ["p. 2", "uncheckable", ""],
      ["p. 2", "page exists", "2"],
      ["p. 10", "page gone", ""],
      ["Eq. (1)", "anchor exists", ""],
      ["Eq. (2)", "anchor exists", ""],
      ["Fig. (1)", "anchor exists", ""],
    ]);
    expect(json.claims[1].detail).toMatch(/page 4 of the revision gave no text/);
  });

  it("prints the outcomes for a person, and says the comparison cannot tell if the report is answered", async () => {
    const run = await bench.session("compare", ["--revision", "r1"]);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^session demo: pool compared with revision r1 \(pdf sha256 [0-9a-f]{12}, 11 pages\)/,
    );
    expect(lines).toContain(
      '  moved: p. 4 "To test the method, we generate random sequences" (claim c2): moved to page 5',
    );
    expect(lines[lines.length - 2]).toBe(
      "8 claim(s): 1 unchanged, 1 moved, 1 not found, 2 page exists, 2 anchor exists, 1 anchor unverified",
    );
    expect(lines[lines.length - 1]).toBe(`note: ${COMPARE_CAVEAT}`);
  });

  it("names an unknown revision with a coded error", async () => {
    const run = await bench.session("compare", ["--revision", "r9", "--json"]);
    expect(run.status).toBe(2);
    expect((run.json as { error: { code: string; message: string } }).error.message).toMatch(
      /holds no revision "r9" \(it holds r1, r2\)/,
    );
  });
});
