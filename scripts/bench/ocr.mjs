// OCR speed on generated scans (lib/make-scan.mjs: a LaTeX article with numbered equations, printed
// to 300 dpi page images and rebuilt from them, so there is no text layer; the truth from its run).
// 1. A 3-page scan: CPU of `verify --ocr auto` checking two equation labels and one quotation (a
//    fresh process, no cache; CPU of every thread and of the OCR processes it waits for), against
//    the CPU of the system's `tesseract` reading the same three pages whole at 300 dpi (the images
//    pdftoppm makes of them, one process, its own defaults). Alternating rounds, medians. Also
//    citeproof with tesseract.js forced ($CITEPROOF_OCR_ENGINE), for the engine's share; and one run
//    more with a `tesseract` on the PATH that runs the system's and notes each process's CPU, which
//    splits citeproof's CPU into the OCR processes' (pages, label crops) and its own (start,
//    extraction, rendering, the checks).
// 2. A 30-page scan: wall time of `verify --ocr auto` on two labels (its last page's and a middle
//    one's) under the default deadline, which must decide them (PASS), not cut them (FLAG deadline).
// Targets: citeproof <= 1.5x the system tesseract's CPU; the 30-page label search within 60 s.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/**
 * One verify run with a `tesseract` first on the PATH that runs the system's and appends, per process,
 * its page segmentation mode, how many images it read and the CPU it took (the shell's `times`).
 */
export async function splitRun(dir, pdf, evidenceFile) {
  const real = execFileSync("sh", ["-c", "command -v tesseract"], { encoding: "utf8" }).trim();
  const bin = join(dir, "noting-bin");
  const log = join(dir, "noting.log");
  mkdirSync(bin, { recursive: true });
  rmSync(log, { force: true });
  const wrapper = join(bin, "tesseract");
  writeFileSync(
    wrapper,
    `#!/bin/sh\n"${real}" "$@"\nrc=$?\npsm=none; prev=; for a in "$@"; do [ "$prev" = --psm ] && psm=$a; prev=$a; done\n` +
      // `times` run by the shell itself (not in a command substitution's subshell): its children's CPU.
      `times > "${log}.$$"\nn=0; [ -f "$1" ] && n=$(wc -l < "$1")\n` +
      `echo "run psm=$psm images=$n $(tail -n 1 "${log}.$$")" >> "${log}"\nrm -f "${log}.$$"\nexit $rc\n`,
  );
  chmodSync(wrapper, 0o755);
  const result = await verify(pdf, evidenceFile, { PATH: `${bin}:${process.env.PATH}` }, [
    "--timeout-ms",
    "600000",
  ]);
  const seconds = (t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  };
  const runs = (existsSync(log) ? readFileSync(log, "utf8") : "")
    .split("\n")
    .filter((l) => l.startsWith("run "))
    .map((l) => {
      const [, psm, images, user, sys] = /psm=(\S+) images=\s*(\d+) (\S+) (\S+)/.exec(l) ?? [];
      return { psm, images: Number(images), cpuS: seconds(user) + seconds(sys) };
    })
    .filter((r) => r.psm !== "none");
  const of = (psm) => runs.filter((r) => r.psm === psm);
  const sum = (list) => list.reduce((n, r) => n + r.cpuS, 0);
  return { result, pageMode: of("6"), crops: of("7"), ocrCpu: sum(runs), sum };
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

  const split = await splitRun(dir, join(dir, "scan-3p.pdf"), ev.file);
  const own = split.result.cpuS - split.ocrCpu;
  lines.push(
    `ocr 3p scan, one more run split: CPU ${s(split.result.cpuS)} s = tesseract processes ${s(split.ocrCpu)} s ` +
      `(pages, strips and bands: ${split.pageMode.length} run(s), ${split.pageMode.reduce((n, r) => n + r.images, 0)} image(s), ${s(split.sum(split.pageMode))} s; ` +
      `label crops: ${split.crops.length} run(s), ${split.crops.reduce((n, r) => n + r.images, 0)} image(s), ${s(split.sum(split.crops))} s) ` +
      `+ citeproof's own ${s(own)} s (${s(own / tessCpu)}x the system tesseract's whole reading)`,
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
