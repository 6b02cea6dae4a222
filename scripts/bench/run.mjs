#!/usr/bin/env node
// `npm run bench`: measures citeproof against `pdftotext -bbox-layout` (poppler) in the same run, on a
// generated 1000-page PDF and on the corpus's largest PDF, then runs every other scripts/bench/*.mjs
// that exports `async function run(context)` and prints the lines it returns under its own heading.
// Figures are medians of several runs; a missed target is marked MISS, and the exit status is 0
// whatever the figures (the bench measures, it does not gate).
//
// Sub-benches get `context` (also in the JSON file named by $CITEPROOF_BENCH_CONTEXT): { root, cli,
// dist, bigPdf, bigPages, onePagePdf, corpusDir, largestCorpusPdf, figures: { pdftotext1000CpuS,
// extract1000CpuS, pdftotextCorpusCpuS, extractCorpusCpuS, ... } } (figures absent with --subs-only).
// A sub-bench may also build the PDFs itself with ensureBenchPdf() from ./lib/make-pdf.mjs, or the flow
// formats' inputs (EPUB, DOCX, HTML and a PDF of one generated text, by pandoc) with ensureFlowInputs()
// from ./lib/make-flow.mjs. Among the sub-benches: flow.mjs (the flow formats beside the PDF path) and
// check-draft.mjs (check-text --bib over 40 sources).
//
// Usage: node scripts/bench/run.mjs [--no-subs | --subs-only] [sub-bench name ...]
// Environment: BENCH_RUNS=n sets every repeat count (at least 1).
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

// Measure a snapshot of the build: others may rebuild dist/ while the bench runs.
const rootDir = fileURLToPath(new URL("../..", import.meta.url));
const snapshot = join(rootDir, "bench-out", `dist-${process.pid}`);
if (existsSync(join(rootDir, "dist")) && !process.env.CITEPROOF_BENCH_DIST) {
  cpSync(join(rootDir, "dist"), snapshot, { recursive: true });
  process.env.CITEPROOF_BENCH_DIST = snapshot;
}
const { ensureBenchPdf } = await import("./lib/make-pdf.mjs");
const { haveGnuTime, interleave, maxOf, measure, medianOf, repeat } = await import("./lib/measure.mjs");
const { benchOut, cliPath, corpusDir, distDir, root } = await import("./lib/paths.mjs");
const { makeQuotations } = await import("./lib/quotations.mjs");

const TARGETS = {
  extractRatio: 1.3,
  verifyColdRatio: 1.4,
  warmSpeedup: 12,
  peakRssMb: 300,
  firstResultS: 1,
};
const BIG_PAGES = 1000;
const QUOTATIONS = 1000;
const TIMEOUT_FLAG = String(30 * 60_000);

const args = process.argv.slice(2);
const runSubs = !args.includes("--no-subs");
const runFigures = !args.includes("--subs-only");
const onlySubs = args.filter((a) => !a.startsWith("--"));
const forcedRuns = process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : undefined;
const runs = (n) => forcedRuns ?? n;

const here = fileURLToPath(new URL(".", import.meta.url));
let peakLoad = loadavg()[0];
const progress = (message) => {
  peakLoad = Math.max(peakLoad, loadavg()[0]);
  process.stderr.write(`bench: ${message}\n`);
};
const print = (line) => process.stdout.write(`${line}\n`);

const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const verdict = (ok) => (ok === undefined ? "n/a" : ok ? "OK" : "MISS");
const atMost = (value, limit) => (Number.isFinite(value) ? value <= limit : undefined);
const atLeast = (value, limit) => (Number.isFinite(value) ? value >= limit : undefined);

function node(script, scriptArgs, options) {
  return measure(process.execPath, [script, ...scriptArgs], options);
}

function pdftotextOnce(pdf) {
  return measure("pdftotext", ["-bbox-layout", pdf, "/dev/null"], { discardStdout: true });
}

/** Workers for the parallel extraction figure: the cores, 2 to 4. */
const PARALLEL_JOBS = Math.max(2, Math.min(4, cpus().length));

/**
 * pdftotext, citeproof's extraction (one worker), the engine floor and, with `parallel`, citeproof's
 * extraction split over PARALLEL_JOBS workers and the engine floor with every character's reads, on
 * one PDF, in alternating rounds.
 */
function extractionRounds(pdf, n, parallel = false) {
  const extract = (jobs) => () => node(join(here, "lib", "extract-child.mjs"), [pdf, String(jobs)]);
  const floor =
    (...flags) =>
    () =>
      node(join(here, "lib", "engine-floor-child.mjs"), [pdf, ...flags]);
  return interleave(n, [
    () => pdftotextOnce(pdf),
    extract(1),
    floor(),
    ...(parallel ? [extract(PARALLEL_JOBS), floor("--reads")] : []),
  ]);
}

