// Verify at scale and a first check, side by side with the baselines in the same run:
// - baselines on the 1000-page PDF: `pdftotext -bbox-layout`, `mutool draw -F stext` and, when the
//   Python module is installed, PyMuPDF's rawdict (every character with its box);
// - verify of 1000 quotations on the 1000-page PDF, cold (empty cache) and warm;
// - verify of 10 quotations on a generated 5000-page PDF (not committed; built once under bench-out),
//   all on their pages and with 3 of them off their page, cold and warm; CPU per 1000 pages at 1000
//   and 5000 pages; how many pages an all-true cold verify reads;
// - the typical paper: 20 true quotations on a 16-page corpus paper, cold, warm and through
//   `citeproof serve`, against a `pdftotext` + grep script, with the engine floor beside it and, when
//   $NODE_EXTRA_CA_CERTS is set, Node's start, the cold run and the served call again without it;
// - beside the 1000-page verify, citeproof's text-only extraction (no check) on 1 and 2+ workers,
//   and one more cold verify with its CPU split by thread (lib/thread-cpu.cjs, Linux).
// Figures: CPU (user + sys, every thread), wall and peak RSS of the whole process, medians of runs
// alternating with their baseline.
// Targets: 1000p cold verify wall <= 0.75x and CPU <= 1.5x pdftotext's, warm >= 12x faster (CPU);
// 5000p cold with 3 off-page peak RSS <= 500 MB, CPU linear in pages; 16p cold wall <= 0.5 s and
// <= 0.85x the pdftotext + grep script; through serve <= 60 ms a call.
// `node scripts/bench/verify-scale.mjs typical` runs the typical paper alone (`thousand`: the
// 1000-page verify alone); with
// $CITEPROOF_BENCH_BASE_DIST (another build's dist/) it measures that build in the same rounds too.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBenchPdf } from "./lib/make-pdf.mjs";
import { interleave, maxOf, measure, medianOf, repeat } from "./lib/measure.mjs";
import { benchOut, cliPath, corpusDir } from "./lib/paths.mjs";
import { makeQuotations } from "./lib/quotations.mjs";
import { startServe } from "./lib/start-serve.mjs";

