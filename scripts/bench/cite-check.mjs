// cite-check speed: 100 citations over 20 pages of the corpus's 196-page thesis.
// Primary figures time the call itself in a fresh process (module loading excluded; CPU counts every
// thread): cold (empty cache) against extracting those 20 pages alone (cache off, glyph geometry
// included), and warm (cache filled, fresh process) against cold. The whole CLI process is timed too.
// Targets: cold <= 1.3x the extraction alone; warm >= 5x faster than cold.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { measure, medianOf, repeat } from "./lib/measure.mjs";
import { benchOut, cliPath, corpusDir, distDir } from "./lib/paths.mjs";

const TARGET_COLD_RATIO = 1.3;
const TARGET_WARM_SPEEDUP = 5;
const PAGES = 20;
const PER_PAGE = 5;
const here = fileURLToPath(new URL(".", import.meta.url));
const child = join(here, "lib", "cite-check-child.mjs");
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : "n/a");
const mark = (ok) => (ok ? "OK" : "MISS");
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/** Five citations per page: whole body lines boxed by their glyphs, padded 1 pt; one in five moved away. */
async function makeCitations(pdf, pages) {
  const { openDocument } = await import(pathToFileURL(join(distDir, "document", "open.js")).href);
  const doc = await openDocument(pdf, { noCache: true, pages, withGeometry: true, timeoutMs: 600_000 });
  const citations = [];
  for (const page of pages) {
    const text = doc.pages[page - 1].text;
    const g = doc.geometry.get(page).glyphBoxes;
    const lines = doc.pages[page - 1].lines.filter((l) => l.endUtf16 - l.startUtf16 >= 30);
    for (let k = 0; k < PER_PAGE && lines.length > 0; k++) {
      const line = lines[(k * 7) % lines.length];
      const quote = text.slice(line.startUtf16, line.endUtf16).trim();
      const start = text.indexOf(quote, line.startUtf16);
      const box = { left: Infinity, bottom: Infinity, right: -Infinity, top: -Infinity };
      for (let i = start; i < start + quote.length; i++) {
        if (Number.isNaN(g[i * 4])) continue;
        box.left = Math.min(box.left, g[i * 4]);
        box.bottom = Math.min(box.bottom, g[i * 4 + 1]);
        box.right = Math.max(box.right, g[i * 4 + 2]);
        box.top = Math.max(box.top, g[i * 4 + 3]);
      }
      const shift = k === PER_PAGE - 1 ? 200 : 0;
      citations.push({
        id: `p${page}-${k}`,
        quote,
        page,
        bounding_box: {
          left: box.left - 1,
          bottom: box.bottom - 1 - shift,
          right: box.right + 1,
          top: box.top + 1 - shift,
        },
      });
    }
  }
  return citations;
}

async function inChild(args, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = await measure(process.execPath, [child, ...args]);
    if (r.code !== 0) throw new Error(`cite-check bench child failed: ${r.stderr.trim().split("\n").pop()}`);
    out.push(JSON.parse(r.stdout));
  }
  return out;
}

export async function run() {
  const pdf = join(corpusDir, "thesis-determinant.pdf");
  if (!existsSync(pdf)) return [`cite-check: ${pdf} is absent; skipped`];
  const pages = Array.from({ length: PAGES }, (_, i) => 8 + i * 9);
  const citations = await makeCitations(pdf, pages);
  // Per process, so two bench runs at once do not share a cache.
  const dir = benchOut("cite-check", String(process.pid));
  const citationsPath = join(dir, "citations.json");
  writeFileSync(citationsPath, JSON.stringify(citations));
  const cacheDir = join(dir, "cache");
  const fresh = () => {
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
  };
  const check = ["check", pdf, citationsPath, cacheDir, corpusDir];

  const base = await inChild(["extract", pdf, pages.join(",")], runs(5));
  const cold = [];
  for (let i = 0; i < runs(5); i++) {
    fresh();
    cold.push(...(await inChild(check, 1)));
  }
  const warm = await inChild(check, runs(7));
  const mix = Object.entries(warm[0].summary)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  const baseCpu = median(base.map((r) => r.cpuMs));
  const coldCpu = median(cold.map((r) => r.cpuMs));
  const warmCpu = median(warm.map((r) => r.cpuMs));
  const baseWall = median(base.map((r) => r.wallMs));
  const coldWall = median(cold.map((r) => r.wallMs));
  const warmWall = median(warm.map((r) => r.wallMs));
  const ratio = coldCpu / baseCpu;
  const speedup = coldCpu / warmCpu;

  const cliArgs = [
    cliPath,
    "cite-check",
    pdf,
    "--citations",
    citationsPath,
    "--allow-root",
    corpusDir,
    "--json",
  ];
  const ok = (r) => (r.code === 0 || r.code === 1) && r.stdout.startsWith("{");
  const cliCold = await repeat(
    runs(3),
    () => {
      fresh();
      return measure(process.execPath, [...cliArgs, "--cache-dir", cacheDir]);
    },
    ok,
  );
  const cliWarm = await repeat(
    runs(5),
    () => measure(process.execPath, [...cliArgs, "--cache-dir", cacheDir]),
    ok,
  );

  rmSync(dir, { recursive: true, force: true });
  return [
    `cite-check ${citations.length} citations over ${PAGES} pages of thesis-determinant (196 p.): ${mix}`,
    `cite-check cold: cpu ${ms(coldCpu)}, extracting the ${PAGES} pages alone ${ms(baseCpu)}, ratio ${s(ratio)} ` +
      `(target <= ${TARGET_COLD_RATIO}) ${mark(ratio <= TARGET_COLD_RATIO)}`,
    `cite-check warm: cpu ${ms(warmCpu)}, cold ${ms(coldCpu)}, speed-up ${s(speedup)}x ` +
      `(target >= ${TARGET_WARM_SPEEDUP}x) ${mark(speedup >= TARGET_WARM_SPEEDUP)}`,
    `  (wall: extraction alone ${ms(baseWall)}, cold ${ms(coldWall)} (ratio ${s(coldWall / baseWall)}), warm ` +
      `${ms(warmWall)} (speed-up ${s(coldWall / warmWall)}x); medians of ${base.length}/${cold.length}/${warm.length} fresh processes)`,
    `  (whole CLI process, startup included: cold cpu ${s(medianOf(cliCold, "cpuS"))} s, warm cpu ` +
      `${s(medianOf(cliWarm, "cpuS"))} s, speed-up ${s(medianOf(cliCold, "cpuS") / medianOf(cliWarm, "cpuS"))}x)`,
  ];
}
