// check-text --bib speed: a draft of 200 citations over 40 generated PDF sources (five quotations each,
// on their pages), cold (empty extraction cache) against the 40 single `check-text <pdf> <draft>` runs one
// after another (each cold), and warm (the same command again, every source cached).
// Targets: cold wall <= 0.6x the 40 single runs; warm wall <= 1.5 s. CPU is reported beside each
// (user + sys of the process tree), since on a loaded machine wall time mostly measures the load.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatedSource, quoteOf, writePdf } from "../drafts-gen/generate.mjs";
import { measure, medianOf, repeat } from "./lib/measure.mjs";
import { benchOut, cliPath } from "./lib/paths.mjs";

const SOURCES = 40;
const PER_SOURCE = 5;
const TARGET_COLD_RATIO = 0.6;
const TARGET_WARM_S = 1.5;
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");

export async function run() {
  const dir = benchOut("check-draft", String(process.pid));
  const bib = [];
  const draft = [];
  const singles = [];
  for (let i = 0; i < SOURCES; i++) {
    const source = generatedSource(100 + i);
    const file = join(dir, `source-${i + 1}.pdf`);
    writePdf(file, source);
    bib.push(`@article{s${i + 1}, title = {${source.title}}, doi = {${source.doi}}, file = {${file}}}`);
    const single = [];
    for (let k = 0; k < PER_SOURCE; k++) {
      const page = 1 + (k % source.pages);
      const quote = quoteOf(source.sentences[page - 1][k]);
      draft.push(`As written, "${quote}" [@s${i + 1}, p. ${page}].`);
      single.push(`On p. ${page} it says "${quote}".`);
    }
    const singlePath = join(dir, `single-${i + 1}.txt`);
    writeFileSync(singlePath, `${single.join("\n")}\n`);
    singles.push([file, singlePath]);
  }
  writeFileSync(join(dir, "refs.bib"), `${bib.join("\n")}\n`);
  writeFileSync(join(dir, "draft.md"), `${draft.join("\n")}\n`);
  const ok = (r) => (r.code === 0 || r.code === 1) && r.stdout.startsWith("{");
  const fresh = (name) => {
    const cache = join(dir, `cache-${name}`);
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    return cache;
  };
  const draftArgs = (cache) => [
    cliPath,
    "check-text",
    join(dir, "draft.md"),
    "--bib",
    join(dir, "refs.bib"),
    "--json",
    "--cache-dir",
    cache,
  ];
  const cold = await repeat(runs(3), () => measure(process.execPath, draftArgs(fresh("cold"))), ok);
  const warmCache = fresh("warm");
  await repeat(1, () => measure(process.execPath, draftArgs(warmCache)), ok);
  const warm = await repeat(runs(3), () => measure(process.execPath, draftArgs(warmCache)), ok);
  const singleCache = fresh("single");
  let singleWall = 0;
  let singleCpu = 0;
  for (const [pdf, text] of singles) {
    const [r] = await repeat(
      1,
      () =>
        measure(process.execPath, [cliPath, "check-text", pdf, text, "--json", "--cache-dir", singleCache]),
      ok,
    );
    singleWall += r.wallS;
    singleCpu += r.cpuS;
  }
  const summary = JSON.parse(warm[0].stdout).summary;
  rmSync(dir, { recursive: true, force: true });
  const coldWall = medianOf(cold, "wallS");
  const warmWall = medianOf(warm, "wallS");
  const ratio = coldWall / singleWall;
  return [
    `check-text --bib: ${summary.citations} citations over ${SOURCES} sources: ${summary.PASS} PASS, ${summary.FLAG} FLAG, ${summary.FAIL} FAIL`,
    `check-text --bib cold: wall ${s(coldWall)} s vs ${SOURCES} single check-text runs ${s(singleWall)} s: ${s(ratio)}x ` +
      `(target <= ${TARGET_COLD_RATIO}x) ${ratio <= TARGET_COLD_RATIO ? "OK" : "MISS"}; cpu ${s(medianOf(cold, "cpuS"))} s vs ` +
      `${s(singleCpu)} s (${s(medianOf(cold, "cpuS") / singleCpu)}x); median of ${cold.length}`,
    `check-text --bib warm: wall ${s(warmWall)} s (target <= ${TARGET_WARM_S} s) ${warmWall <= TARGET_WARM_S ? "OK" : "MISS"}, ` +
      `cpu ${s(medianOf(warm, "cpuS"))} s, peak RSS ${s(medianOf(warm, "maxRssMb"))} MB; median of ${warm.length}`,
  ];
}
