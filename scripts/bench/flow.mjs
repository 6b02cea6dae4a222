// Flow formats' speed (issue 33's Speed, issue 38 item 5): `verify` of 100 true quotations (a third
// naming their section) on a generated 100,000-word EPUB, DOCX and HTML, each cold (an empty cache
// directory: process start to exit, the source read, parsed and cached) and warm (the parsed document
// read back from the cache by sha256), beside the PDF path's figures for the same 100 quotations (by
// page) on a PDF of the same text, and `node -e 0` for Node's own start. CPU is user + sys of the
// whole process tree; every figure is a median over alternating rounds, so drifting load weighs on
// all alike. Inputs come from ./lib/make-flow.mjs (pandoc and pdflatex), cached under bench-out/flow/.
// Targets: cold <= 1.0 s CPU, warm <= 0.2 s CPU per flow format.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureFlowInputs, FLOW_QUOTATIONS } from "./lib/make-flow.mjs";
import { interleave, maxOf, measure, medianOf, repeat } from "./lib/measure.mjs";
import { benchOut, cliPath } from "./lib/paths.mjs";

const TARGET_COLD_CPU_S = 1.0;
const TARGET_WARM_CPU_S = 0.2;
const FORMATS = ["epub", "docx", "html", "pdf"];
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const ok = (value, limit) => (Number.isFinite(value) ? (value <= limit ? "OK" : "MISS") : "n/a");

/** Verdict counts of a JSON report, e.g. "100 PASS". */
function verdicts(stdout) {
  const counts = {};
  for (const r of JSON.parse(stdout).results) counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
  return Object.entries(counts)
    .map(([v, n]) => `${n} ${v}`)
    .join(" ");
}

/** Verdict and reason counts, e.g. "90 PASS found, 10 FAIL absent". */
function reasons(stdout) {
  const counts = {};
  for (const r of JSON.parse(stdout).results) {
    const key = `${r.verdict} ${r.reason}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.entries(counts)
    .map(([v, n]) => `${n} ${v}`)
    .join(", ");
}

export async function run() {
  const inputs = ensureFlowInputs((m) => process.stderr.write(`bench: ${m}\n`));
  const dir = benchOut("flow", `run-${process.pid}`);
  const verifyArgs = (format, cache) => [
    cliPath,
    "verify",
    inputs[format],
    "--evidence",
    format === "pdf" ? inputs.pdfEvidence : inputs.flowEvidence,
    "--json",
    "--cache-dir",
    cache,
    "--timeout-ms",
    "600000",
  ];
  const verified = (r) => (r.code === 0 || r.code === 1) && r.stdout.startsWith("{");
  // A diagnostic beside the figures: the HTML warm again with 10 of the 100 altered (one word the
  // text lacks: FAIL absent, with its closest passage looked for over the whole text) and 10 more
  // naming another section (FAIL wrong-section): what a draft with mistakes costs.
  const mixedEvidence = join(dir, "quotations-mixed.json");
  const records = JSON.parse(readFileSync(inputs.flowEvidence, "utf8"));
  const altered = records.map((r, i) => {
    if (i % 10 !== 5) return r;
    const words = r.text.split(" ");
    words[words.length >> 1] = "zanquorxix";
    return { ...r, id: `${r.id}-altered`, text: words.join(" ") };
  });
  const elsewhere = records
    .filter((r) => /^\d+\.\d+(?:\s|$)/.test(r.section ?? ""))
    .slice(0, 10)
    .map((r) => ({ ...r, id: `${r.id}-elsewhere`, section: r.section.startsWith("1.1") ? "1.2" : "1.1" }));
  writeFileSync(mixedEvidence, JSON.stringify([...altered, ...elsewhere]));
  const warmCache = join(dir, "cache-warm");
  for (const format of FORMATS)
    await repeat(1, () => measure(process.execPath, verifyArgs(format, warmCache)), verified);
  const runners = [() => measure(process.execPath, ["-e", "0"])];
  const checks = [undefined];
  for (const format of FORMATS) {
    runners.push(() => {
      const cache = join(dir, "cache-cold");
      rmSync(cache, { recursive: true, force: true });
      return measure(process.execPath, verifyArgs(format, cache));
    });
    runners.push(() => measure(process.execPath, verifyArgs(format, warmCache)));
    checks.push(verified, verified);
  }
  runners.push(() =>
    measure(
      process.execPath,
      [...verifyArgs("html", warmCache)].map((a) => (a === inputs.flowEvidence ? mixedEvidence : a)),
    ),
  );
  checks.push(verified);
  const [nodeStart, ...all] = await interleave(runs(5), runners, checks);
  const mixed = all.pop();
  const results = all;
  rmSync(dir, { recursive: true, force: true });
  const figure = {};
  FORMATS.forEach((format, k) => {
    const [cold, warm] = [results[2 * k], results[2 * k + 1]];
    figure[format] = {
      cold: medianOf(cold, "cpuS"),
      warm: medianOf(warm, "cpuS"),
      coldWall: medianOf(cold, "wallS"),
      rss: Math.max(maxOf(cold, "maxRssMb"), maxOf(warm, "maxRssMb")),
      verdicts: verdicts(warm[0].stdout),
    };
  });
  const pdf = figure.pdf;
  const nodeCpu = medianOf(nodeStart, "cpuS");
  const lines = [
    `flow inputs: ${inputs.words} words in EPUB, DOCX, HTML (pandoc) and a ${inputs.pages}-page PDF (pdflatex); ` +
      `${FLOW_QUOTATIONS} true quotations each; node -e 0 cpu ${s(nodeCpu)} s; median of ${nodeStart.length} alternating rounds`,
  ];
  for (const format of ["epub", "docx", "html"]) {
    const f = figure[format];
    lines.push(
      `flow ${format} ${FLOW_QUOTATIONS}q cold: cpu ${s(f.cold)} s (target <= ${s(TARGET_COLD_CPU_S)} s) ` +
        `${ok(f.cold, TARGET_COLD_CPU_S)}; pdf path ${s(pdf.cold)} s, ratio ${s(f.cold / pdf.cold)}`,
      `flow ${format} ${FLOW_QUOTATIONS}q warm: cpu ${s(f.warm)} s (target <= ${s(TARGET_WARM_CPU_S)} s) ` +
        `${ok(f.warm, TARGET_WARM_CPU_S)}; pdf path ${s(pdf.warm)} s, ratio ${s(f.warm / pdf.warm)}`,
      `  (${format}: wall cold ${s(f.coldWall)} s; peak RSS ${f.rss.toFixed(0)} MB; verdicts ${f.verdicts})`,
    );
  }
  lines.push(
    `  (pdf path, ${inputs.pages} pages, quotations by page: cold cpu ${s(pdf.cold)} s, warm ${s(pdf.warm)} s, ` +
      `wall cold ${s(pdf.coldWall)} s; peak RSS ${pdf.rss.toFixed(0)} MB; verdicts ${pdf.verdicts})`,
  );
  lines.push(
    `  (html warm with 10 of the 100 altered and 10 more naming another section: cpu ${s(medianOf(mixed, "cpuS"))} s; ` +
      `verdicts ${reasons(mixed[0].stdout)})`,
  );
  return lines;
}
