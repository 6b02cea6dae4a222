/**
 * The reference's worked example, snapshot to concept, and each row of its counterfactual table.
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assembleRun } from "../../src/evidence/assemble.js";
import { promoteRun } from "../../src/evidence/promote.js";
import { createRun, type RunInfo } from "../../src/evidence/run.js";
import { fetchSource, registerSource, searchSource } from "../../src/evidence/sources.js";
import { verifyRun } from "../../src/evidence/verify.js";
import { writeRunReport } from "../../src/report/run/index.js";
import {
  ATTRITION_SENTENCE,
  articleHtml,
  cleanTempDirs,
  codes,
  expectCode,
  RESULT_SENTENCE,
  readJson,
  startServer,
  tempDir,
  writeRecords,
} from "./helpers.js";

let server: Awaited<ReturnType<typeof startServer>>;
let articleUrl: string;

beforeAll(async () => {
  server = await startServer({
    "/pmc/articles/PMC1234567/": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(articleHtml());
    },
  });
  articleUrl = `${server.base}/pmc/articles/PMC1234567/`;
});

afterAll(async () => {
  await server.close();
  cleanTempDirs();
});

interface Worked {
  run: RunInfo;
  sourceId: string;
  text: string;
  result: { start: number; end: number };
  attrition: { start: number; end: number };
}

/** Steps (a)-(d): retrieval, extraction, appraisal, report. */
async function workedRun(dir = join(tempDir(), "run")): Promise<Worked> {
  const run = createRun(dir);
  const receipt = await fetchSource(run, articleUrl, {
    access: "full_text",
    origin: "pmc",
    evidenceId: "pmid:12345678",
    paper: { pmid: "12345678", pmcid: "PMC1234567" },
  });
  const snapshot = readJson<{ text: string }>(join(run.dir, "sources", `${receipt.source_id}.json`));
  const hit = searchSource(run, receipt.source_id, RESULT_SENTENCE).hits[0];
  const attr = searchSource(run, receipt.source_id, ATTRITION_SENTENCE).hits[0];
  const span = (claim: string, at: { start: number; end: number }) => ({
    claim,
    evidence_id: "pmid:12345678",
    source_id: receipt.source_id,
    start: at.start,
    end: at.end,
    access: "full_text",
  });
  writeRecords(run, {
    extractions: [
      {
        id: "ext-12345678",
        evidence_id: "pmid:12345678",
        quotes: [],
        outcomes: [
          {
            name: "CDI-2 total score",
            timepoint: "12 weeks",
            effect_measure: "SMD",
            effect: -0.41,
            ci_low: -0.68,
            ci_high: -0.14,
            p_value: 0.003,
            direction: "favors_intervention",
            spans: [span("CDI-2 at 12 weeks, SMD -0.41 (95% CI -0.68 to -0.14), p=0.003.", hit)],
          },
        ],
      },
    ],
    appraisals: [
      {
        id: "rob-12345678",
        evidence_id: "pmid:12345678",
        tool: "RoB 2",
        domains: [
          {
            domain: "Missing outcome data",
            judgement: "high",
            spans: [span("Attrition unbalanced, no imputation.", attr)],
          },
          { domain: "Selection of the reported result", judgement: "unclear", spans: [] },
        ],
      },
    ],
    claims: [
      {
        id: "group-cbt-cdi2",
        text: "Group CBT reduced CDI-2 scores at 12 weeks (SMD -0.41, 95% CI -0.68 to -0.14) in one RCT of 240 adolescents.",
        verdict: "supported",
        literature: true,
        spans: [span("CBT lowered CDI-2 at 12 weeks.", hit)],
      },
    ],
    report: {
      title: "Group CBT for adolescent depression",
      body: "Group CBT reduced CDI-2 scores at 12 weeks (SMD −0.41, 95% CI −0.68 to −0.14) in one RCT of 240 adolescents.[^1]",
      footnotes: [{ id: "1", source_id: receipt.source_id, claim_id: "group-cbt-cdi2", url: articleUrl }],
    },
  });
  return {
    run,
    sourceId: receipt.source_id,
    text: snapshot.text,
    result: { start: hit.start, end: hit.end },
    attrition: { start: attr.start, end: attr.end },
  };
}

