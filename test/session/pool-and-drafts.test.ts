// The claim pool (what enters, what never does), the drafting material, and the two draft flags.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Claim } from "../../src/session/pool.js";
import { ORIGINAL } from "../prose/support.js";
import { type SessionBench, sessionBench } from "./helpers.js";

interface VerifyJson {
  results: { verdict: string; reason: string; pool: { entered: boolean; claim: string | null } }[];
}

let bench: SessionBench;
let verified: VerifyJson;
beforeAll(async () => {
  bench = sessionBench();
  expect((await bench.session("new", [ORIGINAL])).status).toBe(0);
  const evidence = bench.file("evidence.json", [
    { id: "q1", kind: "quotation", page: 1, text: "a finite set of nodes" },
    { id: "p2", kind: "page", page: 2 },
    { id: "short", kind: "quotation", page: 2, text: "uniformly at random" },
    { id: "bad", kind: "quotation", page: 3, text: "a finite set of edges" },
    { id: "gone", kind: "page", page: 40 },
    { id: "loose", kind: "quotation", text: "a finite set of nodes" },
    { id: "q4", kind: "quotation", page: 4, text: "To test the method, we generate random sequences" },
  ]);
  const run = await bench.session("verify", ["--evidence", evidence, "--json"]);
  expect(run.status).toBe(1);
  verified = run.json as VerifyJson;
});
afterAll(() => bench.remove());

async function pool(): Promise<Claim[]> {
  return ((await bench.session("pool", ["--json"])).json as { claims: Claim[] }).claims;
}

describe("session verify and the pool", () => {
  it("checks each record as verify does and enters only PASS and FLAG results", async () => {
    expect(verified.results.map((r) => [r.verdict, r.reason, r.pool.entered, r.pool.claim])).toEqual([
      ["PASS", "found", true, "c1"],
      ["FLAG", "no-quotation", true, "c2"],
      ["FLAG", "no-quotation", true, "c3"],
      ["FAIL", "absent", false, null],
      ["FAIL", "no-such-page", false, null],
      ["UNANCHORED", "no-page", false, null],
      ["PASS", "found", true, "c4"],
    ]);
  });

  it("holds each claim's anchor, words, verdict, reason and time", async () => {
    const claims = await pool();
    expect(
      claims.map((c) => [c.id, c.kind, c.page, c.text ?? null, c.words, c.verdict, c.reason, c.evidenceId]),
    ).toEqual([
      ["c1", "quotation", 1, "a finite set of nodes", 5, "PASS", "found", "q1"],
      ["c2", "page", 2, null, 0, "FLAG", "no-quotation", "p2"],
      ["c3", "quotation", 2, "uniformly at random", 3, "FLAG", "no-quotation", "short"],
      ["c4", "quotation", 4, "To test the method, we generate random sequences", 8, "PASS", "found", "q4"],
    ]);
    for (const c of claims) expect(Date.parse(c.at)).not.toBeNaN();
  });

  it("does not enter a claim twice", async () => {
    const again = bench.file("again.json", [{ kind: "quotation", page: 1, text: "A finite  set of NODES" }]);
    const run = await bench.session("verify", ["--evidence", again, "--json"]);
    expect(run.status, run.stderr).toBe(0);
    expect((run.json as VerifyJson).results[0].pool).toEqual({ entered: false, claim: "c1" });
    expect(await pool()).toHaveLength(4);
  });

  it("prints the pool for a person, FLAGs marked as wording unchecked", async () => {
    const lines = (await bench.session("pool")).stdout.split("\n");
    expect(lines[0]).toMatch(/^claim pool of session demo \(pdf sha256 [0-9a-f]{12}\): 4 claim\(s\)$/);
    expect(lines[1]).toMatch(/^ {2}c1 PASS p\. 1 "a finite set of nodes" \[found\] \S+$/);
    expect(lines[2]).toMatch(/^ {2}c2 FLAG p\. 2 \[no-quotation\] \S+ -- wording unchecked$/);
  });
});