const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const ms = (x) => (Number.isFinite(x) ? `${(x * 1000).toFixed(0)} ms` : "n/a");
const mb = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} MB` : "n/a");
const mark = (ok) => (ok === undefined ? "n/a" : ok ? "OK" : "MISS");
const TIMEOUT = String(30 * 60_000);
const TYPICAL = "acm-sigplan-lregex";
const engineFloorScript = fileURLToPath(new URL("./lib/engine-floor-child.mjs", import.meta.url));
const extractChild = fileURLToPath(new URL("./lib/extract-child.mjs", import.meta.url));
const threadCpuPreload = fileURLToPath(new URL("./lib/thread-cpu.cjs", import.meta.url));

const verifyOk = (r) => (r.code === 0 || r.code === 1) && r.stdout.startsWith("{");

/** A Python that has PyMuPDF: the one on the PATH, else the system's (a distribution's python3-fitz). */
const pyMuPdfPython = ["python3", "/usr/bin/python3"].find(
  (python) => spawnSync(python, ["-c", "import fitz"], { stdio: "ignore" }).status === 0,
);

/** Whether MuPDF's `mutool` is installed (a baseline beside pdftotext, skipped when absent). */
const haveMutool = spawnSync("mutool", ["-v"], { stdio: "ignore" }).error === undefined;

const PYMUPDF = "import sys, fitz\nfor p in fitz.open(sys.argv[1]): p.get_text('rawdict')\n";

function baselines(pdf) {
  const list = [
    [
      "pdftotext -bbox-layout",
      () => measure("pdftotext", ["-bbox-layout", pdf, "/dev/null"], { discardStdout: true }),
    ],
  ];
  if (haveMutool)
    list.push([
      "mutool draw -F stext",
      () => measure("mutool", ["draw", "-q", "-F", "stext", "-o", "/dev/null", pdf], { discardStdout: true }),
    ]);
  if (pyMuPdfPython)
    list.push([
      "PyMuPDF rawdict",
      () => measure(pyMuPdfPython, ["-c", PYMUPDF, pdf], { discardStdout: true }),
    ]);
  return list;
}

function verifyArgs(pdf, evidence, cacheDir, extra = [], { cli = cliPath, serve = "never" } = {}) {
  return [
    cli,
    "verify",
    pdf,
    "--evidence",
    evidence,
    "--json",
    "--cache-dir",
    cacheDir,
    "--timeout-ms",
    TIMEOUT,
    "--serve",
    serve,
    ...extra,
  ];
}

function evidenceFile(name, records) {
  const path = join(benchOut("verify-scale"), `${name}.json`);
  writeFileSync(path, JSON.stringify(records));
  return path;
}

/** Cold (fresh cache each run) and warm (a cache filled beforehand) verify, alternating with the baselines. */
async function coldWarm(pdf, evidence, name, n, withBaselines = []) {
  const cold = join(benchOut("verify-scale"), `${name}-cold`);
  const warm = join(benchOut("verify-scale"), `${name}-warm`);
  rmSync(warm, { recursive: true, force: true });
  const [first] = await repeat(1, () => measure(process.execPath, verifyArgs(pdf, evidence, warm)), verifyOk);
  const runners = [
    () => {
      rmSync(cold, { recursive: true, force: true });
      return measure(process.execPath, verifyArgs(pdf, evidence, cold));
    },
    () => measure(process.execPath, verifyArgs(pdf, evidence, warm)),
    ...withBaselines.map(([, run]) => run),
  ];
  const [c, w, ...b] = await interleave(n, runners, [verifyOk, verifyOk]);
  if (c[0].stdout !== first.stdout || w[0].stdout !== first.stdout)
    throw new Error(`${name}: cold and warm verify printed different reports`);
  return { cold: c, warm: w, baselines: b, report: JSON.parse(first.stdout), coldCache: cold };
}

function line(label, r) {
  return `${label}: cpu ${s(medianOf(r, "cpuS"))} s, wall ${s(medianOf(r, "wallS"))} s, peak RSS ${mb(maxOf(r, "maxRssMb"))}`;
}

function mix(report) {
  const counts = {};
  for (const r of report.results)
    counts[`${r.verdict}/${r.reason}`] = (counts[`${r.verdict}/${r.reason}`] ?? 0) + 1;
  return Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
}

/** Pages read with each cited page on either side (its printed label and running heads are decided from them). */
const READ_RADIUS = 6;

/** How many pages a cold run read, as the report says it. */
function readSummary(read, pageCount) {
  if (read.whole && read.cited === 0)
    return `all ${pageCount} in the first read (the cited pages and the ${READ_RADIUS} each side cover the document)`;
  return `${read.cited} of ${pageCount}${read.whole ? " and then the whole document" : ""}`;
}

/** Pages a cold run extracted one by one (the cited pages first), and whether it read the rest. */
function pagesRead(cacheDir) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }))
      e.isDirectory() ? walk(join(dir, e.name)) : files.push(e.name);
  };
  if (existsSync(cacheDir)) walk(cacheDir);
  return {
    cited: files.filter((f) => /^p\d+\.text\.bin$/.test(f)).length,
    whole: files.includes("text.bin"),
  };
}

/** Workers for the split extraction figure: the cores, 2 to 4 (as the main bench). */
const PARALLEL_JOBS = Math.max(2, Math.min(4, cpus().length));

async function thousand(lines, pdf) {
  const base = baselines(pdf);
  // Not baselines: citeproof's extraction of the text a text check reads, with no check run.
  const extractOnly = [1, PARALLEL_JOBS].map((jobs) => [
    `citeproof extraction alone, text only, ${jobs} worker${jobs > 1 ? "s" : ""} (no check, no cache)`,
    () => measure(process.execPath, [extractChild, pdf, String(jobs), "text"], { discardStdout: true }),
  ]);
  const evidence = evidenceFile("q1000", makeQuotations(pdf, { count: 1000 }));
  const r = await coldWarm(pdf, evidence, "1000p-1000q", runs(5), [...base, ...extractOnly]);
  const [pdftotext] = r.baselines;
  const ptCpu = medianOf(pdftotext, "cpuS");
  const ptWall = medianOf(pdftotext, "wallS");
  [...base, ...extractOnly].forEach(([name], k) => {
    const b = r.baselines[k];
    lines.push(
      `${k < base.length ? "baseline " : ""}1000p ${name}: ${line("", b).slice(2)}; ratio to pdftotext cpu ${s(medianOf(b, "cpuS") / ptCpu)}, wall ${s(medianOf(b, "wallS") / ptWall)}`,
    );
  });
  if (!haveMutool) lines.push("baseline mutool: not installed; skipped");
  if (!pyMuPdfPython) lines.push("baseline PyMuPDF: not installed (python3 -c 'import fitz' fails); skipped");
  const coldCpu = medianOf(r.cold, "cpuS");
  const coldWall = medianOf(r.cold, "wallS");
  const warmCpu = medianOf(r.warm, "cpuS");
  lines.push(`verify 1000p 1000q (${mix(r.report)})`);
  lines.push(
    `  ${line("cold", r.cold)}; vs pdftotext cpu ${s(coldCpu / ptCpu)}x (target <= 1.5) ${mark(coldCpu / ptCpu <= 1.5)}, wall ${s(coldWall / ptWall)}x (target <= 0.75) ${mark(coldWall / ptWall <= 0.75)}`,
  );
  lines.push(
    `  ${line("warm", r.warm)}; cold/warm cpu ${s(coldCpu / warmCpu)}x (target >= 12) ${mark(coldCpu / warmCpu >= 12)}, wall ${s(coldWall / medianOf(r.warm, "wallS"))}x`,
  );
  lines.push(`  (medians of ${r.cold.length} alternating rounds of cold, warm and each baseline)`);
  const split = await threadSplit(pdf, evidence);
  if (split) lines.push(`  ${split}`);
  return { ptCpu };
}

/**
 * One more cold verify, its CPU split by thread (Linux): the main thread, the engine workers, and
 * V8's background threads (optimizing compiles of the main thread's code, GC helpers), which no CPU
 * profile shows.
 */
async function threadSplit(pdf, evidence) {
  if (!existsSync("/proc/self/task")) return undefined;
  const cache = join(benchOut("verify-scale"), "1000p-1000q-threads");
  rmSync(cache, { recursive: true, force: true });
  const r = await measure(process.execPath, ["-r", threadCpuPreload, ...verifyArgs(pdf, evidence, cache)]);
  const found = /^thread-cpu (\{.*\})$/m.exec(r.stderr);
  if (!verifyOk(r) || !found) return "cold CPU by thread: not measured (the run failed)";
  const t = JSON.parse(found[1]);
  return `cold CPU by thread (one run): main ${s(t.mainS)} s, engine worker${t.workers === 1 ? "" : "s"} (${t.workers}) ${s(t.workersS)} s, V8 background (optimizing compiles, GC) ${s(t.backgroundS)} s, total ${s(t.totalS)} s`;
}

async function fiveThousand(lines, small, ptCpu1000) {
  const big = ensureBenchPdf(5000, (m) => process.stderr.write(`bench: ${m}\n`));
  const perK = {};
  for (const [pdf, pages] of [
    [small, 1000],
    [big.pdf, 5000],
  ]) {
    const off = evidenceFile(
      `q10-off-${pages}`,
      makeQuotations(pdf, { count: 10, wrongPage: 3, falseCount: 0 }),
    );
    const all = evidenceFile(
      `q10-true-${pages}`,
      makeQuotations(pdf, { count: 10, wrongPage: 0, falseCount: 0 }),
    );
    const n = runs(pages === 5000 ? 3 : 5);
    const withOff = await coldWarm(pdf, off, `${pages}p-10q-off`, n);
    const allTrue = await coldWarm(pdf, all, `${pages}p-10q-true`, n);
    const read = pagesRead(allTrue.coldCache);
    const rss = maxOf(withOff.cold, "maxRssMb");
    perK[pages] = medianOf(withOff.cold, "cpuS") / (pages / 1000);
    lines.push(`verify ${pages}p 10q, 3 off their page (${mix(withOff.report)})`);
    lines.push(
      `  ${line("cold", withOff.cold)}${pages === 5000 ? ` (target RSS <= 500 MB) ${mark(rss <= 500)}` : ""}; cpu per 1000 pages ${s(perK[pages])} s`,
    );
    lines.push(`  ${line("warm", withOff.warm)}`);
    lines.push(`verify ${pages}p 10q, all on their page (${mix(allTrue.report)})`);
    lines.push(
      `  ${line("cold", allTrue.cold)}; pages read ${readSummary(read, pages)} (10 cited, at most ${10 * (2 * READ_RADIUS + 1)} with their neighbours) ${mark(!read.whole && read.cited <= 10 * (2 * READ_RADIUS + 1))}`,
    );
    lines.push(`  ${line("warm", allTrue.warm)}; (medians of ${n} alternating rounds)`);
  }
  const growth = perK[5000] / perK[1000];
  lines.push(
    `cpu per 1000 pages, cold with off-page quotations: ${s(perK[1000])} s at 1000 pages, ${s(perK[5000])} s at 5000 (ratio ${s(growth)}; linear: <= 1.15) ${mark(growth <= 1.15)}` +
      `; pdftotext at 1000 pages ${s(ptCpu1000)} s`,
  );
}

/**
 * The builds the typical paper is measured on: the bench's own and, when $CITEPROOF_BENCH_BASE_DIST
 * names another build's dist/ (a clean clone of main, say), that one too, in the same alternating rounds.
 */
function typicalBuilds() {
  const builds = [{ name: "", cli: cliPath }];
  const base = process.env.CITEPROOF_BENCH_BASE_DIST;
  if (base) {
    const cli = existsSync(join(base, "cli", "main.cjs"))
      ? join(base, "cli", "main.cjs")
      : join(base, "cli", "main.js");
    builds.push({ name: `base ${base}: `, cli });
  }
  return builds;
}

async function typicalPaper(lines) {
  const pdf = join(corpusDir, `${TYPICAL}.pdf`);
  const goldPath = join(corpusDir, `${TYPICAL}.gold.json`);
  if (!existsSync(pdf) || !existsSync(goldPath)) {
    lines.push(`typical paper: ${pdf} is absent; skipped`);
    return;
  }
  const gold = JSON.parse(readFileSync(goldPath, "utf8"));
  const quotes = gold.cases.filter((c) => c.category === "quote-true").slice(0, 20);
  const evidence = evidenceFile(
    "typical",
    quotes.map((c) => ({ id: c.id, ...c.evidence })),
  );
  const dir = benchOut("verify-scale", "typical");
  const quotesTxt = join(dir, "quotes.txt");
  writeFileSync(quotesTxt, `${quotes.map((c) => c.evidence.text).join("\n")}\n`);
  const script = join(dir, "grep.sh");
  writeFileSync(
    script,
    '#!/bin/sh\nset -e\npdftotext "$1" "$2"\nwhile IFS= read -r q; do grep -qiF -- "$q" "$2" || true; done < "$3"\n',
  );
  const grepRun = () =>
    measure("sh", [script, pdf, join(dir, "out.txt"), quotesTxt], { discardStdout: true });
  const builds = typicalBuilds();
  const servers = [];
  try {
    // Node's own start, the floor of any call through serve.
    const nodeRun = () => measure(process.execPath, ["-e", "0"]);
    // The engine floor on the baseline tier a short run's worker uses: the least a cold check pays.
    const floorRun = () =>
      measure(process.execPath, ["--liftoff-only", engineFloorScript, pdf], { discardStdout: true });
    const runners = [grepRun, nodeRun, floorRun];
    const checks = [(r) => r.code === 0, (r) => r.code === 0, (r) => r.code === 0];
    for (const [k, build] of builds.entries()) {
      // Each build has its own server (runtime folder) and caches.
      const runtimeDir = join(dir, `runtime-${k}`);
      mkdirSync(runtimeDir, { recursive: true, mode: 0o700 });
      build.env = { ...process.env, XDG_RUNTIME_DIR: runtimeDir };
      const warmCache = join(dir, `cache-warm-${k}`);
      const coldCache = join(dir, `cache-cold-${k}`);
      build.coldCache = coldCache;
      const args = (cache, serve) => verifyArgs(pdf, evidence, cache, [], { cli: build.cli, serve });
      rmSync(warmCache, { recursive: true, force: true });
      const [first] = await repeat(
        1,
        () => measure(process.execPath, args(warmCache, "never"), { env: build.env }),
        verifyOk,
      );
      build.first = first;
      servers.push(await startServe(build.cli, build.env));
      runners.push(
        () => {
          rmSync(coldCache, { recursive: true, force: true });
          return measure(process.execPath, args(coldCache, "never"), { env: build.env });
        },
        () => measure(process.execPath, args(warmCache, "never"), { env: build.env }),
        () => measure(process.execPath, args(warmCache, "auto"), { env: build.env }),
      );
      checks.push(verifyOk, verifyOk, verifyOk);
    }
    // Node 20 builds its whole certificate store at start, before any script runs, when
    // $NODE_EXTRA_CA_CERTS is set (some machines set it for every process): the cold and served calls
    // are measured without it too, to show what of a call is that.
    const withoutCa = process.env.NODE_EXTRA_CA_CERTS ? { ...builds[0].env } : undefined;
    if (withoutCa) {
      delete withoutCa.NODE_EXTRA_CA_CERTS;
      const coldCache = join(dir, "cache-cold-without-ca");
      const args = (cache, serve) => verifyArgs(pdf, evidence, cache, [], { cli: builds[0].cli, serve });
      runners.push(
        () => measure(process.execPath, ["-e", "0"], { env: withoutCa }),
        () => {
          rmSync(coldCache, { recursive: true, force: true });
          return measure(process.execPath, args(coldCache, "never"), { env: withoutCa });
        },
        () => measure(process.execPath, args(join(dir, "cache-warm-0"), "auto"), { env: withoutCa }),
      );
      checks.push((r) => r.code === 0, verifyOk, verifyOk);
    }
    const n = runs(7);
    const all = await interleave(n, runners, checks);
    const [grep, nodeStart, floor] = all;
    const measured = all.slice(3, 3 + 3 * builds.length);
    const nodeWall = medianOf(nodeStart, "wallS");
    const grepWall = medianOf(grep, "wallS");
    lines.push(
      `typical paper ${TYPICAL} (${gold.pages} p.), ${quotes.length} true quotations (${mix(JSON.parse(builds[0].first.stdout))})`,
    );
    lines.push(`  ${line("pdftotext + grep script", grep)}`);
    lines.push(`  ${line("Node's own start (node -e 0)", nodeStart)}`);
    lines.push(
      `  ${line("engine floor (PDFium loaded, each page and its text page loaded and closed, baseline tier, no worker)", floor)}; ${s(medianOf(floor, "wallS") / grepWall)}x the script`,
    );
    for (const [k, build] of builds.entries()) {
      const [cold, warm, served] = measured.slice(3 * k, 3 * k + 3);
      const { first } = build;
      if (served.some((r) => r.stdout !== first.stdout) || cold.some((r) => r.stdout !== first.stdout))
        throw new Error("typical paper: the report through serve or cold differs from in-process");
      const read = pagesRead(build.coldCache);
      const coldWall = medianOf(cold, "wallS");
      const servedWall = medianOf(served, "wallS");
      build.figures = { coldWall, servedWall, warmWall: medianOf(warm, "wallS") };
      lines.push(
        `  ${build.name}${line("cold", cold)}; wall <= 0.5 s ${mark(coldWall <= 0.5)}, ${s(coldWall / grepWall)}x the script (target <= 0.85) ${mark(coldWall / grepWall <= 0.85)}; pages read ${readSummary(read, gold.pages)}`,
      );
      lines.push(
        `  ${build.name}${line("warm", warm)}; ${s(grepWall / medianOf(warm, "wallS"))}x faster than the script`,
      );
      lines.push(
        `  ${build.name}${line("through serve", served)}; ${ms(servedWall)} a call (target <= 60 ms) ${mark(servedWall <= 0.06)}, Node's start + ${ms(servedWall - nodeWall)}; byte-identical to in-process`,
      );
    }
    if (withoutCa) {
      const [bareNode, cold, served] = all.slice(3 + 3 * builds.length);
      if (served.some((r) => r.stdout !== builds[0].first.stdout))
        throw new Error("typical paper: the report through serve without NODE_EXTRA_CA_CERTS differs");
      const bareWall = medianOf(bareNode, "wallS");
      const coldWall = medianOf(cold, "wallS");
      const servedWall = medianOf(served, "wallS");
      lines.push(
        `  this environment sets NODE_EXTRA_CA_CERTS, so Node builds its certificate store at every start (${ms(medianOf(nodeStart, "wallS") - bareWall)}); without it:`,
      );
      lines.push(`    ${line("Node's own start", bareNode)}`);
      lines.push(
        `    ${line("cold", cold)}; wall <= 0.5 s ${mark(coldWall <= 0.5)}, ${s(coldWall / grepWall)}x the script (target <= 0.85) ${mark(coldWall / grepWall <= 0.85)}`,
      );
      lines.push(
        `    ${line("through serve", served)}; ${ms(servedWall)} a call (target <= 60 ms) ${mark(servedWall <= 0.06)}, Node's start + ${ms(servedWall - bareWall)}`,
      );
    }
    if (builds.length > 1) {
      const [now, base] = builds.map((b) => b.figures);
      lines.push(
        `  wall against the base build: cold ${s(now.coldWall / base.coldWall)}x, warm ${s(now.warmWall / base.warmWall)}x, through serve ${s(now.servedWall / base.servedWall)}x`,
      );
      if (builds[1].first.stdout !== builds[0].first.stdout)
        lines.push("  note: the base build printed another report");
    }
    lines.push(`  (medians of ${n} alternating rounds)`);
  } finally {
    for (const server of servers) server.kill("SIGTERM");
  }
}

export async function run(context = {}) {
  const lines = [];
  if (context.only === "typical") {
    await typicalPaper(lines);
    return lines;
  }
  const small = context.bigPdf ?? ensureBenchPdf(1000).pdf;
  if (context.only === "thousand") {
    await thousand(lines, small);
    return lines;
  }
  const { ptCpu } = await thousand(lines, small);
  await typicalPaper(lines);
  await fiveThousand(lines, small, ptCpu);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const l of await run({ only: process.argv[2] })) console.log(l);
}