describe("worked example: one claim, snapshot to concept", () => {
  it("(a) retrieval stores a content-addressed snapshot and logs a fresh fetch", async () => {
    const run = createRun(join(tempDir(), "run"));
    const receipt = await fetchSource(run, articleUrl, {
      access: "full_text",
      origin: "pmc",
      evidenceId: "pmid:12345678",
      paper: { pmid: "12345678", pmcid: "PMC1234567" },
    });
    const file = join(run.dir, "sources", `${receipt.source_id}.json`);
    const snapshot = readJson<Record<string, unknown> & { text: string }>(file);
    const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
    expect(receipt.source_id).toBe(`src-${sha(`${articleUrl}\0${snapshot.text}`)}`);
    expect(snapshot.content_hash).toBe(`sha256:${sha(snapshot.text)}`);
    expect(snapshot).toMatchObject({ url: articleUrl, access: "full_text", origin: "pmc", asset: null });
    expect(snapshot.paper).toEqual({ pmid: "12345678", doi: "10.1000/cbt.2026.1", pmcid: "PMC1234567" });
    expect(snapshot.title).toBe("Group CBT for adolescent depression: a randomised trial");
    expect(snapshot.text).toContain(RESULT_SENTENCE);
    expect(snapshot.text).not.toContain("not text");
    expect(snapshot.length).toBe([...snapshot.text].length);
    const events = readFileSync(join(run.dir, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      schema_version: 1,
      type: "fetch",
      source_id: receipt.source_id,
      url: articleUrl,
      fresh: true,
      sha256: sha(snapshot.text),
      actor: "main",
    });
    expect(events[0].detail).toMatch(/html, \d+ chars, http 200/);
  });

  it("(b)-(g) extraction, appraisal and report assemble, verify and promote", async () => {
    const w = await workedRun();
    // (b) the spans query gives offsets in code points: the astral characters before the Results
    // put the UTF-16 offset further along than the code point offset.
    const windows = searchSource(w.run, w.sourceId, "CDI-2");
    expect(windows.method).toBe("exact");
    expect(windows.hits[0].window).toContain("CDI-2");
    expect(w.text.indexOf(RESULT_SENTENCE)).toBeGreaterThan(w.result.start);
    expect([...w.text].slice(w.result.start, w.result.end).join("")).toBe(RESULT_SENTENCE);

    // (e) assembly
    const { result, path } = await assembleRun(w.run);
    expect(path).toBe(join(w.run.dir, "outputs", "result.json"));
    expect(result.diagnostics.unresolved).toEqual([]);
    expect(result.gate).toEqual({ enabled: false, verdict: "pass", integrity_failures: 0, blocking: false });
    const outcome = result.accepted.find((a) => a.field === "outcomes[0]");
    expect(outcome).toMatchObject({
      claim: "CDI-2 at 12 weeks, SMD -0.41 (95% CI -0.68 to -0.14), p=0.003.",
      source_id: w.sourceId,
      start: w.result.start,
      end: w.result.end,
      access: "full_text",
      excerpt: RESULT_SENTENCE,
      section: "Results",
      page: null,
    });
    expect(result.quotes).toEqual([
      { record: "extractions[0]", id: "ext-12345678", quotes: [RESULT_SENTENCE] },
    ]);
    const domain = result.accepted.find((a) => a.field === "domains[0]");
    expect(domain?.excerpt).toBe(ATTRITION_SENTENCE);
    expect(result.records.map((r) => [r.id, r.status])).toEqual([
      ["ext-12345678", "accepted"],
      ["rob-12345678", "accepted"],
      ["group-cbt-cdi2", "accepted"],
    ]);
    // The file is the result and its seal (under the store key).
    expect(readJson(path)).toEqual({ ...result, seal: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // (f) verification
    const { report } = await verifyRun(w.run);
    expect(report.verdict).toBe("pass");
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ["C-SNAPSHOT", "pass"],
      ["C-SPAN", "pass"],
      ["C-FRESH-FETCH", "pass"],
      ["C-ASSEMBLER", "pass"],
    ]);
    expect(report.checks[1].counts.spans).toBe(3);
    expect(existsSync(join(w.run.dir, "outputs", "verification.json"))).toBe(true);

    // (g) promotion: the preflight writes nothing, then the concept quotes the re-sliced excerpt.
    const knowledge = join(tempDir(), "wiki");
    const check = await promoteRun(w.run, {});
    expect(check).toMatchObject({
      ok: true,
      mode: "check",
      failures: [],
      excerpts_checked: 1,
      snapshots_checked: 1,
    });
    expect(existsSync(knowledge)).toBe(false);
    // A knowledge folder nothing can be written in (sysfs refuses even root): nothing is promoted.
    if (existsSync("/sys/kernel"))
      await expect(promoteRun(w.run, { to: "/sys/kernel" })).rejects.toMatchObject({
        code: "PROMOTION_FAILED",
      });
    const before = readFileSync(path, "utf8");
    const written = await promoteRun(w.run, { to: knowledge });
    expect(written.ok).toBe(true);
    expect(written.written_to).toBe(join(knowledge, w.run.runId));
    const concept = readFileSync(join(knowledge, w.run.runId, "group-cbt-cdi2.md"), "utf8");
    expect(concept).toContain("# Group CBT reduced CDI-2 scores at 12 weeks");
    expect(concept).toContain(`[^1]: "${RESULT_SENTENCE}"`);
    expect(concept).toContain(w.sourceId);
    const manifest = readJson<{ concepts: { evidence: { excerpt: string }[] }[] }>(
      join(knowledge, w.run.runId, "manifest.json"),
    );
    expect(manifest.concepts[0].evidence[0].excerpt).toBe(RESULT_SENTENCE);
    expect(readFileSync(path, "utf8")).toBe(before);
    // Promotion is write-once: a second one is refused and changes nothing.
    const again = await promoteRun(w.run, { to: knowledge });
    expect(again.ok).toBe(false);
    expect(again.failures.map((f) => f.code)).toContain("TARGET_EXISTS");
  });
});

