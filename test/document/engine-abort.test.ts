// An engine that aborts (here: a flate bomb whose page needs more memory than the engine may take)
// fails that page with a coded reason, is discarded, and a fresh engine serves the rest; no process
// is kept alive by it, and the process's peak memory stays under the budget.

import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeEngine } from "../../src/document/engine-client.js";
import { openDocument } from "../../src/document/open.js";
import { closeRenderer, renderRegion } from "../../src/document/render.js";
import { readPdfFile } from "../../src/source/file.js";
import { fixture, repoRoot } from "../helpers/fixture-files.js";
import { flateBombPdf, formFanOutPdf } from "../helpers/hostile-pdf.js";
import { mcpCalls } from "../helpers/mcp-stdio.js";
import { cliPath, runCli } from "../helpers/run-cli.js";

// The smallest budget: the engine may grow to 128 MiB, so a 512 MiB page aborts it quickly.
const SMALL = { CITEPROOF_MAX_MEMORY_MB: "384" };
const savedMemoryMb = process.env.CITEPROOF_MAX_MEMORY_MB;
process.env.CITEPROOF_MAX_MEMORY_MB = SMALL.CITEPROOF_MAX_MEMORY_MB;

const dir = join(repoRoot, "test", ".tmp", "engine-abort");
const bomb = join(dir, "bomb.pdf");
const bigBomb = join(dir, "bomb-1g.pdf");
const relBomb = "test/.tmp/engine-abort/bomb.pdf";

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  // Three pages, the second hostile.
  writeFileSync(bomb, flateBombPdf(512, 3, 2));
  writeFileSync(bigBomb, flateBombPdf(1024, 3, 2));
});
afterAll(async () => {
  if (savedMemoryMb === undefined) delete process.env.CITEPROOF_MAX_MEMORY_MB;
  else process.env.CITEPROOF_MAX_MEMORY_MB = savedMemoryMb;
  await closeEngine();
  await closeRenderer();
  rmSync(dir, { recursive: true, force: true });
});

const quote = (page: number, text: string) => ({ id: `p${page}`, kind: "quotation", page, text });
const evidence = [
  quote(1, "Page 1 line 1: bootstrap stratum estimate"),
  quote(2, "The hostile page is drawn here"),
  quote(3, "Page 3 line 1: coverage survey region"),
];

