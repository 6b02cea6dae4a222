// OCR speed on generated scans (lib/make-scan.mjs: a LaTeX article with numbered equations, printed
// to 300 dpi page images and rebuilt from them, so there is no text layer; the truth from its run).
// 1. A 3-page scan: CPU of `verify --ocr auto` checking two equation labels and one quotation (a
//    fresh process, no cache; CPU of every thread and of the OCR processes it waits for), against
//    the CPU of the system's `tesseract` reading the same three pages whole at 300 dpi (the images
//    pdftoppm makes of them, one process, its own defaults). Alternating rounds, medians. Also
//    citeproof with tesseract.js forced ($CITEPROOF_OCR_ENGINE), for the engine's share.
// 2. A 30-page scan: wall time of `verify --ocr auto` on two labels (its last page's and a middle
//    one's) under the default deadline, which must decide them (PASS), not cut them (FLAG deadline).
// Targets: citeproof <= 1.5x the system tesseract's CPU; the 30-page label search within 60 s.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeScan, scanToolsPresent } from "./lib/make-scan.mjs";
import { interleave, measure, medianOf } from "./lib/measure.mjs";
import { benchOut, cliPath } from "./lib/paths.mjs";

const TARGET_RATIO = 1.5;
const DEFAULT_DEADLINE_S = 60;
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const mark = (ok) => (ok ? "OK" : "MISS");

function have(program) {
  try {
    execFileSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The evidence file: two labels (a middle page's and the last page's) and, when asked, one quotation. */
function evidence(dir, name, scan, withQuotation) {
  const last = scan.labels[scan.labels.length - 1];
  const middle = scan.labels.find((l) => l.page >= Math.ceil(scan.pages / 2)) ?? scan.labels[0];
  const records = [middle, last].map((l) => ({ kind: "equation", label: l.label.replace(/[()]/g, "") }));
  const quoted = scan.quotations.find((q) => q.page === 2) ?? scan.quotations[0];
  if (withQuotation && quoted) records.push({ kind: "quotation", page: quoted.page, text: quoted.text });
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(records));
  return { file, records };
}

function verify(pdf, evidenceFile, env, extra = []) {
  return measure(
    process.execPath,
    [
      cliPath,
      "verify",
      pdf,
      "--evidence",
      evidenceFile,
      "--ocr",
      "auto",
      "--no-cache",
      "--json",
      "--serve",
      "never",
      ...extra,
    ],
    { env: { ...process.env, ...env } },
  );
}

/** Exit 0 or 1 (a FAIL is a result): the run itself worked. */
const ran = (r) => r.code === 0 || r.code === 1;

function verdicts(result) {
  try {
    return JSON.parse(result.stdout).results.map((r) => `${r.verdict} ${r.reason}`);
  } catch {
    return [`no report (exit ${result.code})`];
  }
}

export async function run() {
  const lines = [];
  if (!scanToolsPresent()) return ["ocr: skipped (pdflatex, pdftoppm, pdftotext or qpdf is not installed)"];
  if (!have("tesseract"))
    return ["ocr: skipped (the system's tesseract is not installed: nothing to compare with)"];
  const dir = benchOut("ocr");
  const small = makeScan(3, { out: join(dir, "scan-3p.pdf") });
  const big = makeScan(30, { out: join(dir, "scan-30p.pdf") });

  // The pages as images for the system's tesseract, made once and not counted.
  const images = join(dir, "pages-3p");
  rmSync(images, { recursive: true, force: true });
  mkdirSync(images, { recursive: true });
  execFileSync("pdftoppm", ["-r", "300", "-png", join(dir, "scan-3p.pdf"), join(images, "page")]);
  const list = join(images, "list.txt");
  const pngs = readdirSync(images)
    .filter((f) => f.endsWith(".png"))
    .sort()
    .map((f) => join(images, f));
  writeFileSync(list, `${pngs.join("\n")}\n`);

  const ev = evidence(dir, "evidence-3p.json", small, true);
  const [cite, citeJs, tess] = await interleave(
    runs(3),
    [
      () =>
        verify(join(dir, "scan-3p.pdf"), ev.file, { CITEPROOF_OCR_ENGINE: "auto" }, [
          "--timeout-ms",
          "600000",
        ]),
      () =>
        verify(join(dir, "scan-3p.pdf"), ev.file, { CITEPROOF_OCR_ENGINE: "tesseract.js" }, [
          "--timeout-ms",
          "600000",
        ]),
      () =>
        measure("tesseract", [list, "stdout"], {
          discardStdout: true,
          env: { ...process.env, OMP_THREAD_LIMIT: "1" },
        }),
    ],
    [ran, ran],
  );
  const citeCpu = medianOf(cite, "cpuS");
  const jsCpu = medianOf(citeJs, "cpuS");
  const tessCpu = medianOf(tess, "cpuS");
  const ratio = citeCpu / tessCpu;
  lines.push(
    `ocr 3p scan, 2 labels + 1 quotation: citeproof CPU ${s(citeCpu)} s (wall ${s(medianOf(cite, "wallS"))} s; ${verdicts(cite[0]).join(", ")})`,
    `ocr 3p scan: system tesseract reading the 3 pages whole at 300 dpi CPU ${s(tessCpu)} s; ratio ${s(ratio)}x (target <= ${TARGET_RATIO}x) ${mark(ratio <= TARGET_RATIO)}`,
    `ocr 3p scan, tesseract.js forced: citeproof CPU ${s(jsCpu)} s (${s(jsCpu / tessCpu)}x the system tesseract; ${verdicts(citeJs[0]).join(", ")})`,
  );

  const evBig = evidence(dir, "evidence-30p.json", big, false);
  const [bigRun] = await interleave(1, [() => verify(join(dir, "scan-30p.pdf"), evBig.file, {})], [ran]);
  const wall = medianOf(bigRun, "wallS");
  const decided = verdicts(bigRun[0]);
  const passed = decided.every((v) => v.startsWith("PASS"));
  lines.push(
    `ocr 30p scan, labels ${evBig.records.map((r) => r.label).join(" and ")} under the default deadline: wall ${s(wall)} s, CPU ${s(medianOf(bigRun, "cpuS"))} s (target: decided within ${DEFAULT_DEADLINE_S} s) ${mark(passed && wall <= DEFAULT_DEADLINE_S)} (${decided.join(", ")})`,
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(cliPath)) throw new Error(`build first: ${cliPath} is absent`);
  for (const line of await run()) console.log(line);
}
