/**
 * Bad input to a draft's check: huge and broken bibliographies, cycles, a citation of 500 keys, a 10 MB
 * draft, and files the bibliography names outside the roots, at a FIFO, or behind a symlink out. Each
 * is a per-citation outcome or a coded error naming the line; never a crash, a hang or a read outside.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readBibliography } from "../../src/drafts/bibliography.js";
import { checkDraft } from "../../src/drafts/check-draft.js";
import { CiteproofError } from "../../src/errors.js";
import { checkTextOperation } from "../../src/operations/check-text.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const scratch = tempDir("citeproof-drafts-bad-");
afterAll(() => scratch.remove());
const root = join(scratch.dir, "root");
const outside = join(scratch.dir, "outside");
mkdirSync(root);
mkdirSync(outside);
copyFileSync(fixture("interfaces"), join(root, "interfaces.pdf"));
copyFileSync(fixture("interfaces"), join(outside, "secret.pdf"));
const cache = join(scratch.dir, "cache");
const QUOTE = "harbour survey counted forty-two wooden boats moored";

function draftCheck(draft: string, bibText: string) {
  const bibliographyPath = join(root, "refs.bib");
  return readBibliography(bibText, bibliographyPath).then((bib) =>
    checkDraft(draft, bib, { bibliographyPath, roots: [root], fetch: false, open: { cacheDir: cache } }),
  );
}

describe("bad input to check-text --bib", () => {
  it("a bibliography of 100,000 entries: one pass, the cited entries read", async () => {
    const entries = Array.from(
      { length: 100_000 },
      (_, i) => `@article{k${i}, author = {Smith, Ann}, title = {Title ${i}}, year = {${1900 + (i % 100)}}}`,
    );
    entries.push("@article{last, title = {The last}, year = {2024}, file = {interfaces.pdf}}");
    const started = Date.now();
    const report = await draftCheck(`It says "${QUOTE}" [@last, p. 1]. And [@k99999].`, entries.join("\n"));
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(report.bibliography.entries).toBe(100_001);
    expect(report.citations.map((c) => [c.key, c.verdict, c.reason])).toEqual([
      ["last", "PASS", "found"],
      ["k99999", "FLAG", "source-unavailable"],
    ]);
  });

  it("a cyclic crossref ends; the entries still read", async () => {
    const bib = [
      "@article{a, title = {First}, crossref = {b}, file = {interfaces.pdf}}",
      "@article{b, title = {Second}, crossref = {a}}",
      "@article{c, title = {Third}, crossref = {c}}",
    ].join("\n");
    const report = await draftCheck(`"${QUOTE}" [@a, p. 1]; [@b, p. 1]; [@c, p. 1].`, bib);
    expect(report.citations.map((c) => [c.key, c.verdict, c.reason])).toEqual([
      ["a", "PASS", "found"],
      ["b", "FLAG", "no-quotation"],
      ["c", "FLAG", "source-unavailable"],
    ]);
  });

  it("unbalanced braces and a malformed entry are named with their line; the other entries read", async () => {
    const bib = [
      "@article{good1, title = {One}, file = {interfaces.pdf}}",
      "@article{open, title = {never {closed}, file = {interfaces.pdf}",
      "@article{broken, title = {x} year = 2001 file = {interfaces.pdf}}",
      "@article{good2, title = {Two}, file = {interfaces.pdf}}",
    ].join("\n");
    const report = await draftCheck(
      `"${QUOTE}" [@good1, p. 1]. "${QUOTE}" [@open, p. 1]. "${QUOTE}" [@broken, p. 1]. "${QUOTE}" [@good2, p. 1].`,
      bib,
    );
    expect(report.citations.map((c) => [c.key, c.verdict, c.reason])).toEqual([
      ["good1", "PASS", "found"],
      ["open", "FLAG", "source-unavailable"],
      ["broken", "FLAG", "source-unavailable"],
      ["good2", "PASS", "found"],
    ]);
    expect(report.citations[1].message).toMatch(/at line 2 .*unbalanced braces/);
    expect(report.citations[2].message).toMatch(/at line 3 is malformed/);
    expect(report.bibliography.problems.map((p) => p.line)).toEqual([2, 3]);
  });

  it("500 keys in one \\cite: one outcome each", async () => {
    const keys = Array.from({ length: 500 }, (_, i) => `key${i}`);
    const bib = "@article{key7, title = {Seven}, file = {interfaces.pdf}}";
    const report = await draftCheck(`\\documentclass{article}\nSee \\cite{${keys.join(",")}}.`, bib);
    expect(report.citations).toHaveLength(500);
    expect(report.citations.filter((c) => c.reason === "unknown-key")).toHaveLength(499);
    expect(report.citations.find((c) => c.key === "key7")?.reason).toBe("no-page");
  });

  it("a 10 MB draft is read whole, its citations each checked", async () => {
    const filler = "The boats were counted again in the autumn, and the lists agreed. ".repeat(30);
    const paragraph = `${filler}Prose about boats (Nobody 1999) and [3] and "${QUOTE}" [@k, p. 1].\n\n`;
    const draft = paragraph.repeat(Math.ceil(10_000_000 / paragraph.length));
    const started = Date.now();
    const report = await draftCheck(draft, "@article{k, title = {K}, file = {interfaces.pdf}}");
    expect(Date.now() - started).toBeLessThan(60_000);
    const n = draft.split("\n\n").length - 1;
    expect(report.summary).toMatchObject({ PASS: n, FAIL: 2 * n });
  }, 120_000);

  it("a file outside the roots, at a FIFO, or a symlink out: FLAG source-unavailable, nothing read outside", async () => {
    execFileSync("mkfifo", [join(root, "pipe.pdf")]);
    symlinkSync(join(outside, "secret.pdf"), join(root, "link.pdf"));
    const bib = [
      `@article{out, file = {${join(outside, "secret.pdf")}}}`,
      "@article{up, file = {../outside/secret.pdf}}",
      "@article{fifo, file = {pipe.pdf}}",
      "@article{link, file = {link.pdf}}",
    ].join("\n");
    const report = await draftCheck(
      ["out", "up", "fifo", "link"].map((k) => `"${QUOTE}" [@${k}, p. 1].`).join(" "),
      bib,
    );
    expect(report.citations.map((c) => [c.key, c.verdict, c.reason, c.source?.sha256 ?? null])).toEqual([
      ["out", "FLAG", "source-unavailable", null],
      ["up", "FLAG", "source-unavailable", null],
      ["fifo", "FLAG", "source-unavailable", null],
      ["link", "FLAG", "source-unavailable", null],
    ]);
    expect(report.citations.map((c) => c.message.match(/\[([A-Z_]+)\]$/)?.[1])).toEqual([
      "ACCESS_DENIED",
      "ACCESS_DENIED",
      "FILE_UNREADABLE",
      "ACCESS_DENIED",
    ]);
    expect(report.citations[2].message).toContain("a FIFO");
  });

  it("a bibliography that is not JSON, or a missing one, is a coded error (exit 2)", async () => {
    writeFileSync(join(root, "bad.json"), "{ not json");
    writeFileSync(join(root, "draft.md"), `"${QUOTE}" [@a, p. 1].\n`);
    const bad = await runCliInProcess([
      "check-text",
      join(root, "draft.md"),
      "--bib",
      join(root, "bad.json"),
      "--json",
    ]);
    expect(bad.status).toBe(2);
    expect((bad.json as { error: { code: string } }).error.code).toBe("EVIDENCE_NOT_JSON");
    const missing = await runCliInProcess([
      "check-text",
      join(root, "draft.md"),
      "--bib",
      join(root, "none.bib"),
      "--json",
    ]);
    expect(missing.status).toBe(2);
    expect((missing.json as { error: { code: string } }).error.code).toBe("FILE_NOT_FOUND");
    const format = await runCliInProcess([
      "check-text",
      join(root, "draft.md"),
      "--bib",
      join(root, "bad.json"),
      "--format",
      "xml",
    ]);
    expect([format.status, format.stderr]).toEqual([2, expect.stringContaining("--format must be one of")]);
  });

  it("a tool's bib is read only inside its allowed roots; pdf and bib together are refused", async () => {
    const ctx = { cwd: root, access: [root], open: { cacheDir: cache }, caller: "agent" as const };
    writeFileSync(join(outside, "refs.bib"), "@article{a, file = {secret.pdf}}");
    writeFileSync(join(root, "refs.bib"), "@article{a, file = {interfaces.pdf}}");
    const draft = `"${QUOTE}" [@a, p. 1].`;
    await expect(
      checkTextOperation.run({ bib: join(outside, "refs.bib"), draft }, ctx),
    ).rejects.toMatchObject({
      code: "ACCESS_DENIED",
    });
    const report = await checkTextOperation.run({ bib: "refs.bib", draft }, ctx);
    expect("sources" in report && report.citations[0].verdict).toBe("PASS");
    await expect(
      checkTextOperation.run({ bib: "refs.bib", pdf: "x.pdf", draft }, ctx),
    ).rejects.toBeInstanceOf(CiteproofError);
  });

  it("an @string doubled 60 times is named with its line, never expanded; the other entries read", async () => {
    const doublings = Array.from({ length: 60 }, (_, i) => `@string{s${i + 1} = s${i} # s${i}}`);
    const bib = [
      '@string{s0 = "xxxxxxxxxx"}',
      ...doublings,
      "@string{ok = {Journal} # { of Boats}}",
      "@article{good, title = {Good}, journal = ok, file = {interfaces.pdf}}",
      "@article{bomb, title = s60, file = {interfaces.pdf}}",
    ].join("\n");
    const report = await draftCheck(`"${QUOTE}" [@good, p. 1]. "${QUOTE}" [@bomb, p. 1].`, bib);
    expect(report.citations.map((c) => [c.key, c.verdict])).toEqual([
      ["good", "PASS"],
      ["bomb", "PASS"],
    ]);
    expect(report.bibliography.problems[0]).toMatchObject({ line: 14 });
    expect(report.bibliography.problems[0].message).toMatch(/@string s13 at line 14 .*too long/);
  });

  it("an entry of 5 MB is named malformed with its line, never parsed; the other entries read", async () => {
    const bib = [
      "@article{good, title = {Good}, file = {interfaces.pdf}}",
      `@article{huge, abstract = {${"word ".repeat(1 << 20)}}, file = {interfaces.pdf}}`,
    ].join("\n");
    const started = Date.now();
    const report = await draftCheck(`"${QUOTE}" [@good, p. 1]. "${QUOTE}" [@huge, p. 1].`, bib);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.citations.map((c) => [c.key, c.verdict, c.reason])).toEqual([
      ["good", "PASS", "found"],
      ["huge", "FLAG", "source-unavailable"],
    ]);
    expect(report.citations[1].message).toMatch(/at line 2 is malformed/);
  });
});
