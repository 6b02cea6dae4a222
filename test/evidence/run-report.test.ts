/**
 * `run report`: outputs/report.md and outputs/report.html rendered from result.json and verification.json,
 * identical bytes for the same outputs, untouched by promotion, refused (nothing written) when the outputs
 * it would draw from are missing or stale.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assembleRun } from "../../src/evidence/assemble.js";
import { promoteRun } from "../../src/evidence/promote.js";
import { createRun } from "../../src/evidence/run.js";
import { fetchSource, searchSource } from "../../src/evidence/sources.js";
import { verifyRun } from "../../src/evidence/verify.js";
import { runReportOutput } from "../../src/operations/schemas/outputs.js";
import { writeRunReport } from "../../src/report/run/index.js";
import { runCliInProcess } from "../helpers/run-cli.js";
import { cleanTempDirs, readJson, startServer, tempDir, verifiedPdfRun, writeRecords } from "./helpers.js";

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer({
    "/trial": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end(TEXT);
    },
  });
});
afterAll(async () => {
  await server.close();
  cleanTempDirs();
});

const TEXT = [
  "Results",
  "At 12 weeks the intervention group showed a greater reduction in CDI-2 total score than controls",
  "(SMD -0.41, 95% CI -0.68 to -0.14; p=0.003). Pipes | and <tags> & ``` fences stay as written.",
  "",
  "Discussion",
  "Attrition was unbalanced between arms and no imputation was made.",
].join("\n");

/** A run over one registered text: one accepted claim span, one rejected for a hand-typed excerpt. */
async function textRun(gate = false) {
  const run = createRun(join(tempDir(), "run"), { gate });
  const receipt = await fetchSource(run, `${server.base}/trial`, { access: "full_text", origin: "web" });
  const hit = searchSource(run, receipt.source_id, "At 12 weeks").hits[0];
  const end = [...TEXT].indexOf(".", [...TEXT].indexOf("p=0.003")) + 1;
  const span = (claim: string, extra: Record<string, unknown> = {}) => ({
    claim,
    evidence_id: "web:trial",
    source_id: receipt.source_id,
    start: hit.start,
    end,
    access: "full_text",
    ...extra,
  });
  writeRecords(run, {
    claims: [
      { id: "c-true", text: "CBT lowered CDI-2.", verdict: "supported", spans: [span("CDI-2 fell")] },
      {
        id: "c-typed",
        text: "CBT cut CDI-2 significantly.",
        verdict: "supported",
        spans: [span("typed", { excerpt: "a significant reduction in CDI-2 scores" })],
      },
    ],
  });
  return { run, sourceId: receipt.source_id, excerpt: [...TEXT].slice(hit.start, end).join("") };
}

async function assembledAndVerified(run: Awaited<ReturnType<typeof textRun>>["run"]) {
  await assembleRun(run);
  await verifyRun(run);
}

