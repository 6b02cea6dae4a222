// The reference's worked example of checking your own text against a session, line for line; only
// the sha256 prefix differs (it names this fixture).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/fixture-files.js";
import { kindSupported, ORIGINAL, openContext, WORKED_EXAMPLE } from "../prose/support.js";
import { type SessionBench, sessionBench } from "./helpers.js";

const SHA12 = createHash("sha256").update(readFileSync(ORIGINAL)).digest("hex").slice(0, 12);
const NOT_VERIFIED =
  "not verified: citation forms other than 'p. N', 'Eq. (N)' and 'Fig. (N)', quotations under the floors, and every unquoted claim";

let bench: SessionBench;
let equations = false;
beforeAll(async () => {
  const cache = tempDir();
  equations = await kindSupported(await openContext(ORIGINAL, cache.dir), "equation");
  cache.remove();
  bench = sessionBench();
  expect((await bench.session("new", [ORIGINAL])).status).toBe(0);
  // The pool the example assumes: the p. 1 quotation (PASS) and a bare pointer to page 2 (FLAG).
  const evidence = bench.file("evidence.json", [
    { kind: "quotation", page: 1, text: "a finite set of nodes" },
    { kind: "page", page: 2 },
    { kind: "quotation", page: 3, text: "a finite set of edges" },
  ]);
  const verified = await bench.session("verify", ["--evidence", evidence]);
  expect(verified.status).toBe(1); // the p. 3 quotation FAILs and never enters the pool
});
afterAll(() => bench.remove());

describe("the worked example", () => {
  it("reproduces the report line for line", async (t) => {
    if (!equations) t.skip("equation checks are not in this build yet");
    const run = await bench.session("check-text", [bench.file("report.txt", WORKED_EXAMPLE)]);
    expect(run.status).toBe(1);
    expect(run.stdout.split("\n")).toEqual([
      `checked against the original bound to this session (pdf sha256 ${SHA12})`,
      '  PASS  p. 1 "a finite set of nodes": found on page 1 [found; pool: matching-pool-quotation]',
      '  PASS  p. 4 "To test the method, we generate random": found on page 4 [found; pool: absent-anchor]',
      '  FAIL  p. 3 "a finite set of edges": not found on page 3 [absent; pool: absent-anchor]',
      "  FLAG  p. 2: page 2 exists; no quotation to verify: 0 words, need 4 [no-quotation; pool: anchor-only] -- wording unchecked",
      "  FAIL  Eq. (3): equation (3) is unresolved: the label was seen on pages 1, 3 and 9 but extraction did not accept it as a displayed equation's label (graphics-beside-label, no-column, no-display, no-math, not-at-column-edge, not-centred, page-margin, tabular, text-after-label); this is no evidence that the paper lacks it [equation-unresolved; pool: absent-anchor]",
      '  UNANCHORED "a finite set of nodes": quoted, no page named; not checked',
      "5 citation(s): 2 PASS, 1 FLAG, 2 FAIL; 1 unanchored",
      NOT_VERIFIED,
      "  unsupported forms: Fig. 1, pp. 3-4",
      "exit 1: at least one citation FAILs against the document",
      "",
    ]);
  });

  it("reproduces every line but the equation's without the equation sentence", async () => {
    const draft = WORKED_EXAMPLE.replace(", and Eq. (3) is the key identity", "");
    const run = await bench.session("check-text", [bench.file("report-no-eq.txt", draft)]);
    expect(run.status).toBe(1);
    expect(run.stdout.split("\n")).toEqual([
      `checked against the original bound to this session (pdf sha256 ${SHA12})`,
      '  PASS  p. 1 "a finite set of nodes": found on page 1 [found; pool: matching-pool-quotation]',
      '  PASS  p. 4 "To test the method, we generate random": found on page 4 [found; pool: absent-anchor]',
      '  FAIL  p. 3 "a finite set of edges": not found on page 3 [absent; pool: absent-anchor]',
      "  FLAG  p. 2: page 2 exists; no quotation to verify: 0 words, need 4 [no-quotation; pool: anchor-only] -- wording unchecked",
      '  UNANCHORED "a finite set of nodes": quoted, no page named; not checked',
      "4 citation(s): 2 PASS, 1 FLAG, 1 FAIL; 1 unanchored",
      NOT_VERIFIED,
      "  unsupported forms: Fig. 1, pp. 3-4",
      "exit 1: at least one citation FAILs against the document",
      "",
    ]);
  });

  it("gives the same citations as JSON, each with its pool label", async (t) => {
    if (!equations) t.skip("equation checks are not in this build yet");
    const run = await bench.session("check-text", [bench.file("report.txt", WORKED_EXAMPLE), "--json"]);
    const json = run.json as { citations: { verdict: string; anchor: string | null; pool: string | null }[] };
    expect(json.citations.map((c) => [c.verdict, c.anchor, c.pool])).toEqual([
      ["PASS", "p. 1", "matching-pool-quotation"],
      ["PASS", "p. 4", "absent-anchor"],
      ["FAIL", "p. 3", "absent-anchor"],
      ["FLAG", "p. 2", "anchor-only"],
      ["FAIL", "Eq. (3)", "absent-anchor"],
      ["UNANCHORED", null, null],
    ]);
  });
});