describe("worked example through run report", () => {
  it("assemble, verify, report: the report holds the re-sliced excerpts; a refused promotion leaves it as it was", async () => {
    const w = await workedRun();
    await assembleRun(w.run);
    await verifyRun(w.run);
    await writeRunReport(w.run);
    const md = readFileSync(join(w.run.dir, "outputs", "report.md"), "utf8");
    const html = readFileSync(join(w.run.dir, "outputs", "report.html"), "utf8");
    expect(md).toContain(`\n${RESULT_SENTENCE}\n`);
    expect(md).toContain(`\n${ATTRITION_SENTENCE}\n`);
    expect(md).toContain("| Results |");
    expect(md).toContain("Nothing is unresolved.");
    expect(html).toContain("verification pass");
    // The counterfactual: a hand-written quote dies at assembly; the report shows it under its code, and
    // its words never reach the evidence table.
    const extractions = readJson<Record<string, unknown>[]>(join(w.run.dir, "records", "extractions.json"));
    extractions[0].quotes = ["…a significant reduction in CDI-2 scores…"];
    writeRecords(w.run, { extractions });
    await assembleRun(w.run);
    await verifyRun(w.run);
    await writeRunReport(w.run);
    const after = readFileSync(join(w.run.dir, "outputs", "report.md"), "utf8");
    expect(after).toContain("### EXCERPT_MISMATCH (1)");
    const table = after.slice(after.indexOf("## Accepted evidence"), after.indexOf("## Unresolved"));
    expect(table).not.toContain("significant reduction");
    expect(table).toContain(RESULT_SENTENCE);
    const before = [
      readFileSync(join(w.run.dir, "outputs", "report.md")),
      readFileSync(join(w.run.dir, "outputs", "report.html")),
    ];
    const refused = await promoteRun(w.run, { to: join(tempDir(), "wiki") });
    expect(refused.ok).toBe(false);
    expect(readFileSync(join(w.run.dir, "outputs", "report.md")).equals(before[0])).toBe(true);
    expect(readFileSync(join(w.run.dir, "outputs", "report.html")).equals(before[1])).toBe(true);
  });
});

