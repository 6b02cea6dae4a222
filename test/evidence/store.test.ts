/**
 * Code point offsets, the write-once snapshot store, the event log, verified reads and span search.
 */
import { createHash } from "node:crypto";
import { appendFileSync, copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { appendEvent, readEvents } from "../../src/evidence/events.js";
import { htmlToText, MAX_HTML_DEPTH } from "../../src/evidence/html-text.js";
import { createRun, openRun } from "../../src/evidence/run.js";
import { findHeadings } from "../../src/evidence/sections.js";
import { buildSnapshot, SnapshotStore, sourceIdOf } from "../../src/evidence/snapshot.js";
import { localSource, readSource, registerSource, searchSource } from "../../src/evidence/sources.js";
import { CodePointIndex, codePointLength } from "../../src/util/codepoints.js";
import { fixture as fixturePdf } from "../helpers/fixture-files.js";
import { cleanTempDirs, readJson, tempDir } from "./helpers.js";

afterAll(() => cleanTempDirs());

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("code point offsets", () => {
  const samples = [
    "plain ascii",
    "𝑥 + 𝑦 = 𝑧",
    "emoji 😀 and a family 👩‍👩‍👧 and flags 🇫🇷",
    "mixed é (e\u0301) ß 中文 𝔸𝔹 end",
    "😀😀😀",
    "",
  ];

  it("converts both ways exactly as Array.from splits code points", () => {
    for (const text of samples) {
      const index = new CodePointIndex(text);
      const cps = Array.from(text);
      expect(index.length).toBe(cps.length);
      expect(codePointLength(text)).toBe(cps.length);
      let utf16 = 0;
      for (let cp = 0; cp <= cps.length; cp++) {
        expect(index.toUtf16(cp)).toBe(utf16);
        expect(index.toCodePoints(utf16)).toBe(cp);
        if (cp < cps.length) utf16 += cps[cp].length;
      }
      for (let a = 0; a <= cps.length; a++) {
        for (let b = a; b <= cps.length; b++) expect(index.slice(a, b)).toBe(cps.slice(a, b).join(""));
      }
    }
  });

  it("maps an offset inside a surrogate pair to the pair's start", () => {
    const index = new CodePointIndex("a😀b");
    expect(index.toCodePoints(2)).toBe(1);
    expect(index.toCodePoints(3)).toBe(2);
  });
});

describe("snapshot store", () => {
  it("derives the identity from url and text, and stores the text exactly", () => {
    const run = createRun(join(tempDir(), "run"));
    const text = "Line one\r\nCafe\u0301 vs Café\u00a0 trailing  \n\n\tTabbed 𝑥😀\n";
    const receipt = registerSource(run, { url: "https://example.org/a", text, access: "web" });
    expect(receipt.source_id).toBe(`src-${sha(`https://example.org/a\0${text}`)}`);
    expect(receipt.content_hash).toBe(`sha256:${sha(text)}`);
    const stored = readJson<{ text: string; length: number }>(
      join(run.dir, "sources", `${receipt.source_id}.json`),
    );
    expect(stored.text).toBe(text);
    expect(stored.length).toBe([...text].length);
    expect(receipt.event).toMatchObject({ type: "register", fresh: false });
  });

  it("is write-once: unchanged text is a no-op, changed text a new snapshot", () => {
    const run = createRun(join(tempDir(), "run"));
    const first = registerSource(run, { url: "https://example.org/a", text: "version one", access: "web" });
    const file = join(run.dir, "sources", `${first.source_id}.json`);
    const before = readFileSync(file);
    const mtime = statSync(file).mtimeMs;
    const again = registerSource(run, {
      url: "https://example.org/a",
      text: "version one",
      access: "abstract",
    });
    expect(again.created).toBe(false);
    expect(again.source_id).toBe(first.source_id);
    expect(again.access).toBe("web");
    expect(readFileSync(file)).toEqual(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
    const corrected = registerSource(run, {
      url: "https://example.org/a",
      text: "version two",
      access: "web",
    });
    expect(corrected.created).toBe(true);
    expect(corrected.source_id).not.toBe(first.source_id);
    expect(readdirSync(join(run.dir, "sources")).sort()).toEqual(
      [`${first.source_id}.json`, `${corrected.source_id}.json`].sort(),
    );
    expect(sourceIdOf("https://example.org/b", "version one")).not.toBe(first.source_id);
  });

  it("recomputes every digest on read; any edit is a hash mismatch", () => {
    const run = createRun(join(tempDir(), "run"));
    const receipt = registerSource(run, {
      url: "https://example.org/a",
      text: "The exact words.",
      access: "web",
    });
    const file = join(run.dir, "sources", `${receipt.source_id}.json`);
    const original = readFileSync(file, "utf8");
    const edits: [string, (s: Record<string, unknown>) => void][] = [
      ["text", (s) => (s.text = "The exact wordz.")],
      ["url", (s) => (s.url = "https://example.org/b")],
      ["access", (s) => (s.access = "full_text")],
      ["paper", (s) => (s.paper = { pmid: "1", doi: null, pmcid: null })],
      ["source_id", (s) => (s.source_id = `src-${"0".repeat(64)}`)],
    ];
    for (const [what, edit] of edits) {
      const value = JSON.parse(original);
      edit(value);
      writeFileSync(file, JSON.stringify(value));
      const loaded = new SnapshotStore(run).load(receipt.source_id);
      expect(loaded.ok, what).toBe(false);
      if (!loaded.ok) expect(loaded.code).toBe("SNAPSHOT_HASH_MISMATCH");
      expect(() => readSource(run, receipt.source_id)).toThrow(/fails verification/);
    }
    writeFileSync(file, "{ torn");
    expect(new SnapshotStore(run).load(receipt.source_id)).toMatchObject({
      ok: false,
      code: "SNAPSHOT_HASH_MISMATCH",
    });
    writeFileSync(file, original);
    expect(new SnapshotStore(run).load(receipt.source_id).ok).toBe(true);
    // Re-registering over a damaged copy is refused, never repaired.
    writeFileSync(file, original.replace("exact", "exakt"));
    expect(() =>
      registerSource(run, { url: "https://example.org/a", text: "The exact words.", access: "web" }),
    ).toThrow(/fails verification/);
  });

  it("refuses text that is not valid Unicode or is empty", () => {
    const run = createRun(join(tempDir(), "run"));
    expect(() => registerSource(run, { url: "u:1", text: "half \ud800 pair" })).toThrow(/unpaired surrogate/);
    expect(() => registerSource(run, { url: "u:1", text: "  \n " })).toThrow(/no text/);
    expect(() =>
      buildSnapshot({
        url: "u:1",
        text: "x",
        access: "nope" as "web",
        origin: "web",
        mediaType: "text/plain",
      }),
    ).toThrow(/access/);
  });
});

describe("run folder", () => {
  it("records created_at and refuses a non-empty folder", () => {
    const dir = join(tempDir(), "run");
    const run = createRun(dir, { now: new Date("2026-09-08T12:00:00.000Z") });
    expect(openRun(dir)).toMatchObject({
      runId: run.runId,
      createdAt: "2026-09-08T12:00:00.000Z",
      gate: false,
    });
    expect(() => createRun(dir)).toThrow(expect.objectContaining({ code: "RUN_EXISTS" }));
    expect(() => openRun(join(dir, "nope"))).toThrow(expect.objectContaining({ code: "RUN_NOT_FOUND" }));
    writeFileSync(join(dir, "run.json"), "{}");
    expect(() => openRun(dir)).toThrow(expect.objectContaining({ code: "RUN_CORRUPT" }));
  });

  it("refuses a run.json edited without the key: a library root of / stores no outside file", async () => {
    const root = tempDir();
    const dir = join(tempDir(), "run");
    createRun(dir, { libraryRoot: root });
    const outside = join(tempDir(), "outside.pdf");
    copyFileSync(fixturePdf("paper"), outside);
    const file = join(dir, "run.json");
    const record = readJson<Record<string, unknown>>(file);
    for (const edit of [{ library_root: "/" }, { gate: true }, { created_at: "2020-01-01T00:00:00.000Z" }]) {
      writeFileSync(file, JSON.stringify({ ...record, ...edit }));
      expect(() => openRun(dir)).toThrow(
        expect.objectContaining({ code: "RUN_CORRUPT", message: expect.stringContaining("seal") }),
      );
    }
    writeFileSync(file, JSON.stringify({ ...record, library_root: "/" }));
    await expect(localSource(dir, outside)).rejects.toMatchObject({ code: "RUN_CORRUPT" });
    expect(readdirSync(join(dir, "sources"))).toEqual([]);
    // A run.json copied from another run (its own seal intact) is not this folder's either.
    const other = join(tempDir(), "other");
    createRun(other, { libraryRoot: "/" });
    const copied = readJson<Record<string, unknown>>(join(other, "run.json"));
    writeFileSync(file, JSON.stringify({ ...copied, run_id: record.run_id }));
    expect(() => openRun(dir)).toThrow(expect.objectContaining({ code: "RUN_CORRUPT" }));
    writeFileSync(file, JSON.stringify(record));
    expect(openRun(dir).libraryRoot).toBe(root);
  });
});

describe("event log", () => {
  it("appends one line per event; a torn last line is closed off and reported, never trusted", () => {
    const run = createRun(join(tempDir(), "run"));
    appendEvent(run, { type: "fetch", sourceId: "src-a", url: "https://x", fresh: true, sha256: "ab" });
    appendFileSync(join(run.dir, "events.jsonl"), '{"schema_version":1,"type":"fetch","fre');
    appendEvent(run, { type: "read", sourceId: "src-a", fresh: false, sha256: "ab", start: 0, end: 4 });
    const log = readEvents(run);
    expect(log.events.map((e) => e.type)).toEqual(["fetch", "read"]);
    expect(log.invalid).toEqual([{ line: 2, reason: "not valid JSON (a torn or edited line)" }]);
    expect(readFileSync(join(run.dir, "events.jsonl"), "utf8").endsWith("\n")).toBe(true);
    expect(() =>
      appendEvent(run, { type: "register", sourceId: "src-a", fresh: true, sha256: "ab" }),
    ).toThrow();
  });
});

describe("verified reads and span search", () => {
  const text = `${"𝑥".repeat(50)} Intro.\nMethods\nWe enrolled 240 adolescents.\nResults\nThe mean score fell by 4.2 points (95% CI 2.1 to 6.3) at 12 weeks.\n${"filler words here. ".repeat(2000)}`;

  it("reads a bounded window in code points, logged as a read", () => {
    const run = createRun(join(tempDir(), "run"));
    const { source_id } = registerSource(run, { url: "https://example.org/t", text, access: "full_text" });
    const window = readSource(run, source_id);
    expect(window.start).toBe(0);
    expect(window.end).toBe(4000);
    expect(window.text).toBe([...text].slice(0, 4000).join(""));
    const part = readSource(run, source_id, { start: 50, end: 57 });
    expect(part.text).toBe(" Intro.");
    expect(() => readSource(run, source_id, { start: 0, end: 20_001 })).toThrow(/at most 20000/);
    expect(readSource(run, source_id, { start: 0, end: 20_000 }).text).toHaveLength(20_050);
    expect(() => readSource(run, `src-${"0".repeat(64)}`)).toThrow(
      expect.objectContaining({ code: "SOURCE_NOT_FOUND" }),
    );
    const reads = readEvents(run).events.filter((e) => e.type === "read");
    expect(reads).toHaveLength(3);
    expect(reads[1]).toMatchObject({ start: 50, end: 57, fresh: false });
  });

  it("finds exact matches on the folded view, with offsets into the original text", () => {
    const run = createRun(join(tempDir(), "run"));
    const { source_id } = registerSource(run, { url: "https://example.org/t", text, access: "full_text" });
    const found = searchSource(run, source_id, "MEAN  score fell by 4.2 points (95% CI 2.1 to 6.3)");
    expect(found.method).toBe("exact");
    const hit = found.hits[0];
    expect([...text].slice(hit.start, hit.end).join("")).toBe(
      "mean score fell by 4.2 points (95% CI 2.1 to 6.3)",
    );
    expect([...text].slice(hit.window_start, hit.window_end).join("")).toBe(hit.window);
  });

  it("falls back to scored approximate windows when there is no exact match", () => {
    const run = createRun(join(tempDir(), "run"));
    const { source_id } = registerSource(run, { url: "https://example.org/t", text, access: "full_text" });
    const found = searchSource(run, source_id, "score decreased 4.2 points at 12 weeks");
    expect(found.method).toBe("approximate");
    const hit = found.hits[0];
    expect(hit.score).toBeGreaterThanOrEqual(0.5);
    expect([...text].slice(hit.start, hit.end).join("")).toContain("4.2 points");
    expect(searchSource(run, source_id, "zebra giraffe").method).toBe("none");
  });
});

describe("HTML to text", () => {
  it("keeps visible text in order, drops scripts, records headings in code points", () => {
    const html = `<html><head><title>T &amp; U</title><style>.a{}</style></head><body>
      <h1>Top 😀</h1><p>One   two
      three &lt;four&gt;.</p><script>alert("no")</script>
      <h2>Results</h2><ul><li>first</li><li>second</li></ul>
      <table><tr><td>a</td><td>b</td></tr></table><pre>  keep
   spacing</pre></body></html>`;
    const out = htmlToText(html);
    expect(out.title).toBe("T & U");
    expect(out.text).toBe(
      "Top 😀\n\nOne two three <four>.\n\nResults\n\nfirst\nsecond\n\na\tb\n\n  keep\n   spacing",
    );
    const index = new CodePointIndex(out.text);
    expect(out.headings.map((h) => [h.title, index.slice(h.start, h.start + [...h.title].length)])).toEqual([
      ["Top 😀", "Top 😀"],
      ["Results", "Results"],
    ]);
  });

  it("takes citation_* meta tags only in their identifiers' forms", () => {
    const meta = (name: string, content: string) => `<meta name="${name}" content="${content}">`;
    const page = (...tags: string[]) =>
      htmlToText(`<html><head>${tags.join("")}</head><body>x</body></html>`);
    expect(
      page(
        meta("citation_pmid", "12345678; DROP TABLE"),
        meta("citation_pmid", "87654321"),
        meta("citation_doi", "https://doi.org/10.1000/abc.1"),
        meta("citation_pmcid", "123"),
      ).paper,
    ).toEqual({ pmid: "87654321", doi: "10.1000/abc.1", pmcid: "PMC123" });
    expect(
      page(
        meta("citation_pmid", "0123"),
        meta("citation_doi", "see the paper"),
        meta("citation_pmcid", "PMC"),
      ).paper,
    ).toBeNull();
  });

  it("reads elements nested up to MAX_HTML_DEPTH deep and refuses deeper, at once", () => {
    expect(htmlToText(`${"<div>".repeat(MAX_HTML_DEPTH)}deep`).text).toBe("deep");
    // Void elements and implied closes (<p> after <p>, <li> after <li>) do not nest.
    expect(htmlToText(`${"<p>a<br><img>".repeat(MAX_HTML_DEPTH * 2)}`).text.length).toBeGreaterThan(0);
    for (const html of [`${"<div>".repeat(200_000)}x`, `${"<ul><li>".repeat(100_000)}x`]) {
      expect(() => htmlToText(html)).toThrow(
        expect.objectContaining({ code: "CONTENT_NOT_SUPPORTED", details: { limit: MAX_HTML_DEPTH } }),
      );
    }
  });

  it("finds plain-text headings for section derivation", () => {
    const index = new CodePointIndex("Title\n1 Introduction\ntext\n2.1 Results\nmore\n## Discussion\nend");
    expect(findHeadings(index).map((h) => h.title)).toEqual(["Introduction", "Results", "Discussion"]);
  });
});