describe("session draft-input", () => {
  it("gives checked quotations, and FLAGs as bare pointers marked as unchecked wording", async () => {
    const run = await bench.session("draft-input", ["--json"]);
    expect(run.status).toBe(0);
    const m = run.json as {
      empty: boolean;
      quotations: { anchor: string; text: string }[];
      pointers: { anchor: string }[];
      excluded: unknown[];
      material: string;
    };
    expect(m.empty).toBe(false);
    expect(m.quotations.map((q) => [q.anchor, q.text])).toEqual([
      ["p. 1", "a finite set of nodes"],
      ["p. 4", "To test the method, we generate random sequences"],
    ]);
    expect(m.pointers.map((p) => p.anchor)).toEqual(["p. 2"]);
    expect(m.excluded).toEqual([]);
    expect(m.material).toContain('  p. 1: "a finite set of nodes"');
    expect(m.material).toContain("  p. 2 -- wording unchecked");
    // A FLAG's short quotation is not offered as checked words.
    expect(m.material).not.toContain("uniformly at random");
    expect(m.material).not.toContain("EMPTY POOL");
  });

  it("still gives the material for an empty pool, with a line that begins EMPTY POOL", async () => {
    const empty = sessionBench("empty");
    try {
      expect((await empty.session("new", [ORIGINAL])).status).toBe(0);
      const run = await empty.session("draft-input");
      expect(run.status).toBe(0);
      const lines = run.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^Checked evidence from the original of session empty/);
      expect(lines[lines.length - 1]).toMatch(/^EMPTY POOL/);
      expect(((await empty.session("draft-input", ["--json"])).json as { empty: boolean }).empty).toBe(true);
    } finally {
      empty.remove();
    }
  });
});

describe("session check-draft: the two flags", () => {
  const draft = [
    'On p. 1 the model is "a finite set of nodes". On p. 4 "To test the method, we generate random" sequences.',
    'On p. 1 it is "a finite set of vertices" instead.',
    'On p. 4 they wrote "The sampler is set up from a single starting vertex".',
    'Page 2 is fine. On p. 2 it is "chosen uniformly at random" and p. 2 says "three words only".',
    "On p. 3 the edges are defined, and Eq. (1) and Fig. (1) hold.",
    '"The model is defined on a finite set" appears with no page.',
  ].join("\n");

  it("flags anchors never offered and pool anchors whose words fail re-verification, with the reason", async () => {
    const path = bench.file("draft.txt", draft);
    const run = await bench.session("check-draft", [path, "--json"]);
    expect(run.status).toBe(1);
    const report = run.json as {
      citations: number;
      flagged: { flag: string; anchor: string; quote: string | null; line: number; reason: string | null }[];
    };
    expect(report.flagged.map((f) => [f.flag, f.anchor, f.quote, f.line, f.reason])).toEqual([
      ["failed re-verification", "p. 1", "a finite set of vertices", 2, "absent"],
      [
        "failed re-verification",
        "p. 4",
        "The sampler is set up from a single starting vertex",
        3,
        "wrong-page",
      ],
      ["not in verified pool", "p. 3", null, 5, null],
      ["not in verified pool", "Eq. (1)", null, 5, null],
      ["not in verified pool", "Fig. (1)", null, 5, null],
    ]);
    expect(report.citations).toBe(10);
    // The prose is left as written.
    expect(readFileSync(path, "utf8")).toBe(draft);
  });

  it("prints the flags for a person and exits 0 when nothing is flagged", async () => {
    const flagged = await bench.session("check-draft", [bench.file("draft.txt", draft)]);
    expect(flagged.stdout).toContain(
      '  failed re-verification: line 2: p. 1 "a finite set of vertices": not found on page 1',
    );
    expect(flagged.stdout).toContain("5 flag(s); the prose is left as written");
    const clean = await bench.session("check-draft", ["-"], {
      input: 'On p. 1 it is "a finite set of nodes".',
    });
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain("exit 0: no citation is flagged");
  });
});

describe("session check-text: pool labels", () => {
  it("labels a citation matching-pool-quotation, anchor-only or absent-anchor", async () => {
    const text = [
      'On p. 4 "we generate random sequences" is said.',
      'On p. 1 "each of which carries a positive weight" too.',
      "Page 9 has the appendix.",
    ].join(" ");
    const run = await bench.session("check-text", ["-", "--json"], { input: text });
    const report = run.json as { citations: { anchor: string; verdict: string; pool: string }[] };
    expect(report.citations.map((c) => [c.anchor, c.verdict, c.pool])).toEqual([
      ["p. 4", "PASS", "matching-pool-quotation"],
      ["p. 1", "PASS", "anchor-only"],
      ["p. 9", "FLAG", "absent-anchor"],
    ]);
  });
});