function largestCorpusPdf() {
  if (!existsSync(corpusDir)) return undefined;
  const pdfs = readdirSync(corpusDir)
    .filter((f) => f.endsWith(".pdf"))
    .map((f) => join(corpusDir, f));
  pdfs.sort((a, b) => statSync(b).size - statSync(a).size);
  return pdfs[0];
}

function extractionLine(label, citeproof, baseline) {
  const cpu = medianOf(citeproof, "cpuS");
  const base = medianOf(baseline, "cpuS");
  const ratio = cpu / base;
  return {
    cpu,
    base,
    line:
      `${label}: citeproof cpu ${s(cpu)} s, pdftotext cpu ${s(base)} s, ratio ${s(ratio)} ` +
      `(target <= ${s(TARGETS.extractRatio)}) ${verdict(atMost(ratio, TARGETS.extractRatio))}`,
  };
}

/** Verdicts per kind of sampled record (the id ends in -true, -wrong-page or -false). */
/** Diagnostic: what the engine alone costs on a PDF, so the adapter's own share is visible. */
function floorLine(floor, label, extractCpu, baselineCpu, emit, record) {
  const cpu = medianOf(floor, "cpuS");
  record(cpu);
  emit(
    `  (engine floor ${label}, page + text page load and close only, no worker: cpu ${s(cpu)} s, ` +
      `ratio ${s(cpu / baselineCpu)}; adapter above it ${s(extractCpu - cpu)} s)`,
  );
}

function verdictMix(stdout) {
  const byKind = new Map();
  for (const r of JSON.parse(stdout).results) {
    const kind = r.id.replace(/^q\d+-/, "");
    const counts = byKind.get(kind) ?? {};
    counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
    byKind.set(kind, counts);
  }
  return [...byKind]
    .map(
      ([kind, counts]) =>
        `${kind}: ${Object.entries(counts)
          .map(([v, n]) => `${n} ${v}`)
          .join(" ")}`,
    )
    .join("; ");
}

