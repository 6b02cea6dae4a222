/**
 * Every reason code of the assembler, produced by a record that deserves it, and the gate.
 */
import { appendFileSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assembleRun } from "../../src/evidence/assemble.js";
import { appendEvent } from "../../src/evidence/events.js";
import { createRun, type RunInfo } from "../../src/evidence/run.js";
import { fetchSource, localSource, registerSource } from "../../src/evidence/sources.js";
import {
  cleanTempDirs,
  codes,
  expectCode,
  FIXTURE_PDF,
  startServer,
  tempDir,
  writeRecords,
} from "./helpers.js";

// 1,000 astral characters then plain text: code point and UTF-16 offsets differ by 1,000.
const ASTRAL = "𝑥".repeat(1000);
const BODY = `${ASTRAL}\nResults\nThe median survival was 14 months in the treated group. 😀 Side effects were mild.\n${"more text ".repeat(300)}`;
const SENTENCE = "The median survival was 14 months in the treated group.";

let server: Awaited<ReturnType<typeof startServer>>;
let url: string;
let otherUrl: string;

beforeAll(async () => {
  server = await startServer({
    "/trial.txt": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end(BODY);
    },
    "/other.txt": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end("An unrelated page about something else entirely.");
    },
  });
  url = `${server.base}/trial.txt`;
  otherUrl = `${server.base}/other.txt`;
});

afterAll(async () => {
  await server.close();
  cleanTempDirs();
});

const at = (needle: string) => {
  const utf16 = BODY.indexOf(needle);
  const start = [...BODY.slice(0, utf16)].length;
  return { start, end: start + [...needle].length };
};

async function freshRun(): Promise<{ run: RunInfo; sourceId: string }> {
  const run = createRun(join(tempDir(), "run"));
  const receipt = await fetchSource(run, url, {
    access: "full_text",
    origin: "pmc",
    paper: { pmid: "12345678" },
  });
  return { run, sourceId: receipt.source_id };
}

function span(sourceId: string, extra: Record<string, unknown> = {}) {
  return {
    claim: "survival 14 months",
    evidence_id: "pmid:12345678",
    source_id: sourceId,
    ...at(SENTENCE),
    access: "full_text",
    ...extra,
  };
}

