// batch speed: 40 PDFs (the corpus's, then fixture PDFs to make up the number) x 20 quotations each,
// `citeproof batch` against the same verify commands run one after another, in alternating rounds in
// this run: cold (a fresh extraction cache for every round) and warm (cache filled, fresh results file).
// Targets on a 2-CPU machine: cold wall <= 0.6x the single commands, warm <= 0.25x.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { interleave, measure, medianOf } from "./lib/measure.mjs";
import { benchOut, cliPath, corpusDir, root } from "./lib/paths.mjs";
import { makeQuotations } from "./lib/quotations.mjs";

const PDFS = 40;
const QUOTES = 20;
const TARGET_COLD = 0.6;
const TARGET_WARM = 0.25;
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");

function pdfs() {
  const list = (dir, skip = () => false) => {
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith(".pdf") && !skip(f))
        .sort()
        .map((f) => join(dir, f));
    } catch {
      return [];
    }
  };
  const fixtures = list(join(root, "test", "fixtures"), (f) => f === "encrypted.pdf");
  return [...list(corpusDir), ...fixtures];
}

export async function run() {
  const dir = benchOut("batch", String(process.pid));
  mkdirSync(dir, { recursive: true });
  const jobs = [];
  for (const pdf of pdfs()) {
    if (jobs.length === PDFS) break;
    let verify;
    try {
      verify = makeQuotations(pdf, { count: QUOTES, wrongPage: 1, falseCount: 2, seed: 16 });
    } catch {
      continue; // no plain text poppler can read (a scan): nothing to quote
    }
    const evidence = join(dir, `evidence-${jobs.length}.json`);
    writeFileSync(evidence, JSON.stringify(verify));
    jobs.push({ id: `job-${jobs.length}`, pdf, verify, evidence });
  }
  const jobsPath = join(dir, "jobs.jsonl");
  writeFileSync(jobsPath, jobs.map(({ evidence: _e, ...j }) => JSON.stringify(j)).join("\n") + "\n");
  // The single commands, one after another, in one shell.
  const script = join(dir, "single.sh");
  writeFileSync(
    script,
    jobs
      .map(
        (j) =>
          `"${process.execPath}" "${cliPath}" verify "${j.pdf}" --evidence "${j.evidence}" --json --cache-dir "$1" > /dev/null; [ $? -le 1 ] || exit 3`,
      )
      .join("\n") + "\n",
  );
  const env = { ...process.env, CITEPROOF_SERVE: "never" };
  const fresh = (name) => {
    const path = join(dir, name);
    rmSync(path, { recursive: true, force: true });
    return path;
  };
  const single = (cache) => measure("sh", [script, cache], { env });
  const batch = (cache) =>
    measure(
      process.execPath,
      [
        cliPath,
        "batch",
        jobsPath,
        "--out",
        fresh("results.jsonl"),
        "--quiet",
        "--cache-dir",
        cache,
        "--allow-root",
        "/",
      ],
      { env },
    );
  const ok = (r) => r.code === 0 || r.code === 1;
  const cold = await interleave(
    runs(3),
    [() => single(fresh("cache-single")), () => batch(fresh("cache-batch"))],
    [ok, ok],
  );
  const warmCache = join(dir, "cache-single");
  const warm = await interleave(runs(3), [() => single(warmCache), () => batch(warmCache)], [ok, ok]);
  rmSync(dir, { recursive: true, force: true });
  const ratio = (pair) => medianOf(pair[1], "wallS") / medianOf(pair[0], "wallS");
  const line = (name, pair, target) => {
    const r = ratio(pair);
    return (
      `batch ${name}: ${jobs.length} PDFs x ${QUOTES} quotations, wall ${s(medianOf(pair[1], "wallS"))} s vs ` +
      `${s(medianOf(pair[0], "wallS"))} s for the verify commands one after another: ${s(r)}x ` +
      `(target <= ${target}x) ${r <= target ? "OK" : "MISS"}; median of ${pair[0].length} alternating rounds`
    );
  };
  return [
    line("cold", cold, TARGET_COLD),
    line("warm", warm, TARGET_WARM),
    `  (batch: ${availableParallelism()} worker threads by default; cpu cold ${s(medianOf(cold[1], "cpuS"))} s vs ${s(medianOf(cold[0], "cpuS"))} s, peak RSS ${s(medianOf(cold[1], "maxRssMb"))} MB)`,
  ];
}