async function figures() {
  const lines = [];
  const figures = {};
  const emit = (line) => {
    lines.push(line);
    print(line);
  };

  const big = ensureBenchPdf(BIG_PAGES, progress);
  const corpusPdf = largestCorpusPdf();
  emit(
    `machine: ${cpus().length} cpu (${cpus()[0]?.model.trim() ?? "?"}), node ${process.version}; ` +
      `bench PDF ${BIG_PAGES} pages, ${(statSync(big.pdf).size / 2 ** 20).toFixed(1)} MiB; load ${loadavg()[0].toFixed(1)}`,
  );

  progress(
    `pdftotext -bbox-layout, citeproof extraction (no cache) and the engine floor, alternating, on the ${BIG_PAGES}-page PDF ...`,
  );
  const [baseBig, extBig, floorBig, parBig, readsBig] = await extractionRounds(big.pdf, runs(5), true);
  figures.pdftotext1000CpuS = medianOf(baseBig, "cpuS");
  emit(
    `baseline ${BIG_PAGES}p: pdftotext -bbox-layout cpu ${s(figures.pdftotext1000CpuS)} s, wall ` +
      `${s(medianOf(baseBig, "wallS"))} s (median of ${baseBig.length}, alternating with the runs it is compared to)`,
  );

  const bigReport = JSON.parse(extBig[extBig.length - 1].stdout);
  const e1 = extractionLine(`extract ${BIG_PAGES}p`, extBig, baseBig);
  figures.extract1000CpuS = e1.cpu;
  emit(e1.line);
  emit(
    `  (${bigReport.pages} pages, ${bigReport.chars} chars, ${bigReport.failed} failed; wall ` +
      `${s(medianOf(extBig, "wallS"))} s; peak RSS ${s(maxOf(extBig, "maxRssMb"))} MB; median of ${extBig.length})`,
  );

  floorLine(floorBig, `${BIG_PAGES}p`, e1.cpu, figures.pdftotext1000CpuS, emit, (v) => {
    figures.engineFloor1000CpuS = v;
  });
  const readsCpu = medianOf(readsBig, "cpuS");
  emit(
    `  (engine floor ${BIG_PAGES}p with every character's engine reads (code point, boxes, origin, text object), ` +
      `results dropped: cpu ${s(readsCpu)} s, ratio ${s(readsCpu / figures.pdftotext1000CpuS)}; the adapter's ` +
      `own JavaScript above it ${s(e1.cpu - readsCpu)} s)`,
  );
  const parWall = medianOf(parBig, "wallS");
  const oneWall = medianOf(extBig, "wallS");
  emit(
    `extract ${BIG_PAGES}p over ${PARALLEL_JOBS} workers: wall ${s(parWall)} s (${s(oneWall / parWall)}x one ` +
      `worker's), cpu ${s(medianOf(parBig, "cpuS"))} s (ratio to pdftotext ${s(medianOf(parBig, "cpuS") / figures.pdftotext1000CpuS)}), ` +
      `wall ratio to pdftotext ${s(parWall / medianOf(baseBig, "wallS"))}; peak RSS ${s(maxOf(parBig, "maxRssMb"))} MB`,
  );

  if (corpusPdf) {
    const name = basename(corpusPdf, ".pdf");
    progress(`pdftotext and citeproof extraction of ${name} ...`);
    const [baseCorpus, extCorpus, floorCorpus] = await extractionRounds(corpusPdf, runs(5));
    const report = JSON.parse(extCorpus[0].stdout);
    const e2 = extractionLine(`extract ${name} (${report.pages}p)`, extCorpus, baseCorpus);
    figures.pdftotextCorpusCpuS = e2.base;
    figures.extractCorpusCpuS = e2.cpu;
    emit(e2.line);
    floorLine(floorCorpus, `${report.pages}p`, e2.cpu, e2.base, emit, (v) => {
      figures.engineFloorCorpusCpuS = v;
    });
  } else {
    emit(`extract corpus: skipped (${corpusDir} is absent)`);
  }

  progress(`verify of ${QUOTATIONS} quotations, cold and warm ...`);
  const evidencePath = join(benchOut("verify"), "quotations-1000.json");
  writeFileSync(evidencePath, JSON.stringify(makeQuotations(big.pdf, { count: QUOTATIONS }), null, 1));
  const cacheDir = join(benchOut("verify"), "cache");
  const verifyArgs = [
    cliPath,
    "verify",
    big.pdf,
    "--evidence",
    evidencePath,
    "--json",
    "--cache-dir",
    cacheDir,
    "--timeout-ms",
    TIMEOUT_FLAG,
  ];
  const verifyOk = (r) => (r.code === 0 || r.code === 1) && r.stdout.startsWith("{");
  // The warm runs read a cache filled once beforehand; each cold run starts from an empty one. Cold and
  // warm runs alternate, so drifting load weighs on both.
  const warmCache = join(benchOut("verify"), "cache-warm");
  const argsWith = (dir) => verifyArgs.map((a) => (a === cacheDir ? dir : a));
  rmSync(warmCache, { recursive: true, force: true });
  await repeat(1, () => measure(process.execPath, argsWith(warmCache)), verifyOk);
  // pdftotext runs alongside as well: the cold ratio compares runs taken under the same load.
  const [cold, warm, base] = await interleave(
    runs(5),
    [
      () => {
        rmSync(cacheDir, { recursive: true, force: true });
        return measure(process.execPath, verifyArgs);
      },
      () => measure(process.execPath, argsWith(warmCache)),
      () => pdftotextOnce(big.pdf),
    ],
    [verifyOk, verifyOk],
  );
  const coldCpu = medianOf(cold, "cpuS");
  const warmCpu = medianOf(warm, "cpuS");
  const verifyBaseCpu = medianOf(base, "cpuS");
  const coldRatio = coldCpu / verifyBaseCpu;
  const speedup = coldCpu / warmCpu;
  const wallSpeedup = medianOf(cold, "wallS") / medianOf(warm, "wallS");
  figures.verifyColdCpuS = coldCpu;
  figures.verifyWarmCpuS = warmCpu;
  emit(
    `verify ${QUOTATIONS}q cold: citeproof cpu ${s(coldCpu)} s, pdftotext cpu ` +
      `${s(verifyBaseCpu)} s, ratio ${s(coldRatio)} (target <= ${s(TARGETS.verifyColdRatio)}) ` +
      `${verdict(atMost(coldRatio, TARGETS.verifyColdRatio))}`,
  );
  emit(
    `verify ${QUOTATIONS}q warm: citeproof cpu ${s(warmCpu)} s, cold ${s(coldCpu)} s, speed-up ` +
      `${s(speedup)}x (target >= ${TARGETS.warmSpeedup}x) ${verdict(atLeast(speedup, TARGETS.warmSpeedup))}`,
  );
  emit(
    `  (wall cold ${s(medianOf(cold, "wallS"))} s, warm ${s(medianOf(warm, "wallS"))} s, speed-up ` +
      `${s(wallSpeedup)}x; verdicts ${verdictMix(warm[0].stdout)}; cold ${cold.length} runs, warm ${warm.length})`,
  );
  const rss = Math.max(maxOf(cold, "maxRssMb"), maxOf(warm, "maxRssMb"));
  figures.peakRssMb = rss;
  emit(
    `peak RSS: verify ${BIG_PAGES}p cold ${maxOf(cold, "maxRssMb").toFixed(0)} MB, warm ` +
      `${maxOf(warm, "maxRssMb").toFixed(0)} MB, max ${rss.toFixed(0)} MB (target <= ${TARGETS.peakRssMb} MB) ` +
      `${verdict(atMost(rss, TARGETS.peakRssMb))}`,
  );

  progress("first result on a 1-page PDF, cold cache ...");
  const oneEvidence = join(benchOut("verify"), "quotation-1p.json");
  writeFileSync(
    oneEvidence,
    JSON.stringify(makeQuotations(big.onePage, { count: 1, wrongPage: 0, falseCount: 0 })),
  );
  const oneCache = join(benchOut("verify"), "cache-1p");
  const first = await repeat(runs(5), () => {
    rmSync(oneCache, { recursive: true, force: true });
    return measure(process.execPath, [
      cliPath,
      "verify",
      big.onePage,
      "--evidence",
      oneEvidence,
      "--cache-dir",
      oneCache,
    ]);
  });
  const firstS = medianOf(first, "firstOutputS");
  figures.firstResultS = firstS;
  emit(
    `first result 1p cold: ${s(firstS)} s from process start (target <= ${s(TARGETS.firstResultS)} s) ` +
      `${verdict(atMost(firstS, TARGETS.firstResultS))}`,
  );
  emit(
    `  (exit after ${s(medianOf(first, "wallS"))} s, cpu ${s(medianOf(first, "cpuS"))} s, peak RSS ` +
      `${maxOf(first, "maxRssMb").toFixed(0)} MB; median of ${first.length})`,
  );
  progress("figures done");
  // The bench itself keeps about one and a half cpus busy.
  if (peakLoad > cpus().length + 1)
    emit(
      `note: the load average reached ${peakLoad.toFixed(1)} on ${cpus().length} cpus during the run: other work ` +
        "competed, so wall-clock figures (first result) are unreliable and CPU figures somewhat inflated",
    );
  return { big, corpusPdf, figures };
}