describe("counterfactuals: where each failure dies", () => {
  it("promotion refuses a run whose verification.json is missing, stale or failing", async () => {
    const w = await workedRun();
    await assembleRun(w.run);
    // The verification's failures only (the run may have nothing accepted to promote).
    const codes = async () =>
      (await promoteRun(w.run, {})).failures.map((f) => f.code).filter((c) => c.startsWith("VERIFICATION_"));
    expect(await codes()).toEqual(["VERIFICATION_MISSING"]);
    expect((await verifyRun(w.run)).report.verdict).toBe("pass");
    expect(await codes()).toEqual([]);
    // Assembled again since: the verification is of another result.json.
    await assembleRun(w.run, { now: new Date(Date.now() + 1000) });
    expect(await codes()).toEqual(["VERIFICATION_STALE"]);
    // A failing verification of this very result.json.
    const snapshot = join(w.run.dir, "sources", `${w.sourceId}.json`);
    const original = readFileSync(snapshot);
    const edited = readJson<{ text: string }>(snapshot);
    writeFileSync(snapshot, JSON.stringify({ ...edited, text: `${edited.text} edited` }));
    await verifyRun(w.run);
    writeFileSync(snapshot, original);
    const failing = (await promoteRun(w.run, {})).failures.filter((f) => f.code.startsWith("VERIFICATION_"));
    expect(failing.map((f) => f.code)).toEqual(["VERIFICATION_FAILED"]);
    expect(failing[0].message).toContain("C-SNAPSHOT");
  });

  it("a hand-written quote dies at assembly with EXCERPT_MISMATCH, C-SPAN reports it, promotion refuses", async () => {
    const w = await workedRun();
    const extractions = readJson<Record<string, unknown>[]>(join(w.run.dir, "records", "extractions.json"));
    extractions[0].quotes = ["…a significant reduction in CDI-2 scores…"];
    writeRecords(w.run, { extractions });
    const { result } = await assembleRun(w.run);
    expectCode(result, "EXCERPT_MISMATCH", "extractions[0].quotes[0]");
    expect(result.records.find((r) => r.id === "ext-12345678")?.status).toBe("rejected");
    expect(result.accepted.some((a) => a.record === "extractions[0]")).toBe(false);
    expect(result.gate.blocking).toBe(true);
    const { report } = await verifyRun(w.run);
    expect(report.checks.find((c) => c.id === "C-SPAN")?.status).toBe("fail");
    const knowledge = join(tempDir(), "wiki");
    const promoted = await promoteRun(w.run, { to: knowledge });
    expect(promoted.ok).toBe(false);
    expect(promoted.failures.map((f) => f.code)).toEqual(
      expect.arrayContaining(["EXCERPT_MISMATCH", "GATE_BLOCKED"]),
    );
    expect(existsSync(join(knowledge, w.run.runId))).toBe(false);
  });

  it("a typed span excerpt that differs from the snapshot is EXCERPT_MISMATCH too", async () => {
    const w = await workedRun();
    const claims = readJson<{ spans: Record<string, unknown>[] }[]>(
      join(w.run.dir, "records", "claims.json"),
    );
    claims[0].spans[0].excerpt = RESULT_SENTENCE.replace(
      "greater reduction in CDI-2 total score",
      "significant reduction in CDI-2 scores",
    );
    writeRecords(w.run, { claims });
    const { result } = await assembleRun(w.run);
    expectCode(result, "EXCERPT_MISMATCH", "claims[0].spans[0]");
    // The exact typed excerpt is accepted (it equals the re-slice).
    claims[0].spans[0].excerpt = RESULT_SENTENCE;
    writeRecords(w.run, { claims });
    expect((await assembleRun(w.run)).result.diagnostics.unresolved).toEqual([]);
  });

  it("a snapshot reused from an earlier run without re-fetching dies with NO_FRESH_FETCH", async () => {
    const earlier = await workedRun();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = createRun(join(tempDir(), "later"));
    // Copy the snapshot and the earlier run's events (an event copied in from another run).
    const file = `${earlier.sourceId}.json`;
    writeFileSync(join(later.dir, "sources", file), readFileSync(join(earlier.run.dir, "sources", file)));
    appendFileSync(join(later.dir, "events.jsonl"), readFileSync(join(earlier.run.dir, "events.jsonl")));
    for (const name of ["extractions", "appraisals", "claims", "report"]) {
      writeFileSync(
        join(later.dir, "records", `${name}.json`),
        readFileSync(join(earlier.run.dir, "records", `${name}.json`)),
      );
    }
    // The copied lines' chain starts at the other run: the log is refused, not read.
    await expect(assembleRun(later)).rejects.toMatchObject({ code: "RUN_CORRUPT" });
    writeFileSync(join(later.dir, "events.jsonl"), "");
    const { result } = await assembleRun(later);
    expectCode(result, "NO_FRESH_FETCH", "extractions[0].outcomes[0].spans[0]");
    expect(result.accepted).toEqual([]);
    const { report } = await verifyRun(later);
    const status = Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({ "C-SNAPSHOT": "pass", "C-SPAN": "pass", "C-FRESH-FETCH": "fail" });

    // An event with this run's id but from before the run began does not count either.
    const copied = readFileSync(join(earlier.run.dir, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const forged = { ...copied[0], run_id: later.runId, event_id: "ev-forged" };
    appendFileSync(join(later.dir, "events.jsonl"), `${JSON.stringify(forged)}\n`);
    expect(codes((await assembleRun(later)).result)).toContain("NO_FRESH_FETCH");

    // Registering the same text again is not a retrieval.
    registerSource(later, { url: articleUrl, text: earlier.text, access: "full_text", origin: "pmc" });
    expect(codes((await assembleRun(later)).result)).toContain("NO_FRESH_FETCH");

    // A real fetch in this run makes it fresh: the same snapshot (a no-op store), a new fresh event.
    const refetch = await fetchSource(later, articleUrl, {
      access: "full_text",
      origin: "pmc",
      evidenceId: "pmid:12345678",
      paper: { pmid: "12345678", pmcid: "PMC1234567" },
    });
    expect(refetch.source_id).toBe(earlier.sourceId);
    expect(refetch.created).toBe(false);
    const fresh = (await assembleRun(later)).result;
    expect(fresh.diagnostics.unresolved).toEqual([]);
    expect(fresh.accepted[0].fresh_event).toBe(refetch.event.event_id);
  });

  it("an excerpt edited in result.json is caught by verification and by the promotion preflight", async () => {
    const w = await workedRun();
    const { path } = await assembleRun(w.run);
    const result = readJson<{ accepted: { record: string; excerpt: string }[] }>(path);
    const entry = result.accepted.find((a) => a.record === "claims[0]")!;
    entry.excerpt = entry.excerpt.replace("greater", "significant");
    writeFileSync(path, JSON.stringify(result));
    const { report } = await verifyRun(w.run);
    const span = report.checks.find((c) => c.id === "C-SPAN");
    expect(span?.status).toBe("fail");
    expect(span?.failures.map((f) => f.code)).toEqual(["EXCERPT_MISMATCH"]);
    expect(report.checks.find((c) => c.id === "C-ASSEMBLER")?.failures.map((f) => f.code)).toEqual([
      "RESULT_STALE",
    ]);
    const check = await promoteRun(w.run, {});
    expect(check.ok).toBe(false);
    expect(check.failures.map((f) => f.code)).toEqual(
      expect.arrayContaining(["EXCERPT_MISMATCH", "RESULT_STALE"]),
    );
  });

  it("an edited snapshot file kills every span against it at C-SNAPSHOT, whatever the gate flag", async () => {
    const w = await workedRun();
    expect((await assembleRun(w.run)).result.gate.verdict).toBe("pass");
    const file = join(w.run.dir, "sources", `${w.sourceId}.json`);
    const snapshot = readJson<{ text: string }>(file);
    snapshot.text = snapshot.text.replace("greater reduction", "larger reduction");
    writeFileSync(file, JSON.stringify(snapshot));

    // Promotion of the earlier, clean result is refused: the snapshot no longer recomputes.
    const knowledge = join(tempDir(), "wiki");
    const stale = await promoteRun(w.run, { to: knowledge });
    expect(stale.ok).toBe(false);
    expect(stale.failures.map((f) => f.code)).toEqual(
      expect.arrayContaining(["SNAPSHOT_HASH_MISMATCH", "RESULT_STALE"]),
    );
    expect(existsSync(knowledge) ? readdirSync(knowledge).filter((n) => !n.startsWith(".")) : []).toEqual([]);

    const { result } = await assembleRun(w.run, { gate: false });
    const mismatches = result.diagnostics.unresolved.filter((u) => u.code === "SNAPSHOT_HASH_MISMATCH");
    expect(mismatches.map((m) => m.path).sort()).toEqual(
      [
        "appraisals[0].domains[0].spans[0]",
        "claims[0].spans[0]",
        "extractions[0].outcomes[0].spans[0]",
      ].sort(),
    );
    expectCode(result, "SNAPSHOT_HASH_MISMATCH", "claims[0].spans[0]");
    expect(result.gate).toMatchObject({
      enabled: false,
      verdict: "fail",
      blocking: true,
      integrity_failures: 3,
    });
    const { report } = await verifyRun(w.run);
    expect(report.checks.find((c) => c.id === "C-SNAPSHOT")?.status).toBe("fail");
    const promoted = await promoteRun(w.run, { to: knowledge });
    expect(promoted.ok).toBe(false);
    expect(promoted.failures.map((f) => f.code)).toContain("GATE_BLOCKED");
  });
});
