// Helping the writer cite right, on the generated 1000-page PDF (warm: extraction and token index
// cached by a first run).
// - locate of one phrase: the library call on a freshly opened document (target under 50 ms), and the
//   whole `citeproof locate` process, startup included (CPU time, user + sys, as the other process figures;
//   wall time beside it), target under 0.5 s; medians.
// - repair hints: verify of 1000 quotation records, 15% of them false, in the library; the time the
//   hints of the FAILs take (the same hint calls made again on the same pages, with the printed page
//   labels the check itself used: read from the cache, as a warm check reads them) against the rest of
//   the check (target: at most 10%). Beside it, what deciding every page's printed label afresh costs
//   (once per document, on a cold cache, by the first hint or page note that needs it).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBenchPdf } from "./lib/make-pdf.mjs";
import { measure, medianOf, repeat } from "./lib/measure.mjs";
import { benchOut, cliPath, distDir } from "./lib/paths.mjs";
import { makeQuotations } from "./lib/quotations.mjs";

const TARGET_LOCATE_LIB_MS = 50;
const TARGET_LOCATE_CLI_S = 0.5;
const TARGET_HINT_SHARE = 0.1;
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const load = (p) => import(pathToFileURL(join(distDir, p)).href);
const ms = (x) => x.toFixed(1);
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v[v.length >> 1];
};
const now = () => Number(process.hrtime.bigint()) / 1e6;

export async function run(context) {
  const pdf = context?.bigPdf ?? ensureBenchPdf(1000).pdf;
  const cacheDir = benchOut("cite-right-cache");
  const { openDocument } = await load("document/open.js");
  const { checkContext, checkRecord } = await load("checks/verify.js");
  const { locateWords } = await load("checks/locate.js");
  const { absentHint } = await load("checks/repair-hint.js");
  const { printedLabelsOf } = await load("text/printed-labels.js");
  const { closeEngine } = await load("document/engine-client.js");

  // Warm the cache: the text layer and the token index.
  const first = await openDocument(pdf, { cacheDir, timeoutMs: 30 * 60_000 });
  const page = first.pages[Math.floor(first.pageCount * 0.6)];
  const line = page.lines.find((l) => l.endUtf16 - l.startUtf16 > 50);
  const phrase = page.text.slice(line.startUtf16, line.endUtf16).split(/\s+/).slice(1, 7).join(" ");
  locateWords(checkContext(first), phrase);

  const libMs = [];
  let count = 0;
  for (let i = 0; i < runs(7); i++) {
    const doc = await openDocument(pdf, { cacheDir });
    const ctx = checkContext(doc);
    const t0 = now();
    count = locateWords(ctx, phrase).count;
    libMs.push(now() - t0);
  }
  const cli = await repeat(runs(5), () =>
    measure(
      process.execPath,
      [cliPath, "locate", pdf, "--text", phrase, "--json", "--cache-dir", cacheDir, "--serve", "never"],
      {
        discardStdout: true,
      },
    ),
  );
  const cliS = medianOf(cli, "cpuS");
  const cliWallS = medianOf(cli, "wallS");

  // Hints: 1000 records, 150 false.
  const records = makeQuotations(pdf, { count: 1000, wrongPage: 0, falseCount: 150 }).map((r) => ({
    kind: "quotation",
    page: r.page,
    text: r.text,
  }));
  const totals = [];
  const hints = [];
  for (let i = 0; i < runs(5); i++) {
    const doc = await openDocument(pdf, { cacheDir });
    const ctx = checkContext(doc);
    const t0 = now();
    const results = records.map((r) => checkRecord(ctx, r));
    const total = now() - t0;
    const absent = records.filter((_, k) => results[k].reason === "absent");
    const labels = ctx.pages.labels;
    const t1 = now();
    for (const r of absent) absentHint(ctx.pages, labels, r.page, r.text);
    hints.push(now() - t1);
    totals.push(total);
  }
  const fresh = [];
  for (let i = 0; i < runs(5); i++) {
    const doc = await openDocument(pdf, { cacheDir });
    const t0 = now();
    printedLabelsOf(checkContext(doc).pages.pages).pagesPrinted(1);
    fresh.push(now() - t0);
  }
  await closeEngine();
  const total = median(totals);
  const hint = median(hints);
  const share = hint / Math.max(1e-9, total - hint);
  const mark = (ok) => (ok ? "OK" : "MISS");
  const libMedian = median(libMs);
  return [
    `locate "${phrase}" (${count} found), 1000 pages, warm, library: ${ms(libMedian)} ms (target < ${TARGET_LOCATE_LIB_MS} ms) ${mark(libMedian < TARGET_LOCATE_LIB_MS)}`,
    `locate, CLI process (startup included), CPU: ${cliS.toFixed(2)} s, wall ${cliWallS.toFixed(2)} s (target < ${TARGET_LOCATE_CLI_S} s) ${mark(cliS < TARGET_LOCATE_CLI_S)}`,
    `verify 1000 records (15% false), library: ${ms(total)} ms; hints of the ${records.length - 850} false: ${ms(hint)} ms = ${(share * 100).toFixed(1)}% of the rest (target <= ${TARGET_HINT_SHARE * 100}%) ${mark(share <= TARGET_HINT_SHARE)}`,
    `  (every page's printed label decided afresh, once per document on a cold cache: ${ms(median(fresh))} ms; medians of ${totals.length} runs)`,
  ];
}