describe("an engine that aborts", () => {
  it("fails only the page that aborted it; a fresh engine reads the others", async () => {
    const doc = await openDocument(bomb, { noCache: true });
    expect(doc.pageCount).toBe(3);
    expect(doc.pages[0]?.text).toContain("Page 1 line 1");
    expect(doc.pages[1]?.extractionError).toMatch(
      /page 2 needs more than the engine's memory limit of 128 MB/,
    );
    expect(doc.pages[2]?.text).toContain("Page 3 line 1");
    // The next document is served by a fresh engine, not one that lost its memory.
    const after = await openDocument(fixture("paper"), { noCache: true });
    expect(after.pages[0]?.hasTextLayer).toBe(true);
  });

  it("forms that fan out fail their page the same way, and the others are read", async () => {
    const fan = join(dir, "fan.pdf");
    writeFileSync(fan, formFanOutPdf(10, 6, 3, 2));
    const doc = await openDocument(fan, { noCache: true });
    expect(doc.pages[1]?.extractionError).toMatch(/page 2 needs more than the engine's memory limit/);
    expect(doc.pages[0]?.text).toContain("Page 1 line 1");
    expect(doc.pages[2]?.text).toContain("Page 3 line 1");
  });

  it("a render of the page is a coded error, and the next render is served", async () => {
    const source = await readPdfFile(bomb);
    await expect(renderRegion(source, 2, "page", 72)).rejects.toMatchObject({ code: "ENGINE_MEMORY_LIMIT" });
    const ok = await renderRegion(source, 1, "page", 72);
    expect(ok.widthPx).toBe(612);
  });

  it("verify FLAGs the page as unreadable, checks the others, and the process exits, cold and warm", () => {
    const file = join(dir, "evidence.json");
    writeFileSync(file, JSON.stringify(evidence));
    const cacheDir = join(dir, "cache");
    for (const round of ["cold", "warm"]) {
      const run = runCli(["verify", relBomb, "--evidence", file, "--json", "--cache-dir", cacheDir], {
        env: SMALL,
        timeoutMs: 30_000,
      });
      expect(run.status, `${round}: ${run.stderr}`).toBe(0);
      const results = (run.json as { results: { verdict: string; reason: string }[] }).results;
      expect(results.map((r) => [r.verdict, r.reason])).toEqual([
        ["PASS", "found"],
        ["FLAG", "page-unreadable"],
        ["PASS", "found"],
      ]);
    }
    const anchors = runCli(["anchors", relBomb, "--json", "--cache-dir", cacheDir], { env: SMALL });
    expect(anchors.status).toBe(0);
    expect((anchors.json as { pagesWithoutText: number[] }).pagesWithoutText).toEqual([2]);
  });

  it("cite-check --no-cache calls the page insufficient evidence and exits", () => {
    const citations = join(dir, "citations.json");
    const box = { left: 0, bottom: 0, right: 612, top: 792 };
    writeFileSync(citations, JSON.stringify([{ quote: "The hostile page", page: 2, bounding_box: box }]));
    const run = runCli(["cite-check", relBomb, "--citations", citations, "--no-cache", "--json"], {
      env: SMALL,
      timeoutMs: 30_000,
    });
    expect(run.status).toBe(1);
    expect((run.json as { results: unknown[] }).results[0]).toMatchObject({
      verdict: "insufficient_evidence",
      reason: "extraction_failed",
    });
  });

  it("the MCP server serves the next call with a fresh engine and exits when stdin closes", () => {
    const verify = (pdf: string, records: unknown[]) => ({
      name: "verify",
      arguments: { pdf, evidence: records },
    });
    const run = mcpCalls(
      [verify(relBomb, [evidence[1]]), verify("test/fixtures/paper.pdf", [{ kind: "page", page: 1 }])],
      { args: ["--no-cache"], env: SMALL },
    );
    expect(run.status).toBe(0);
    const verdictOf = (id: number) => JSON.parse(run.replies.get(id)!.result!.content[0].text).results[0];
    expect(verdictOf(2)).toMatchObject({ verdict: "FLAG", reason: "page-unreadable" });
    expect(verdictOf(3)).toMatchObject({ verdict: "FLAG", reason: "no-quotation" });
  });

  it("under the default budget a 1 GiB bomb keeps the process's peak memory under 1 GiB", () => {
    // The child reports its own peak resident memory as it exits.
    const hook =
      "data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS+'\\n'))";
    const file = join(dir, "evidence-1g.json");
    writeFileSync(file, JSON.stringify(evidence));
    const run = spawnSync(
      process.execPath,
      ["--import", hook, cliPath, "verify", bigBomb, "--evidence", file, "--json", "--no-cache"],
      {
        cwd: repoRoot,
        env: { ...process.env, CITEPROOF_MAX_MEMORY_MB: "" },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).results[1]).toMatchObject({ verdict: "FLAG", reason: "page-unreadable" });
    const kb = Number(/maxrss=(\d+)/.exec(run.stderr)?.[1]);
    expect(kb).toBeGreaterThan(0);
    expect(kb).toBeLessThan(1024 * 1024);
  });
});

describe("every path calls a page that aborted the engine an extraction failure, never absent", () => {
  const labels = [
    { id: "fig", kind: "figure", label: "1" },
    { id: "eq", kind: "equation", label: "1" },
  ];

  it("verify FLAGs a figure or equation label not found elsewhere page-unreadable, cold and warm", () => {
    const file = join(dir, "labels.json");
    writeFileSync(file, JSON.stringify([evidence[1], ...labels]));
    const cacheDir = join(dir, "cache-labels");
    for (const round of ["cold", "warm"]) {
      const run = runCli(["verify", relBomb, "--evidence", file, "--json", "--cache-dir", cacheDir], {
        env: SMALL,
        timeoutMs: 30_000,
      });
      expect(run.status, `${round}: ${run.stderr}`).toBe(0);
      const results = (run.json as { results: { verdict: string; reason: string; message: string }[] })
        .results;
      expect(results.map((r) => [r.verdict, r.reason])).toEqual([
        ["FLAG", "page-unreadable"],
        ["FLAG", "page-unreadable"],
        ["FLAG", "page-unreadable"],
      ]);
      expect(results[1].message).toMatch(/page 2 could not be extracted/);
    }
    const anchors = runCli(["anchors", relBomb, "--cache-dir", cacheDir], { env: SMALL });
    expect(anchors.stdout).toMatch(/pages whose text could not be extracted \(.*\): 2$/m);
    expect(anchors.stdout).not.toMatch(/pages that gave no text/);
    const json = runCli(["anchors", relBomb, "--json", "--cache-dir", cacheDir], { env: SMALL });
    expect((json.json as { pagesUnreadable: number[] }).pagesUnreadable).toEqual([2]);
  });

  it("check-text FLAGs the quotation and the figure page-unreadable", () => {
    const draft = join(dir, "draft.txt");
    writeFileSync(draft, 'On p. 2 they write "The hostile page is drawn here". See Fig. (1).\n');
    const run = runCli(["check-text", relBomb, draft, "--json", "--no-cache"], {
      env: SMALL,
      timeoutMs: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const citations = (run.json as { citations: { verdict: string; reason: string }[] }).citations;
    expect(citations.map((c) => [c.verdict, c.reason])).toEqual([
      ["FLAG", "page-unreadable"],
      ["FLAG", "page-unreadable"],
    ]);
  });

  it("cite-check --ocr auto keeps it insufficient evidence (extraction_failed)", () => {
    const citations = join(dir, "citations-ocr.json");
    const box = { left: 0, bottom: 0, right: 612, top: 792 };
    writeFileSync(citations, JSON.stringify([{ quote: "The hostile page", page: 2, bounding_box: box }]));
    const run = runCli(
      ["cite-check", relBomb, "--citations", citations, "--no-cache", "--ocr", "auto", "--json"],
      { env: SMALL, timeoutMs: 60_000 },
    );
    expect(run.status, run.stderr).toBe(1);
    expect((run.json as { results: unknown[] }).results[0]).toMatchObject({
      verdict: "insufficient_evidence",
      reason: "extraction_failed",
    });
  });

  it("session verify FLAGs the quotation and the labels page-unreadable against the stored record", () => {
    const sessions = join(dir, "sessions");
    const env = { ...SMALL, CITEPROOF_CACHE_DIR: join(dir, "cache-session") };
    const created = runCli(["session", "new", "bomb", relBomb, "--session", sessions, "--json"], {
      env,
      timeoutMs: 30_000,
    });
    expect(created.status, created.stderr).toBe(0);
    const file = join(dir, "session-evidence.json");
    writeFileSync(file, JSON.stringify([evidence[1], ...labels]));
    const run = runCli(["session", "verify", "bomb", "--evidence", file, "--session", sessions, "--json"], {
      env,
      timeoutMs: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const results = (run.json as { results: { verdict: string; reason: string }[] }).results;
    expect(results.map((r) => [r.verdict, r.reason])).toEqual([
      ["FLAG", "page-unreadable"],
      ["FLAG", "page-unreadable"],
      ["FLAG", "page-unreadable"],
    ]);
  });

  it("source local refuses the PDF with EXTRACTION_FAILED naming the page", () => {
    const runDir = join(dir, "run");
    expect(runCli(["run", "new", runDir, "--library-root", dir]).status).toBe(0);
    const run = runCli(["source", "local", "--run-dir", runDir, "--file", bomb, "--json"], {
      env: { ...SMALL, CITEPROOF_CACHE_DIR: join(dir, "cache-source") },
      timeoutMs: 30_000,
    });
    expect(run.status, run.stdout).toBe(2);
    expect((run.json as { error: { code: string; message: string } }).error).toMatchObject({
      code: "EXTRACTION_FAILED",
      message: expect.stringMatching(/^page 2 of the PDF could not be extracted/),
    });
  });
});
