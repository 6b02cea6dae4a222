// The bound original and the session files' own checks: a different original is refused, and a
// file that fails its hash or schema check is refused with a coded error, never repaired.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelope, SESSION_FORMAT, SESSION_SCHEMA } from "../../src/session/files.js";
import { openSession } from "../../src/session/store.js";
import { listFiles } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";
import { MOVED, ORIGINAL } from "../prose/support.js";
import { type SessionBench, sessionBench } from "./helpers.js";

let bench: SessionBench;
beforeAll(async () => {
  bench = sessionBench();
  const run = await bench.session("new", [ORIGINAL, "--json"]);
  expect(run.status).toBe(0);
  const evidence = bench.file("evidence.json", [
    { kind: "quotation", page: 1, text: "a finite set of nodes" },
    { kind: "page", page: 2 },
  ]);
  expect((await bench.session("verify", ["--evidence", evidence])).status).toBe(0);
});
afterAll(() => bench.remove());

describe("session new and the bound original", () => {
  it("stores the original's bytes, its extraction record and the session record, nothing else", async () => {
    expect(listFiles(bench.dir)).toEqual(["extraction.json", "original.pdf", "pool.jsonl", "session.json"]);
    expect(readFileSync(join(bench.dir, "original.pdf")).equals(readFileSync(ORIGINAL))).toBe(true);
    const session = JSON.parse(readFileSync(join(bench.dir, "session.json"), "utf8"));
    expect(session).toMatchObject({ format: SESSION_FORMAT, file: "session", schema: 1 });
    expect(session.payload.original).toMatchObject({ pages: 10, file: "original.pdf", source: ORIGINAL });
    const extraction = JSON.parse(readFileSync(join(bench.dir, "extraction.json"), "utf8"));
    expect(extraction.payload.pages).toHaveLength(10);
    expect(extraction.payload.pages[0].text).toContain("a finite set of nodes");
    expect(typeof extraction.payload.extractorVersion).toBe("string");
    expect(extraction.schema).toBe(extraction.payload.schemaVersion);
  });

  it("answers the same PDF again without change", async () => {
    const before = readFileSync(join(bench.dir, "session.json"), "utf8");
    const run = await bench.session("new", [ORIGINAL, "--json"]);
    expect(run.status).toBe(0);
    expect(run.json).toMatchObject({ created: false });
    expect(readFileSync(join(bench.dir, "session.json"), "utf8")).toBe(before);
  });

  it("refuses a different PDF as the original, and says to store it as a revision or start anew", async () => {
    const run = await bench.session("new", [MOVED, "--json"]);
    expect(run.status).toBe(2);
    const error = (run.json as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("ORIGINAL_MISMATCH");
    expect(error.message).toMatch(
      /store it as a revision \(citeproof session revise demo <pdf>\) or start a new session/,
    );
    expect(run.stderr).toMatch(/^citeproof: error \[ORIGINAL_MISMATCH\]/);
  });

  it("refuses a different PDF given as the original to any command, and accepts the original", async () => {
    const draft = bench.file("d.txt", "Page 2 sets up the sampler.");
    for (const [sub, args] of [
      ["verify", ["--evidence", bench.file("e.json", [{ kind: "page", page: 2 }])]],
      ["check-text", [draft]],
      ["check-draft", [draft]],
      ["draft-input", []],
    ] as const) {
      const refused = await bench.session(sub, [...args, "--pdf", MOVED, "--json"]);
      expect(refused.status, sub).toBe(2);
      expect((refused.json as { error: { code: string } }).error.code, sub).toBe("ORIGINAL_MISMATCH");
      expect((await bench.session(sub, [...args, "--pdf", ORIGINAL])).status, sub).toBe(0);
    }
  });

  it("names a missing session and a bad name with coded errors", async () => {
    const missing = runCli(["session", "pool", "nosuch", "--session", join(bench.root, "nosuch"), "--json"]);
    expect(missing.status).toBe(2);
    expect((missing.json as { error: { code: string } }).error.code).toBe("SESSION_NOT_FOUND");
    const bad = runCli(["session", "pool", "../escape", "--json"]);
    expect(bad.status).toBe(2);
    expect((bad.json as { error: { code: string } }).error.code).toBe("USAGE");
  });
});

describe("a session file that fails its own check is refused, never repaired", () => {
  async function tamper(file: string, change: (text: string) => string, sub: string, args: string[] = []) {
    const path = join(bench.dir, file);
    const original = readFileSync(path, "utf8");
    const changed = change(original);
    expect(changed).not.toBe(original);
    writeFileSync(path, changed);
    try {
      const run = await bench.session(sub, [...args, "--json"]);
      expect(run.status).toBe(2);
      const error = (run.json as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("SESSION_CORRUPT");
      expect(readFileSync(path, "utf8")).toBe(changed);
      return error.message;
    } finally {
      writeFileSync(path, original);
    }
  }

  it("a pool line whose claim was edited fails its sha256 check", async () => {
    const message = await tamper(
      "pool.jsonl",
      (t) => t.replace('"verdict":"PASS"', '"verdict":"FLAG"'),
      "pool",
    );
    expect(message).toMatch(/pool\.jsonl line 1 fails its sha256 check/);
  });

  it("a pool with its last line removed, or every line, is refused: the chain holds its length", async () => {
    const lines = readFileSync(join(bench.dir, "pool.jsonl"), "utf8").split("\n").slice(0, -1);
    expect(lines.length).toBeGreaterThan(1);
    const dropLast = (t: string) => `${t.split("\n").slice(0, -2).join("\n")}\n`;
    expect(await tamper("pool.jsonl", dropLast, "pool")).toMatch(
      /line 1 fails its seal: .*lines were removed/,
    );
    expect(await tamper("pool.jsonl", () => "", "pool")).toMatch(/holds no line/);
  });

  it("a torn pool line is refused", async () => {
    expect(await tamper("pool.jsonl", (t) => t.slice(0, -20), "pool")).toMatch(/torn line/);
  });

  it("a pool line of an unknown schema is refused, even with a matching hash", async () => {
    const message = await tamper(
      "pool.jsonl",
      (t) => {
        const [first, ...rest] = t.split("\n");
        const env = JSON.parse(first);
        return [JSON.stringify({ ...envelope("claim", env.payload), schema: 99 }), ...rest].join("\n");
      },
      "pool",
    );
    expect(message).toMatch(/schema 99/);
  });

  it("a claim that could never be in the pool is refused, even with a matching hash", async () => {
    const message = await tamper(
      "pool.jsonl",
      (t) => {
        // Written with the store key, as a writer holding it could: the seal holds, the claim does not.
        const [first] = t.split("\n");
        const env = JSON.parse(first);
        const start = `pool:${openSession(bench.dir).info.original.sha256}`;
        const bound = `${start}\0lines 1`;
        return `${JSON.stringify(envelope("claim", { ...env.payload, verdict: "FAIL" }, SESSION_SCHEMA, bound))}\n`;
      },
      "pool",
    );
    expect(message).toMatch(/never enters the pool/);
  });

  it("an edited extraction record fails its check", async () => {
    const message = await tamper(
      "extraction.json",
      (t) => t.replace("a finite set of nodes", "a finite set of edges"),
      "check-text",
      [bench.file("x.txt", 'On p. 1 "a finite set of edges".')],
    );
    expect(message).toMatch(/extraction\.json fails its sha256 check/);
  });

  it("an extraction record other than the one session.json names is refused", async () => {
    const message = await tamper(
      "extraction.json",
      (t) => {
        const env = JSON.parse(t);
        const pages = env.payload.pages.map((p: { text: string }) => ({ ...p }));
        pages[0].text = pages[0].text.replace("nodes", "edges");
        return JSON.stringify(envelope("extraction", { ...env.payload, pages }, env.schema));
      },
      "draft-input",
    );
    expect(message).toMatch(/not the extraction record session\.json names/);
  });

  it("an edited session record fails its check", async () => {
    const message = await tamper("session.json", (t) => t.replace('"pages":10', '"pages":11'), "pool");
    expect(message).toMatch(/session\.json fails its sha256 check/);
  });
});
