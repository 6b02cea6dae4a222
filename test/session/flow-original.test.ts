// A session bound to an original that is not a PDF (here Markdown): its bytes and parsed document kept
// under its sha256, claims checked against it with sections as locators (PASS enters the pool with its
// section, a wrong section never does), drafts checked against it, another or a changed file refused,
// and a PDF given as its revision refused with a coded error (drafts and revisions: flow-drafts.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Claim } from "../../src/session/pool.js";
import { fixture, listFiles } from "../helpers/fixture-files.js";
import { type SessionBench, sessionBench } from "./helpers.js";

const NOTES = [
  "# 1 Introduction",
  "",
  "River deltas hold a large share of the world's farmland and many of its cities.",
  "",
  "# 2 Methods",
  "",
  "Samples were taken from fourteen sites along each coast in the spring of 2019.",
  "",
].join("\n");

let bench: SessionBench;
let original: string;
beforeAll(async () => {
  bench = sessionBench();
  original = bench.file("notes.md", NOTES);
});
afterAll(() => bench.remove());

const errorCode = (run: { json: unknown }) => (run.json as { error: { code: string } }).error.code;

describe("a session whose original is a flow source", () => {
  it("binds the file's bytes and its parsed document under its sha256", async () => {
    const run = await bench.session("new", [original]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/original .*notes\.md \(Markdown sha256 [0-9a-f]{12}\)/u);
    expect(listFiles(bench.dir)).toEqual(["document.json", "original.md", "session.json"]);
    const session = JSON.parse(readFileSync(join(bench.dir, "session.json"), "utf8"));
    expect(session.payload.original).toMatchObject({ kind: "markdown", file: "original.md", pages: 0 });
    expect((await bench.session("new", [original, "--json"])).json).toMatchObject({ created: false });
  });

  it("checks claims by section: a PASS enters the pool with its section, a wrong section never does", async () => {
    const evidence = bench.file("evidence.json", [
      { kind: "quotation", text: "taken from fourteen sites along each coast", section: "Methods" },
      { kind: "quotation", text: "taken from fourteen sites along each coast", section: "1 Introduction" },
      { kind: "quotation", text: "hold a large share of the world's farmland" },
    ]);
    const run = await bench.session("verify", ["--evidence", evidence, "--json"]);
    expect(run.status).toBe(1);
    const report = run.json as {
      document: { kind: string };
      results: { verdict: string; reason: string; pool: { entered: boolean } }[];
    };
    expect(report.document.kind).toBe("markdown");
    expect(report.results.map((r) => `${r.verdict} ${r.reason} ${r.pool.entered}`)).toEqual([
      "PASS found true",
      "FAIL wrong-section false",
      "PASS found true",
    ]);
    const claims = ((await bench.session("pool", ["--json"])).json as { claims: Claim[] }).claims;
    expect(claims.map((c) => [c.id, c.section ?? null, c.page ?? null])).toEqual([
      ["c1", "Methods", null],
      ["c2", null, null],
    ]);
    expect((await bench.session("pool")).stdout).toContain('c1 PASS section "Methods"');
  });

  it("checks a draft against the original, sections named in its prose", async () => {
    const draft = bench.file(
      "draft.txt",
      'In Section 2 the authors say samples were "taken from fourteen sites along each coast". ' +
        'Section 1 says deltas "hold a large share of the world\'s cities".',
    );
    const run = await bench.session("check-text", [draft, "--json"]);
    expect(run.status).toBe(1);
    const report = run.json as { session: string; citations: { verdict: string; reason: string }[] };
    expect(report.session).toBe("demo");
    expect(report.citations.map((c) => `${c.verdict} ${c.reason}`)).toEqual(["PASS found", "FAIL absent"]);
  });

  it("refuses another file as the original, a PDF as its revision, and a changed original", async () => {
    const other = bench.file("other.md", `${NOTES}\nOne more line.\n`);
    const evidence = bench.file("e.json", [
      { kind: "quotation", text: "hold a large share of the world's farmland" },
    ]);
    expect(errorCode(await bench.session("verify", ["--evidence", evidence, "--pdf", other, "--json"]))).toBe(
      "ORIGINAL_MISMATCH",
    );
    expect(errorCode(await bench.session("revise", [fixture("paper"), "--json"]))).toBe(
      "CONTENT_NOT_SUPPORTED",
    );
    writeFileSync(join(bench.dir, "original.md"), `${NOTES}changed\n`);
    expect(errorCode(await bench.session("pool", ["--json"]))).toBe("SESSION_CORRUPT");
  });
});