async function subBenches(context) {
  const names = readdirSync(here)
    .filter((f) => f.endsWith(".mjs") && f !== "run.mjs")
    .filter((f) => onlySubs.length === 0 || onlySubs.includes(f) || onlySubs.includes(f.slice(0, -4)))
    .sort();
  const contextPath = join(benchOut("tmp"), `context-${process.pid}.json`);
  writeFileSync(contextPath, JSON.stringify(context, null, 2));
  for (const name of names) {
    const resultPath = join(benchOut("tmp"), `sub-${process.pid}-${name}.json`);
    rmSync(resultPath, { force: true });
    progress(`sub-bench ${name} ...`);
    const r = await measure(
      process.execPath,
      [join(here, "lib", "sub-bench.mjs"), join(here, name), contextPath, resultPath],
      { env: { ...process.env, CITEPROOF_BENCH_CONTEXT: contextPath }, timeoutMs: 20 * 60_000 },
    );
    let result;
    try {
      result = JSON.parse(readFileSync(resultPath, "utf8"));
    } catch {
      const detail = (r.stderr || r.stdout).trim().split("\n").slice(-3).join(" | ");
      result = {
        error: `the sub-bench process ended (exit ${r.code}) without a result${detail ? `: ${detail}` : ""}`,
      };
    }
    rmSync(resultPath, { force: true });
    if (result.skipped) continue;
    print("");
    print(`## ${name}`);
    if (result.error) {
      const [message, ...stack] = result.error.split("\n");
      print(`error: ${message}${stack[0] ? ` (${stack[0].trim()})` : ""}`);
    } else {
      for (const line of result.lines) print(line);
    }
  }
  rmSync(contextPath, { force: true });
}

async function main() {
  if (!haveGnuTime()) {
    print("bench: /usr/bin/time (GNU time) is needed to measure child CPU and memory; install `time`");
    return;
  }
  if (!existsSync(cliPath)) {
    print("bench: dist/ is missing; run `npm run build` first (npm run bench does)");
    return;
  }
  let context = { root, dist: distDir, cli: cliPath, corpusDir };
  if (runFigures) {
    try {
      const { big, corpusPdf, figures: measured } = await figures();
      context = {
        ...context,
        bigPdf: big.pdf,
        bigPages: big.pages,
        onePagePdf: big.onePage,
        largestCorpusPdf: corpusPdf,
        figures: measured,
      };
    } catch (error) {
      print(`bench: the core figures failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else {
    const big = ensureBenchPdf(BIG_PAGES, progress);
    context = {
      ...context,
      bigPdf: big.pdf,
      bigPages: big.pages,
      onePagePdf: big.onePage,
      largestCorpusPdf: largestCorpusPdf(),
    };
  }
  if (runSubs) await subBenches(context);
}

try {
  await main();
} finally {
  rmSync(snapshot, { recursive: true, force: true });
}
process.exitCode = 0;