describe("span checks", () => {
  it("accepts a span whose offsets are code points, and derives its section", async () => {
    const { run, sourceId } = await freshRun();
    writeRecords(run, {
      claims: [{ id: "c1", text: "Treated patients lived a median 14 months.", spans: [span(sourceId)] }],
    });
    const { result } = await assembleRun(run);
    expect(result.diagnostics.unresolved).toEqual([]);
    expect(result.accepted[0]).toMatchObject({
      excerpt: SENTENCE,
      section: "Results",
      start: 1009,
      page: null,
    });
    expect(BODY.indexOf(SENTENCE)).toBe(2009);
  });

  it("UNKNOWN_SOURCE: no such snapshot, a malformed id, or a snapshot registered for other evidence", async () => {
    const { run, sourceId } = await freshRun();
    const pinned = await fetchSource(run, otherUrl, { evidenceId: "web:other" });
    writeRecords(run, {
      claims: [
        {
          id: "c1",
          text: "x",
          spans: [
            span(`src-${"0".repeat(64)}`),
            span("src-not-a-hash"),
            {
              claim: "y",
              evidence_id: "web:elsewhere",
              source_id: pinned.source_id,
              start: 0,
              end: 5,
              access: "web",
            },
            span(sourceId),
          ],
        },
      ],
    });
    const { result } = await assembleRun(run);
    expectCode(result, "UNKNOWN_SOURCE", "claims[0].spans[0]");
    expectCode(result, "UNKNOWN_SOURCE", "claims[0].spans[1]");
    expectCode(result, "UNKNOWN_SOURCE", "claims[0].spans[2]");
    // Spans are ORed: the good one still backs the claim, and is the only one accepted.
    expect(result.accepted.map((a) => a.span)).toEqual(["claims[0].spans[3]"]);
    expect(result.records[0].status).toBe("accepted");
  });

  it("SPAN_OUT_OF_RANGE: past the end, empty, or negative", async () => {
    const { run, sourceId } = await freshRun();
    const length = [...BODY].length;
    writeRecords(run, {
      claims: [
        {
          id: "c1",
          text: "x",
          spans: [
            span(sourceId, { start: length - 5, end: length + 1 }),
            span(sourceId, { start: 10, end: 10 }),
            span(sourceId, { start: -1, end: 4 }),
          ],
        },
      ],
    });
    const { result } = await assembleRun(run);
    for (const i of [0, 1, 2]) expectCode(result, "SPAN_OUT_OF_RANGE", `claims[0].spans[${i}]`);
    // Code points, not UTF-16 units: the last code point is in range.
    writeRecords(run, {
      claims: [{ id: "c1", text: "x", spans: [span(sourceId, { start: length - 1, end: length })] }],
    });
    expect((await assembleRun(run)).result.diagnostics.unresolved).toEqual([]);
  });

  it("SPAN_TOO_LONG: 2,001 code points fail (never truncated); 2,000 astral code points pass", async () => {
    const { run, sourceId } = await freshRun();
    writeRecords(run, {
      claims: [
        {
          id: "c1",
          text: "x",
          spans: [span(sourceId, { start: 0, end: 2000 }), span(sourceId, { start: 0, end: 2001 })],
        },
      ],
    });
    const { result } = await assembleRun(run);
    expectCode(result, "SPAN_TOO_LONG", "claims[0].spans[1]");
    expect(result.diagnostics.unresolved).toHaveLength(1);
    expect(result.accepted).toHaveLength(1);
    expect([...result.accepted[0].excerpt]).toHaveLength(2000);
    expect(result.accepted[0].excerpt).toBe([...BODY].slice(0, 2000).join(""));
    expect(result.accepted[0].excerpt.length).toBe(3001);
  });

  it("ACCESS_MISMATCH: the span's access is copied from the snapshot, never chosen", async () => {
    const { run, sourceId } = await freshRun();
    writeRecords(run, { claims: [{ id: "c1", text: "x", spans: [span(sourceId, { access: "abstract" })] }] });
    expectCode((await assembleRun(run)).result, "ACCESS_MISMATCH", "claims[0].spans[0]");
  });

  it("NO_FRESH_FETCH: a registered snapshot is never fresh", async () => {
    const run = createRun(join(tempDir(), "run"));
    const reg = registerSource(run, { url, text: BODY, access: "full_text", paper: { pmid: "12345678" } });
    writeRecords(run, { claims: [{ id: "c1", text: "x", spans: [span(reg.source_id)] }] });
    expectCode((await assembleRun(run)).result, "NO_FRESH_FETCH", "claims[0].spans[0]");
  });

  it("spans are ORed, never merged: overlapping spans are each accepted", async () => {
    const { run, sourceId } = await freshRun();
    const s = at(SENTENCE);
    writeRecords(run, {
      claims: [
        {
          id: "c1",
          text: "x",
          spans: [span(sourceId), span(sourceId, { start: s.start + 4, end: s.end + 10 })],
        },
      ],
    });
    const { result } = await assembleRun(run);
    expect(result.accepted.map((a) => [a.start, a.end])).toEqual([
      [s.start, s.end],
      [s.start + 4, s.end + 10],
    ]);
  });
});

