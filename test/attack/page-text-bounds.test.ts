/**
 * Bounds on what a page and a call leave behind: a ToUnicode map that makes each glyph yield a long
 * string (a 1 KB PDF, millions of characters) is refused as unreadable within the memory budget,
 * never read as text a quote can match; an engine whose memory grew large is let go after its call;
 * over MCP HTTP, calls whose clients went away do not keep the next call waiting past its deadline.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: the attack suite is plain JavaScript.
import { runCli } from "../../scripts/attack/child-run.mjs";
// @ts-expect-error: the attack suite is plain JavaScript.
import { httpDisconnectAttack } from "../../scripts/attack/http-disconnect.mjs";
// @ts-expect-error: the attack suite is plain JavaScript.
import { toUnicodeBombPdf } from "../../scripts/attack/tounicode-bomb.mjs";
import { closeEngine, engine, engineWorkersStarted } from "../../src/document/engine-client.js";
import { CiteproofError } from "../../src/errors.js";
import { readPdfFile } from "../../src/source/file.js";
import { fixture } from "../helpers/fixture-files.js";

const dir = mkdtempSync(join(tmpdir(), "citeproof-page-bounds-"));
afterAll(async () => {
  await closeEngine();
  rmSync(dir, { recursive: true, force: true });
});

const citations = join(dir, "citations.json");
writeFileSync(
  citations,
  JSON.stringify([{ quote: "AAAA", page: 1, bounding_box: { left: 0, bottom: 0, right: 612, top: 792 } }]),
);

async function citeCheck(name: string, pdf: Buffer) {
  const file = join(dir, name);
  writeFileSync(file, pdf);
  const run = await runCli(
    ["cite-check", file, "--citations", citations, "--json", "--no-cache", "--serve", "never"],
    { timeoutMs: 60_000 },
  );
  return { run, result: JSON.parse(run.stdout).results[0] };
}

describe("a ToUnicode map that makes glyphs yield long strings", () => {
  it("5 million characters from a 1 KB PDF: refused, under the memory budget", async () => {
    const pdf = toUnicodeBombPdf(50_000, 100);
    expect(pdf.length).toBeLessThan(1500);
    const { run, result } = await citeCheck("bomb.pdf", pdf);
    expect(result.verdict).toBe("insufficient_evidence");
    expect(result.reason).toBe("extraction_failed");
    expect(result.message).toMatch(/the page yields 5000\d+ characters, more than the 1048576/);
    expect(run.peakMb).toBeLessThan(1024);
  }, 90_000);

  it("100 characters a glyph on a page under the page's bound: refused as well", async () => {
    const { result } = await citeCheck("per-glyph.pdf", toUnicodeBombPdf(5_000, 100));
    expect(result.reason).toBe("extraction_failed");
    expect(result.message).toMatch(/a glyph of the page yields more than 64 characters/);
  });

  it("a glyph of 30 characters (a long ligature's reading) is still read", async () => {
    const { result } = await citeCheck("ligature.pdf", toUnicodeBombPdf(2_000, 30));
    expect(result.verdict).toBe("verified_exact");
  });
});

/** Reads page 1 of `path` through the process's engine, as a check reads its cited pages. */
async function readFirstPage(path: string): Promise<number> {
  const source = await readPdfFile(path);
  let chars = 0;
  await engine().call(
    "extract",
    source,
    { pages: [1], withGeometry: false },
    {
      timeoutMs: 60_000,
      timeoutError: () => new CiteproofError("EXTRACTION_TIMEOUT", "too slow"),
      fallbackCode: "EXTRACTION_FAILED",
      onChunk: (chunk) => {
        if (chunk.type === "page") chars = chunk.page.text.text.length;
      },
    },
  );
  return chars;
}

describe("an engine whose memory grew large", () => {
  it("is let go after its call; an ordinary one is kept for the next", async () => {
    await readFirstPage(fixture("paper"));
    const kept = engineWorkersStarted();
    await readFirstPage(fixture("cite-check"));
    expect(engineWorkersStarted()).toBe(kept);
    const big = join(dir, "big.pdf");
    // 900,000 characters: the engine's memory grows past 64 MiB reading the page.
    writeFileSync(big, toUnicodeBombPdf(30_000, 30));
    expect(await readFirstPage(big)).toBeGreaterThan(800_000);
    await readFirstPage(fixture("paper"));
    expect(engineWorkersStarted()).toBe(kept + 1);
  }, 90_000);
});

describe("MCP over HTTP: clients that go away mid-call", () => {
  it("their work is stopped; the next call is answered within its deadline", async () => {
    const stats = await httpDisconnectAttack(dir, { rounds: 2 });
    expect(stats).toMatchObject({ tried: 2, verdicts: 2, hangs: 0, crashes: 0 });
  }, 120_000);
});
