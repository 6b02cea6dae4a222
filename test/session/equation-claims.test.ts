// Equation claims in a session: re-checked before drafting (a failure is EXCLUDED), and a session
// whose stored extraction record predates equation records answers them as unavailable.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJsonFile, writeJsonFile } from "../../src/session/files.js";
import { readPool, writePool } from "../../src/session/pool.js";
import { openSession } from "../../src/session/store.js";
import { ORIGINAL } from "../prose/support.js";
import { type SessionBench, sessionBench } from "./helpers.js";

interface Excluded {
  anchor: string;
  reason: string;
  message: string;
}

describe("draft-input re-checks every equation claim", () => {
  let bench: SessionBench;
  beforeAll(async () => {
    bench = sessionBench();
    expect((await bench.session("new", [ORIGINAL])).status).toBe(0);
    const evidence = bench.file("evidence.json", [
      { kind: "quotation", page: 1, text: "a finite set of nodes" },
      { kind: "equation", label: "1" },
      { kind: "equation", label: "3" },
    ]);
    const run = await bench.session("verify", ["--evidence", evidence, "--json"]);
    // Eq. (3) FAILs, as the worked example shows, and never enters the pool.
    expect(run.status).toBe(1);
    // A claim for Eq. (3) made under looser rules than the stored record's: it must not be offered.
    const session = openSession(bench.dir);
    const pool = readPool(session);
    writePool(session, [
      ...pool,
      { ...pool[1], id: "c3", label: "3", message: "equation (3) was accepted by an older rule" },
    ]);
  });
  afterAll(() => bench.remove());

  it("shows a failing equation claim as EXCLUDED and leaves it out of the material", async () => {
    const run = await bench.session("draft-input", ["--json"]);
    expect(run.status).toBe(0);
    const m = run.json as { labels: { anchor: string }[]; excluded: Excluded[]; material: string };
    expect(m.labels.map((l) => l.anchor)).toEqual(["Eq. (1)"]);
    expect(m.excluded.map((x) => [x.anchor, x.reason])).toEqual([["Eq. (3)", "equation-unresolved"]]);
    expect(m.material).toContain("  Eq. (1)");
    expect(m.material).not.toContain("Eq. (3)");
    const text = (await bench.session("draft-input")).stdout;
    expect(text).toMatch(
      /^EXCLUDED Eq\. \(3\) \(claim c3\): equation \(3\) is unresolved: .* \[equation-unresolved\]; left out of the material$/m,
    );
  });

  it("flags a draft's citation of the excluded equation as not in the verified pool", async () => {
    const run = await bench.session("check-draft", ["-", "--json"], {
      input: "By Eq. (1) and Eq. (3) the bound holds.",
    });
    const report = run.json as { flagged: { flag: string; anchor: string }[] };
    expect(report.flagged.map((f) => [f.flag, f.anchor])).toEqual([["not in verified pool", "Eq. (3)"]]);
  });
});

describe("a session whose extraction record predates equation records", () => {
  let bench: SessionBench;
  beforeAll(async () => {
    bench = sessionBench("older");
    expect((await bench.session("new", [ORIGINAL])).status).toBe(0);
    const evidence = bench.file("evidence.json", [
      { kind: "quotation", page: 1, text: "a finite set of nodes" },
      { kind: "equation", label: "1" },
    ]);
    expect((await bench.session("verify", ["--evidence", evidence])).status).toBe(0);
    // Rewrite the record as a schema-1 citeproof wrote it: pages only, no anchors.
    const path = join(bench.dir, "extraction.json");
    const { payload } = readJsonFile(path, "extraction", [2]);
    const { anchors: _anchors, ...pagesOnly } = payload as Record<string, unknown>;
    const sha256 = writeJsonFile(path, "extraction", { ...pagesOnly, schemaVersion: 1 }, 1);
    const sessionPath = join(bench.dir, "session.json");
    const info = readJsonFile(sessionPath, "session").payload as {
      original: { extraction: Record<string, unknown> };
    };
    info.original.extraction = { ...info.original.extraction, sha256, schemaVersion: 1 };
    writeJsonFile(sessionPath, "session", info);
  });
  afterAll(() => bench.remove());

  it("answers an equation record with equation-evidence-unavailable, saying to start a new session", async () => {
    const evidence = bench.file("eq.json", [
      { kind: "equation", label: "1" },
      { kind: "quotation", page: 1, text: "a finite set of nodes" },
    ]);
    const run = await bench.session("verify", ["--evidence", evidence, "--json"]);
    expect(run.status).toBe(1);
    const results = (run.json as { results: { verdict: string; reason: string; message: string }[] }).results;
    expect(results.map((r) => [r.verdict, r.reason])).toEqual([
      ["FAIL", "equation-evidence-unavailable"],
      ["PASS", "found"],
    ]);
    expect(results[0].message).toMatch(/start a new session on the PDF/);
  });

  it("answers equation citations in text the same way, and still checks quotations", async () => {
    const run = await bench.session("check-text", ["-", "--json"], {
      input: 'By Eq. (1) the model, on p. 1 "a finite set of nodes", holds.',
    });
    const report = run.json as { citations: { anchor: string; verdict: string; reason: string }[] };
    expect(report.citations.map((c) => [c.anchor, c.verdict, c.reason])).toEqual([
      ["p. 1", "PASS", "found"],
      ["Eq. (1)", "FAIL", "equation-evidence-unavailable"],
    ]);
  });

  it("excludes its equation claims from the drafting material", async () => {
    const m = (await bench.session("draft-input", ["--json"])).json as {
      excluded: Excluded[];
      labels: unknown[];
    };
    expect(m.labels).toEqual([]);
    expect(m.excluded.map((x) => [x.anchor, x.reason])).toEqual([
      ["Eq. (1)", "equation-evidence-unavailable"],
    ]);
  });

  it("refuses a record that claims schema 1 but still holds anchors", async () => {
    const path = join(bench.dir, "extraction.json");
    const { payload } = readJsonFile(path, "extraction", [1]);
    const original = JSON.stringify(payload);
    const sha256 = writeJsonFile(path, "extraction", { ...(payload as object), anchors: {} }, 1);
    const sessionPath = join(bench.dir, "session.json");
    const info = readJsonFile(sessionPath, "session").payload as {
      original: { extraction: { sha256: string } };
    };
    const before = info.original.extraction.sha256;
    info.original.extraction.sha256 = sha256;
    writeJsonFile(sessionPath, "session", info);
    try {
      const run = await bench.session("pool", ["--json"]);
      expect(run.status).toBe(0); // the pool does not read the record
      const refused = await bench.session("draft-input", ["--json"]);
      expect(refused.status).toBe(2);
      expect((refused.json as { error: { code: string; message: string } }).error).toMatchObject({
        code: "SESSION_CORRUPT",
      });
      expect((refused.json as { error: { message: string } }).error.message).toMatch(
        /anchors its schema predates/,
      );
    } finally {
      writeJsonFile(path, "extraction", JSON.parse(original), 1);
      info.original.extraction.sha256 = before;
      writeJsonFile(sessionPath, "session", info);
    }
  });
});