describe("run report", () => {
  it("renders the re-sliced excerpt, the diagnostics grouped by code, the checks, the gate and the identity", async () => {
    const { run, excerpt } = await textRun();
    await assembledAndVerified(run);
    const written = await writeRunReport(run);
    // What `run report` returns is the operation's declared output.
    expect(runReportOutput.safeParse(written).error).toBeUndefined();
    expect(written).toMatchObject({ run_id: run.runId, accepted: 1, crops: 0 });
    const md = readFileSync(join(run.dir, "outputs", "report.md"), "utf8");
    const html = readFileSync(join(run.dir, "outputs", "report.html"), "utf8");
    const resultSha = readJson<{ result_sha256: string }>(
      join(run.dir, "outputs", "verification.json"),
    ).result_sha256;
    expect(written.result_sha256).toBe(resultSha);
    // The excerpt exactly as the snapshot holds it, line break and all, in a fence longer than its backticks.
    expect(excerpt).toContain("\n");
    expect(md).toContain(`\`\`\`\`text\n${excerpt}\n\`\`\`\``);
    expect(html).toContain(excerpt.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
    // The hand-typed excerpt never reaches the evidence table: only its diagnostic shows it.
    const evidencePart = md.slice(md.indexOf("## Accepted evidence"), md.indexOf("## Unresolved"));
    expect(evidencePart).toContain(excerpt);
    expect(evidencePart).not.toContain("a significant reduction in CDI-2 scores");
    expect(md).toContain("### EXCERPT_MISMATCH (1)");
    expect(html).toContain('data-code="EXCERPT_MISMATCH"');
    for (const id of ["C-SNAPSHOT", "C-SPAN", "C-FRESH-FETCH", "C-ASSEMBLER"]) {
      expect(md).toContain(`| ${id} |`);
      expect(html).toContain(`<code>${id}</code>`);
    }
    expect(md).toContain(`run: \`${run.runId}\``);
    expect(md).toContain(resultSha);
    expect(md).toMatch(/gate: \*\*fail\*\*/);
    // The claim's words beside its label, in the table and under the excerpt's heading, and in the HTML.
    expect(md).toContain(
      `| 1 | CDI-2 fell: CBT lowered CDI-2. | ${server.base}/trial | full_text | Results |`,
    );
    expect(md).toContain("### 1. CDI-2 fell\n\nclaim: CBT lowered CDI-2.\n");
    expect(html).toContain('<strong>CDI-2 fell</strong> <span class="claim-text">CBT lowered CDI-2.</span>');
    expect(html).not.toMatch(/<script/i);
  });

  it("gives identical bytes when rendered again, and promotion (refused or not) leaves both files untouched", async () => {
    const { run } = await textRun();
    await assembledAndVerified(run);
    await writeRunReport(run);
    const md = readFileSync(join(run.dir, "outputs", "report.md"));
    const html = readFileSync(join(run.dir, "outputs", "report.html"));
    await writeRunReport(run);
    expect(readFileSync(join(run.dir, "outputs", "report.md")).equals(md)).toBe(true);
    expect(readFileSync(join(run.dir, "outputs", "report.html")).equals(html)).toBe(true);
    const knowledge = join(tempDir(), "wiki");
    const refused = await promoteRun(run, { to: knowledge });
    expect(refused.ok).toBe(false);
    expect(readFileSync(join(run.dir, "outputs", "report.md")).equals(md)).toBe(true);
    expect(readFileSync(join(run.dir, "outputs", "report.html")).equals(html)).toBe(true);
  });

  it("refuses with a code naming the step to run when result.json or verification.json is missing or stale", async () => {
    const { run } = await textRun();
    await expect(writeRunReport(run)).rejects.toMatchObject({ code: "RESULT_MISSING" });
    await assembleRun(run);
    await expect(writeRunReport(run)).rejects.toMatchObject({
      code: "VERIFICATION_MISSING",
      message: expect.stringContaining("run verify"),
    });
    await verifyRun(run);
    // Records changed after assembly: the result no longer says what a fresh assembly says.
    const claims = readJson<{ id: string }[]>(join(run.dir, "records", "claims.json"));
    writeRecords(run, { claims: claims.slice(0, 1) });
    await expect(writeRunReport(run)).rejects.toMatchObject({ code: "RESULT_STALE" });
    // Assembled again but not verified again: the verification is of another result.json.
    await assembleRun(run, { now: new Date(Date.now() + 1000) });
    await expect(writeRunReport(run)).rejects.toMatchObject({ code: "VERIFICATION_STALE" });
    await verifyRun(run);
    // A result.json that does not fit its schema.
    writeFileSync(join(run.dir, "outputs", "result.json"), '{"accepted": 3}');
    await expect(writeRunReport(run)).rejects.toMatchObject({ code: "RESULT_MISSING" });
    expect(existsSync(join(run.dir, "outputs", "report.md"))).toBe(false);
    expect(existsSync(join(run.dir, "outputs", "report.html"))).toBe(false);
  });

  it("refuses a verification.json forged to pass (statuses edited, result_sha256 kept): its seal fails", async () => {
    const { run } = await textRun();
    await assembledAndVerified(run);
    const path = join(run.dir, "outputs", "verification.json");
    const genuine = readJson<{ verdict: string; checks: { status: string; failures: unknown[] }[] }>(path);
    expect(genuine.verdict).toBe("fail");
    const forged = {
      ...genuine,
      verdict: "pass",
      checks: genuine.checks.map((c) => ({ ...c, status: "pass", failures: [] })),
    };
    writeFileSync(path, JSON.stringify(forged));
    await expect(writeRunReport(run)).rejects.toMatchObject({
      code: "VERIFICATION_STALE",
      message: expect.stringContaining("seal"),
    });
    // Without its seal field, too.
    const { seal: _seal, ...unsealed } = forged as typeof forged & { seal?: string };
    writeFileSync(path, JSON.stringify(unsealed));
    await expect(writeRunReport(run)).rejects.toMatchObject({ code: "VERIFICATION_STALE" });
    expect(existsSync(join(run.dir, "outputs", "report.md"))).toBe(false);
    // A result.json with a boolean edited is not drawn either.
    await verifyRun(run);
    const resultPath = join(run.dir, "outputs", "result.json");
    const result = readJson<{ gate: Record<string, unknown> }>(resultPath);
    writeFileSync(resultPath, JSON.stringify({ ...result, gate: { ...result.gate, enabled: true } }));
    await expect(writeRunReport(run)).rejects.toMatchObject({ code: "RESULT_STALE" });
  });

  it("promotes a --gate run only from sealed inputs: gate booleans edited in result.json change nothing", async () => {
    // One accepted claim and one unsupported (unresolved, not an integrity failure): the gate fails.
    const gated = async (runGate: boolean) => {
      const { run } = await textRun(runGate);
      const claims = readJson<Record<string, unknown>[]>(join(run.dir, "records", "claims.json"));
      writeRecords(run, {
        claims: [claims[0], { id: "c-not", text: "CBT cured everyone.", verdict: "unsupported" }],
      });
      // Gated by the run (run new --gate) or by the assembly (run assemble --gate).
      const { result, path } = await assembleRun(run, runGate ? {} : { gate: true });
      expect(result.gate).toMatchObject({
        enabled: true,
        verdict: "fail",
        blocking: true,
        integrity_failures: 0,
      });
      expect((await promoteRun(run, {})).failures.map((f) => f.code)).toContain("GATE_BLOCKED");
      return { run, path };
    };
    for (const runGate of [false, true]) {
      const { run, path } = await gated(runGate);
      // The two booleans a forger edits: the gate made disabled and not blocking.
      const result = readJson<{ gate: Record<string, unknown> }>(path);
      writeFileSync(
        path,
        JSON.stringify({ ...result, gate: { ...result.gate, enabled: false, blocking: false } }),
      );
      const knowledge = join(tempDir(), "wiki");
      const refused = await promoteRun(run, { to: knowledge });
      expect(refused.ok).toBe(false);
      // The result's seal fails; a gate the run sets (sealed in run.json) blocks whatever result.json says.
      const codes = refused.failures.map((f) => f.code);
      expect(codes).toContain("RESULT_STALE");
      if (runGate) expect(codes).toContain("GATE_BLOCKED");
      expect(existsSync(knowledge)).toBe(false);
    }
  });

  it("escapes link and image syntax from claim labels in the Markdown: no link, no image that loads", async () => {
    const { run } = await textRun();
    const claims = readJson<{ spans: { claim: string }[] }[]>(join(run.dir, "records", "claims.json"));
    const hostile = "[x](javascript:alert(1)) ![t](https://tracker.example/p.png) *bold* `code`";
    claims[0].spans[0].claim = hostile;
    writeRecords(run, { claims });
    await assembledAndVerified(run);
    await writeRunReport(run);
    const md = readFileSync(join(run.dir, "outputs", "report.md"), "utf8");
    // Every link, image, emphasis and code opener is escaped wherever the label is drawn.
    expect(md).not.toMatch(/(?<!\\)\[x(?<!\\)\]\(/);
    expect(md).not.toMatch(/(?<!\\)!\[t/);
    expect(md).not.toMatch(/(?<!\\)\(javascript:/);
    const escaped =
      "\\[x\\]\\(javascript:alert\\(1\\)\\) \\!\\[t\\]\\(https://tracker.example/p.png\\) \\*bold\\* \\`code\\`";
    expect(md).toContain(`| 1 | ${escaped}: CBT lowered CDI-2. |`);
    expect(md).toContain(`### 1. ${escaped}`);
  });

  it("an output it cannot write is OUTPUT_UNWRITABLE and neither file is written", async () => {
    const { run } = await textRun();
    await assembledAndVerified(run);
    mkdirSync(join(run.dir, "outputs", "report.html"));
    await expect(writeRunReport(run)).rejects.toMatchObject({ code: "OUTPUT_UNWRITABLE" });
    expect(existsSync(join(run.dir, "outputs", "report.md"))).toBe(false);
    rmSync(join(run.dir, "outputs", "report.html"), { recursive: true });
  });

  it("crops a user-supplied PDF's span from the hash-checked file, marks its glyph boxes, and honours --max-crops", async () => {
    const { run, pdf, cacheDir } = await verifiedPdfRun();
    const written = await writeRunReport(run, { cacheDir });
    expect(written.crops).toBe(1);
    const html = readFileSync(join(run.dir, "outputs", "report.html"), "utf8");
    expect(html).toMatch(/<figure class="crop crop-match" data-page="1"/);
    expect(html).toContain('<img src="data:image/png;base64,');
    expect(html).toMatch(/<span class="mark mark-match" style="left:[\d.]+%;top:[\d.]+%/);
    const none = await writeRunReport(run, { cacheDir, maxCrops: 0 });
    expect(none.crops).toBe(0);
    expect(readFileSync(join(run.dir, "outputs", "report.html"), "utf8")).toContain(
      "not cropped: the report draws at most 0 crop(s)",
    );
    // A changed PDF is never cropped: the report says why instead.
    const bytes = readFileSync(pdf);
    writeFileSync(pdf, Buffer.concat([bytes, Buffer.from("\n%changed\n")]));
    await expect(writeRunReport(run, { cacheDir })).rejects.toMatchObject({ code: "RESULT_STALE" });
  });

  it("through the CLI: --json names the files; a run without result.json exits 2 with its code", async () => {
    const { run } = await textRun();
    const missing = await runCliInProcess(["run", "report", "--run-dir", run.dir, "--json"]);
    expect(missing.status).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe("RESULT_MISSING");
    // The step to run is said once, not again after the message ("... first; run assemble").
    const said = await runCliInProcess(["run", "report", "--run-dir", run.dir]);
    expect(said.stderr.match(/run assemble/g)).toHaveLength(1);
    await assembleRun(run);
    const unverified = await runCliInProcess(["run", "report", "--run-dir", run.dir]);
    expect(unverified.stderr.match(/run verify/g)).toHaveLength(1);
    await assembledAndVerified(run);
    const bad = await runCliInProcess(["run", "report", "--run-dir", run.dir, "--format", "pdf"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--format must be one of md, html, both");
    const md = await runCliInProcess(["run", "report", "--run-dir", run.dir, "--format", "md", "--json"]);
    expect(md.status).toBe(0);
    expect(JSON.parse(md.stdout)).toMatchObject({
      report_md: join(run.dir, "outputs", "report.md"),
      report_html: null,
      accepted: 1,
    });
    expect(existsSync(join(run.dir, "outputs", "report.html"))).toBe(false);
  });
});

describe("spans a writer can copy", () => {
  it("source spans prints each window exactly as stored, line break included, and copying it assembles", async () => {
    const { run, sourceId } = await textRun();
    const spans = ["source", "spans", "--run-dir", run.dir, "--source-id", sourceId, "--query", "controls"];
    const out = await runCliInProcess(spans);
    expect(out.status).toBe(0);
    const window = /<<<([\s\S]*?)>>>/.exec(out.stdout)?.[1];
    expect(window).toContain("than controls\n(SMD -0.41");
    const json = (await runCliInProcess([...spans, "--json"])).json as {
      hits: { window: string; window_start: number; window_end: number }[];
    };
    expect(json.hits[0].window).toBe(window);
    expect([...TEXT].slice(json.hits[0].window_start, json.hits[0].window_end).join("")).toBe(window);
  });

  it("EXCERPT_MISMATCH shows where the typed excerpt parts from the stored text, both sides escaped", async () => {
    const { run, excerpt } = await textRun();
    const claims = readJson<{ spans: Record<string, unknown>[] }[]>(join(run.dir, "records", "claims.json"));
    claims[0].spans[0].excerpt = excerpt.replace("controls\n(SMD", "controls (SMD");
    writeRecords(run, { claims: claims.slice(0, 1) });
    const { result } = await assembleRun(run);
    const mismatch = result.diagnostics.unresolved.find((u) => u.code === "EXCERPT_MISMATCH");
    const at = [...excerpt].indexOf("\n");
    expect(mismatch?.message).toContain(`first difference at code point ${at} of the excerpt`);
    expect(mismatch?.message).toContain('the snapshot has …"han controls\\n(SMD -0.41');
    expect(mismatch?.message).toContain('the excerpt has …"han controls (SMD -0.41');
  });
});