describe("record checks", () => {
  it("NO_SPANS: figures, facts and judgements owe spans; unclear and empty ones do not", async () => {
    const { run, sourceId } = await freshRun();
    writeRecords(run, {
      extractions: [
        {
          id: "e1",
          evidence_id: "pmid:12345678",
          outcomes: [
            { name: "survival", effect: 14 },
            { name: "quality of life", effect: null, ci_low: null },
            { name: "survival again", p_value: 0.01, spans: [span(sourceId)] },
          ],
          facts: [
            { field: "population", value: "adults" },
            { field: "setting", value: null },
          ],
        },
      ],
      appraisals: [
        {
          id: "a1",
          evidence_id: "pmid:12345678",
          domains: [
            { domain: "Randomisation", judgement: "high", spans: [] },
            { domain: "Selection of the reported result", judgement: "unclear", spans: [] },
          ],
        },
      ],
      claims: [{ id: "c1", text: "legacy claim with no spans" }],
    });
    const { result } = await assembleRun(run);
    expectCode(result, "NO_SPANS", "extractions[0].outcomes[0]");
    expectCode(result, "NO_SPANS", "extractions[0].facts[0]");
    expectCode(result, "NO_SPANS", "appraisals[0].domains[0]");
    expectCode(result, "NO_SPANS", "claims[0]");
    expect(result.diagnostics.unresolved.map((u) => u.path).sort()).toEqual(
      [
        "appraisals[0].domains[0]",
        "claims[0]",
        "extractions[0].facts[0]",
        "extractions[0].outcomes[0]",
      ].sort(),
    );
    expect(Object.fromEntries(result.records.map((r) => [r.id, r.status]))).toEqual({
      e1: "partial",
      a1: "rejected",
      c1: "rejected",
    });
    expect(result.accepted.map((a) => a.field)).toEqual(["outcomes[2]"]);
  });

  it("UNSUPPORTED_VERDICT: only a 'supported' claim can be accepted", async () => {
    const { run, sourceId } = await freshRun();
    writeRecords(run, {
      claims: [
        { id: "c1", text: "x", verdict: "unsupported", spans: [span(sourceId)] },
        { id: "c2", text: "y", verdict: "unverifiable", spans: [] },
      ],
    });
    const { result } = await assembleRun(run);
    expectCode(result, "UNSUPPORTED_VERDICT", "claims[0].verdict");
    expectCode(result, "UNSUPPORTED_VERDICT", "claims[1].verdict");
    expect(result.accepted).toEqual([]);
  });

  it("URL_NOT_RETRIEVED: a cited URL must have been fetched in this run for the record's sources", async () => {
    const { run, sourceId } = await freshRun();
    const reg = registerSource(run, {
      url: "https://example.org/registered",
      text: "Some registered text here.",
      access: "web",
    });
    writeRecords(run, {
      claims: [
        { id: "c1", text: "x", urls: [url], spans: [span(sourceId)] },
        { id: "c2", text: "y", urls: ["https://example.org/never-fetched"], spans: [span(sourceId)] },
      ],
      report: {
        footnotes: [
          { id: "1", source_id: sourceId, url },
          { id: "2", source_id: reg.source_id, url: "https://example.org/registered" },
        ],
      },
    });
    const { result } = await assembleRun(run);
    expectCode(result, "URL_NOT_RETRIEVED", "claims[1].urls[0]");
    expectCode(result, "URL_NOT_RETRIEVED", "report.footnotes[1]");
    expect(result.diagnostics.unresolved.filter((u) => u.code === "URL_NOT_RETRIEVED")).toHaveLength(2);
    expect(result.records.map((r) => r.status)).toEqual(["accepted", "rejected"]);
  });

  it("SOURCE_OUTSIDE_ACCEPTED: the report may cite only sources behind accepted evidence", async () => {
    const { run, sourceId } = await freshRun();
    const other = await fetchSource(run, otherUrl);
    writeRecords(run, {
      claims: [
        { id: "c1", text: "x", spans: [span(sourceId)] },
        {
          id: "c2",
          text: "y",
          spans: [
            {
              claim: "z",
              evidence_id: "web:other",
              source_id: other.source_id,
              start: 0,
              end: 10,
              access: "web",
            },
          ],
        },
      ],
      report: {
        footnotes: [
          { id: "1", source_id: sourceId, claim_id: "c1" },
          { id: "2", source_id: other.source_id, claim_id: "c1" },
          { id: "3", source_id: `src-${"a".repeat(64)}` },
          { id: "4", source_id: other.source_id },
        ],
      },
    });
    const { result } = await assembleRun(run);
    expectCode(result, "SOURCE_OUTSIDE_ACCEPTED", "report.footnotes[1]");
    expectCode(result, "SOURCE_OUTSIDE_ACCEPTED", "report.footnotes[2]");
    expect(result.diagnostics.unresolved.map((u) => u.path)).toEqual([
      "report.footnotes[1]",
      "report.footnotes[2]",
    ]);
  });

  it("NO_PAPER_ID: a literature claim must trace to an identifier the snapshot agrees with", async () => {
    const { run, sourceId } = await freshRun();
    const web = await fetchSource(run, otherUrl);
    writeRecords(run, {
      claims: [
        { id: "c1", text: "x", spans: [span(sourceId, { evidence_id: "pmid:99999999" })] },
        { id: "c2", text: "y", spans: [span(sourceId, { evidence_id: "doi:10.1000/xyz" })] },
        {
          id: "c3",
          text: "z",
          literature: true,
          spans: [
            {
              claim: "w",
              evidence_id: "web:other",
              source_id: web.source_id,
              start: 0,
              end: 10,
              access: "web",
            },
          ],
        },
        // Not literature: a web source needs no paper identifier.
        {
          id: "c4",
          text: "v",
          spans: [
            {
              claim: "w",
              evidence_id: "web:other",
              source_id: web.source_id,
              start: 0,
              end: 10,
              access: "web",
            },
          ],
        },
      ],
    });
    const { result } = await assembleRun(run);
    expectCode(result, "NO_PAPER_ID", "claims[0].spans[0]");
    expectCode(result, "NO_PAPER_ID", "claims[1].spans[0]");
    expectCode(result, "NO_PAPER_ID", "claims[2].spans[0]");
    expect(result.records.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "accepted"]);
  });

  it("SCHEMA_ERROR: malformed files, records and spans are diagnosed, never guessed at", async () => {
    const { run, sourceId } = await freshRun();
    writeRecords(run, {
      claims: [
        { id: "c1", text: "x", spans: [span(sourceId, { quote: "typed by hand" }), span(sourceId)] },
        { id: "bad id!", text: "y" },
        { id: "c3", text: "z", spans: [span(sourceId, { start: 1.5 })] },
        { id: "c4", text: "z", verdict: "probably", spans: [] },
      ],
      extractions: [
        {
          id: "e1",
          evidence_id: "pmid:12345678",
          outcomes: [{ name: "n", effect: 1, spans: [span(sourceId, { evidence_id: "pmid:1" })] }],
        },
      ],
      appraisals: [{ id: "a1", evidence_id: "pmid:12345678", quotes: ["typed"], domains: [] }],
      report: { footnotes: [{ id: "1", source_id: sourceId, claim_id: "no-such-claim" }] },
    });
    const { result } = await assembleRun(run);
    expectCode(result, "SCHEMA_ERROR", "claims[0].spans[0]");
    expectCode(result, "SCHEMA_ERROR", "claims[1]");
    expectCode(result, "SCHEMA_ERROR", "claims[2].spans[0]");
    expectCode(result, "SCHEMA_ERROR", "claims[3]");
    expectCode(result, "SCHEMA_ERROR", "extractions[0].outcomes[0].spans[0]");
    expectCode(result, "SCHEMA_ERROR", "appraisals[0]");
    expectCode(result, "SCHEMA_ERROR", "report.footnotes[0]");
    expect(result.accepted.map((a) => a.span)).toEqual(["claims[0].spans[1]"]);

    writeRecords(run, { claims: "[{ not json" });
    expectCode((await assembleRun(run)).result, "SCHEMA_ERROR", "claims.json");
  });

  it("SCHEMA_ERROR names an unknown field of a record (a typo such as `txt` is never ignored)", async () => {
    const { run, sourceId } = await freshRun();
    writeRecords(run, {
      claims: [
        { id: "c1", text: "x", txt: "typo", spans: [span(sourceId)] },
        { id: "c2", text: "y", spans: [span(sourceId)] },
      ],
      extractions: [{ id: "e1", evidence_id: "pmid:12345678", facts: [{ field: "n", value: 1, valu: 2 }] }],
      appraisals: [
        { id: "a1", evidence_id: "pmid:12345678", domains: [{ domain: "d", judgement: "low", note: 1 }] },
      ],
      report: { footnotes: [{ id: "1", source_id: sourceId, claim: "c2" }] },
    });
    const { result } = await assembleRun(run);
    const messages = result.diagnostics.unresolved
      .filter((u) => u.code === "SCHEMA_ERROR")
      .map((u) => u.message);
    for (const field of [
      "claims[0].txt",
      "extractions[0].facts[0].valu",
      "appraisals[0].domains[0].note",
      "report.footnotes[0].claim",
    ])
      expect(
        messages.some((m) => m.includes(`${field}: not a field of`)),
        `${field} in ${messages.join(" | ")}`,
      ).toBe(true);
    expect(result.accepted.map((a) => a.span)).toEqual(["claims[1].spans[0]"]);
  });
});

