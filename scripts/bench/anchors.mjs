// Anchors speed: deciding every equation label and figure caption of the 1000-page bench PDF (and
// of the corpus's 196-page thesis) against extracting it, and cropping an anchor at 150 dpi warm.
// "Extraction" is the extraction figure's own work: open with the cache off. "With anchors" opens
// for anchors (holding the glyph geometry), then decides every anchor: what verify of an equation
// or figure record adds. Measured again with a fresh cache (extraction writes it; the anchors record
// is cached too). CPU of every thread, medians of several fresh processes.
// Targets: anchors add at most 15% to extraction; a crop at 150 dpi within 100 ms warm.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBenchPdf } from "./lib/make-pdf.mjs";
import { interleave, measure, median, medianOf, repeat } from "./lib/measure.mjs";
import { benchOut, corpusDir } from "./lib/paths.mjs";

const TARGET_ADDED = 0.15;
const TARGET_CROP_MS = 100;
const here = fileURLToPath(new URL(".", import.meta.url));
const child = join(here, "lib", "anchors-child.mjs");
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const mark = (ok) => (ok ? "OK" : "MISS");

function runChild(args) {
  return measure(process.execPath, [child, ...args]);
}

async function addedCost(label, pdf, n, cached = false) {
  const cacheDir = join(benchOut("anchors"), "cold-cache");
  const fresh = (mode) => () => {
    rmSync(cacheDir, { recursive: true, force: true });
    return runChild([cached ? `${mode}-cached` : mode, pdf, cacheDir]);
  };
  // Alternating extraction and anchors runs: drifting load weighs on both sides of the ratio.
  const [extract, anchors] = await interleave(runs(n), [fresh("extract"), fresh("anchors")]);
  const base = medianOf(extract, "cpuS");
  const withAnchors = medianOf(anchors, "cpuS");
  const decided = anchors.map((r) => JSON.parse(r.stdout));
  const decideS = median(decided.map((d) => d.decideCpuMs)) / 1000;
  const added = withAnchors / base - 1;
  const d = decided[0];
  return [
    `${label}: extraction cpu ${s(base)} s, with anchors ${s(withAnchors)} s, added ${(added * 100).toFixed(1)}% ` +
      `(target <= ${Math.round(TARGET_ADDED * 100)}%) ${mark(added <= TARGET_ADDED)}`,
    `  (deciding alone ${s(decideS)} s cpu = ${((decideS / base) * 100).toFixed(1)}% of extraction; ` +
      `${d.equations} equation labels, ${d.rejected} rejected candidates, ${d.figures} captions over ${d.pages} pages; ` +
      `medians of ${extract.length} alternating runs each)`,
  ];
}

export async function run(context = {}) {
  const lines = [];
  const big = context.bigPdf ? { pdf: context.bigPdf } : ensureBenchPdf(1000);
  lines.push(...(await addedCost("anchors 1000p", big.pdf, 7)));
  lines.push(...(await addedCost("anchors 1000p, cold cache (a first verify)", big.pdf, 7, true)));
  const thesis = join(context.corpusDir ?? corpusDir, "thesis-determinant.pdf");
  if (existsSync(thesis)) lines.push(...(await addedCost("anchors thesis 196p", thesis, 5)));
  else lines.push(`anchors thesis: skipped (${thesis} is absent)`);

  const cacheDir = join(benchOut("anchors"), "cache");
  const crops = await repeat(runs(3), () =>
    runChild(["crop", existsSync(thesis) ? thesis : big.pdf, cacheDir, "12"]),
  );
  const results = crops.map((r) => JSON.parse(r.stdout));
  const warm = median(results.flatMap((r) => r.warmMs));
  const cold = median(results.map((r) => r.coldMs));
  lines.push(
    `crop 150 dpi warm: median ${warm.toFixed(0)} ms (target <= ${TARGET_CROP_MS} ms) ${mark(warm <= TARGET_CROP_MS)}` +
      ` (first crop of a process, engine start included: ${cold.toFixed(0)} ms; ${results[0].warmMs.length} warm crops x ${results.length} runs)`,
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await run()) console.log(line);
}
