// The typical job from process start to exit: 20 true quotations on a 16-page corpus paper, checked by
// a fresh `citeproof verify` (cold: empty cache; warm: the cache filled; through a running
// `citeproof serve`), beside a pdftotext-per-page + substring script doing the same job and Node's own
// start (`node -e 0`), in alternating rounds. The cold run is broken down into Node's start, module
// loading, the engine's WebAssembly compile and instantiation, the extraction of the pages the check
// reads first (lib/cold-phases-child.mjs, each step timed in one process) and the rest (layout,
// checks, output and the hand-off to the engine worker: the cold run's wall less the steps before).
// A MuPDF.js script is not measured: the `mupdf` npm package is AGPL-3.0, a licence this project does
// not take in, even for a bench.
// Targets: cold <= 1.5x the script's wall; warm <= 0.25x; through serve within 20 ms of `node -e 0`.
// With $CITEPROOF_BENCH_BASE_DIST (another build's dist/) that build's cold, warm and served runs are
// measured in the same rounds, and the ratios between the builds printed.
// Usage: node scripts/bench/cold-start.mjs
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { interleave, maxOf, measure, median, medianOf } from "./lib/measure.mjs";
import { benchOut, cliPath, corpusDir } from "./lib/paths.mjs";
import { startServe } from "./lib/start-serve.mjs";

const PAPER = "acm-sigplan-lregex";
const QUOTATIONS = 20;
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const here = dirname(fileURLToPath(import.meta.url));
const ms = (x) => (Number.isFinite(x) ? `${(x * 1000).toFixed(0)} ms` : "n/a");
const r2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const mark = (ok) => (ok ? "OK" : "MISS");
const verifyOk = (r) => (r.code === 0 || r.code === 1) && r.stdout.startsWith("{");

function builds() {
  const list = [{ name: "", cli: cliPath, dist: dirname(dirname(cliPath)) }];
  const base = process.env.CITEPROOF_BENCH_BASE_DIST;
  if (base) {
    const cli = existsSync(join(base, "cli", "main.cjs"))
      ? join(base, "cli", "main.cjs")
      : join(base, "cli", "main.js");
    list.push({ name: "base: ", cli, dist: base });
  }
  return list;
}