describe("user-supplied PDFs", () => {
  async function pdfRun() {
    const root = tempDir();
    mkdirSync(join(root, "library"));
    const pdf = join(root, "library", "paper.pdf");
    copyFileSync(FIXTURE_PDF, pdf);
    const run = createRun(join(root, "run"), { libraryRoot: root });
    const receipt = await localSource(run, pdf, {
      cacheDir: join(root, "cache"),
      paper: { pmid: "12345678" },
    });
    return { root, pdf, run, receipt };
  }

  it("a local PDF is fresh through its local_pdf event and its hash; the span carries its page and glyph boxes", async () => {
    const { root, run, receipt } = await pdfRun();
    expect(receipt.asset).toMatchObject({ path: "library/paper.pdf", bytes: expect.any(Number) });
    expect(receipt.origin).toBe("user-supplied-pdf");
    expect(receipt.event).toMatchObject({
      type: "local_pdf",
      fresh: true,
      asset_sha256: receipt.asset?.sha256,
    });
    writeRecords(run, {
      claims: [
        {
          id: "c1",
          text: "x",
          spans: [
            {
              claim: "CDI-2 fell",
              evidence_id: "pmid:12345678",
              source_id: receipt.source_id,
              start: 0,
              end: 8,
              access: "full_text",
            },
          ],
        },
      ],
    });
    const { result } = await assembleRun(run, { cacheDir: join(root, "cache") });
    expect(result.diagnostics.unresolved).toEqual([]);
    expect(result.accepted[0]).toMatchObject({ excerpt: "Abstract", page: 1, section: "Abstract" });
    expect(result.accepted[0].boxes?.[0]).toMatchObject({ page: 1 });
  });

  it("ASSET_HASH_MISMATCH: a changed or missing file, or a local_pdf event without an asset", async () => {
    const { root, pdf, run, receipt } = await pdfRun();
    const claim = (sourceId: string, evidence = "pmid:12345678", access = "full_text") => ({
      id: "c1",
      text: "x",
      spans: [{ claim: "y", evidence_id: evidence, source_id: sourceId, start: 0, end: 8, access }],
    });
    writeRecords(run, { claims: [claim(receipt.source_id)] });
    appendFileSync(pdf, "% one more byte\n");
    expectCode(
      (await assembleRun(run, { cacheDir: join(root, "cache") })).result,
      "ASSET_HASH_MISMATCH",
      "claims[0].spans[0]",
    );
    rmSync(pdf);
    expectCode(
      (await assembleRun(run, { cacheDir: join(root, "cache") })).result,
      "ASSET_HASH_MISMATCH",
      "claims[0].spans[0]",
    );

    const fetched = await fetchSource(run, otherUrl);
    appendEvent(run, {
      type: "local_pdf",
      sourceId: fetched.source_id,
      fresh: true,
      sha256: fetched.content_hash.slice(7),
    });
    writeRecords(run, { claims: [claim(fetched.source_id, "web:other", "web")] });
    expectCode((await assembleRun(run)).result, "ASSET_HASH_MISMATCH", "claims[0].spans[0]");
  });

  it("a user-supplied PDF without a local_pdf event in this run is not fresh", async () => {
    const { root, run, receipt } = await pdfRun();
    const other = createRun(join(root, "other"), { libraryRoot: root });
    const name = `${receipt.source_id}.json`;
    copyFileSync(join(run.dir, "sources", name), join(other.dir, "sources", name));
    writeRecords(other, {
      claims: [
        {
          id: "c1",
          text: "x",
          spans: [
            {
              claim: "y",
              evidence_id: "pmid:12345678",
              source_id: receipt.source_id,
              start: 0,
              end: 8,
              access: "full_text",
            },
          ],
        },
      ],
    });
    expect(codes((await assembleRun(other, { cacheDir: join(root, "cache") })).result)).toEqual([
      "NO_FRESH_FETCH",
    ]);
  });

  it("refuses a PDF outside the library root", async () => {
    const root = tempDir();
    mkdirSync(join(root, "library"));
    const run = createRun(join(root, "run"), { libraryRoot: join(root, "library") });
    await expect(localSource(run, FIXTURE_PDF)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
  });
});

describe("the gate", () => {
  it("is reported but not blocking by default; --gate or the run's setting makes it block", async () => {
    const { run, sourceId } = await freshRun();
    writeRecords(run, {
      claims: [
        { id: "c1", text: "x", spans: [span(sourceId)] },
        { id: "c2", text: "legacy" },
      ],
    });
    const off = (await assembleRun(run)).result.gate;
    expect(off).toEqual({ enabled: false, verdict: "fail", integrity_failures: 0, blocking: false });
    const on = (await assembleRun(run, { gate: true })).result.gate;
    expect(on).toEqual({ enabled: true, verdict: "fail", integrity_failures: 0, blocking: true });
    const gated = createRun(join(tempDir(), "gated"), { gate: true });
    writeFileSync(join(gated.dir, "records", "claims.json"), JSON.stringify([{ id: "c2", text: "legacy" }]));
    expect((await assembleRun(gated)).result.gate.blocking).toBe(true);
  });
});