export async function run() {
  const pdf = join(corpusDir, `${PAPER}.pdf`);
  const goldPath = join(corpusDir, `${PAPER}.gold.json`);
  if (!existsSync(pdf) || !existsSync(goldPath)) return [`cold start: ${pdf} is absent; skipped`];
  const gold = JSON.parse(readFileSync(goldPath, "utf8"));
  const records = gold.cases
    .filter((c) => c.category === "quote-true")
    .slice(0, QUOTATIONS)
    .map((c) => ({ id: c.id, ...c.evidence }));
  const dir = benchOut("cold-start");
  const evidence = join(dir, "evidence.json");
  writeFileSync(evidence, JSON.stringify(records));
  const loadBefore = loadavg()[0];
  const script = () =>
    measure(process.execPath, [join(here, "lib", "pdftotext-substring.mjs"), pdf, evidence]);
  const nodeStart = () => measure(process.execPath, ["-e", "0"]);
  const runners = [script, nodeStart];
  const checks = [(r) => r.code === 0 && Number(r.stdout) > 0, (r) => r.code === 0];
  const list = builds();
  const servers = [];
  try {
    for (const [k, build] of list.entries()) {
      const runtime = join(dir, `runtime-${k}`);
      mkdirSync(runtime, { recursive: true, mode: 0o700 });
      const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
      const cold = join(dir, `cache-cold-${k}`);
      const warm = join(dir, `cache-warm-${k}`);
      const args = (cache, serve) => [
        build.cli,
        "verify",
        pdf,
        "--evidence",
        evidence,
        "--json",
        "--cache-dir",
        cache,
        "--serve",
        serve,
      ];
      rmSync(warm, { recursive: true, force: true });
      build.first = await measure(process.execPath, args(warm, "never"), { env });
      if (!verifyOk(build.first))
        throw new Error(`cold start: the first verify failed: ${build.first.stderr.trim()}`);
      servers.push(await startServe(build.cli, env));
      runners.push(
        () =>
          measure(process.execPath, [join(here, "lib", "cold-phases-child.mjs"), build.dist, pdf, evidence]),
        () => {
          rmSync(cold, { recursive: true, force: true });
          return measure(process.execPath, args(cold, "never"), { env });
        },
        () => measure(process.execPath, args(warm, "never"), { env }),
        () => measure(process.execPath, args(warm, "auto"), { env }),
      );
      checks.push((r) => r.code === 0, verifyOk, verifyOk, verifyOk);
    }
    const n = runs(9);
    const all = await interleave(n, runners, checks);
    const [scriptRuns, nodeRuns] = all;
    const scriptWall = medianOf(scriptRuns, "wallS");
    const nodeWall = medianOf(nodeRuns, "wallS");
    const lines = [
      `typical job: ${records.length} true quotations on ${PAPER} (${gold.pages} pages), process start to exit; load ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`,
      `  pdftotext-per-page + substring script: wall ${ms(scriptWall)}, cpu ${ms(medianOf(scriptRuns, "cpuS"))} (1.00)`,
      `  Node's own start (node -e 0): wall ${ms(nodeWall)}, cpu ${ms(medianOf(nodeRuns, "cpuS"))} (${r2(nodeWall / scriptWall)}x the script)`,
      "  MuPDF.js script: not measured (the mupdf npm package is AGPL-3.0)",
    ];
    const figures = [];
    for (const [k, build] of list.entries()) {
      const [phases, cold, warm, served] = all.slice(2 + 4 * k, 6 + 4 * k);
      if ([cold, warm, served].some((rs) => rs.some((r) => r.stdout !== build.first.stdout)))
        throw new Error("cold start: a cold, warm or served report differs from the first");
      const p = phases.map((r) => JSON.parse(r.stdout));
      const step = (key) => median(p.map((x) => x[key])) / 1000;
      const cpuOf = (key) => median(p.map((x) => x.cpuMs[key])) / 1000;
      const both = (key) => `${ms(step(`${key}Ms`))} (cpu ${ms(cpuOf(key))})`;
      const knownCpu =
        medianOf(nodeRuns, "cpuS") +
        cpuOf("modules") +
        cpuOf("compile") +
        cpuOf("instantiate") +
        cpuOf("extract");
      const coldWall = medianOf(cold, "wallS");
      const warmWall = medianOf(warm, "wallS");
      const servedWall = medianOf(served, "wallS");
      const known =
        nodeWall + step("modulesMs") + step("compileMs") + step("instantiateMs") + step("extractMs");
      figures.push({ coldWall, warmWall, servedWall });
      lines.push(
        `  ${build.name}cold: wall ${ms(coldWall)}, cpu ${ms(medianOf(cold, "cpuS"))}, peak RSS ${maxOf(cold, "maxRssMb").toFixed(0)} MB; ${r2(coldWall / scriptWall)}x the script (target <= 1.5) ${mark(coldWall / scriptWall <= 1.5)}`,
        `    breakdown, wall (cpu): Node's start ${ms(nodeWall)} (cpu ${ms(medianOf(nodeRuns, "cpuS"))}), modules ${both("modules")}, engine compile ${both("compile")}, instantiation ${both("instantiate")}, extraction of ${p[0].pages} pages ${both("extract")} (each step after the other on the main thread, baseline tier), layout + checks + output + worker hand-off ${ms(coldWall - known)} (cpu ${ms(medianOf(cold, "cpuS") - knownCpu)}): the rest of the cold run (the CLI overlaps the worker's start with module loading)`,
        `  ${build.name}warm: wall ${ms(warmWall)}, cpu ${ms(medianOf(warm, "cpuS"))}; ${r2(warmWall / scriptWall)}x the script (target <= 0.25) ${mark(warmWall / scriptWall <= 0.25)}`,
        `  ${build.name}through serve: wall ${ms(servedWall)}, Node's start + ${ms(servedWall - nodeWall)} (target <= 20 ms) ${mark(servedWall - nodeWall <= 0.02)}; ${r2(servedWall / scriptWall)}x the script`,
      );
    }
    if (figures.length > 1) {
      const [now, base] = figures;
      lines.push(
        `  this build against the base: cold ${r2(now.coldWall / base.coldWall)}x, warm ${r2(now.warmWall / base.warmWall)}x, through serve ${r2(now.servedWall / base.servedWall)}x`,
      );
    }
    lines.push(`  (medians of ${n} alternating rounds; every report byte-identical to the first run's)`);
    return lines;
  } finally {
    for (const server of servers) server.kill("SIGTERM");
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const l of await run()) console.log(l);
}
