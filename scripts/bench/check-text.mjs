// check-text speed: a 20-page draft with 500 citations (quotations true, on the wrong page and
// altered; bare pages; figures; equations; unanchored quotations) against the corpus's 196-page
// thesis, warm (extraction and anchors cached by a first run). Figure: CPU time (user + sys) of the
// whole `citeproof check-text` process, startup included, median of fresh processes.
// Target: under 2 s.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { measure, medianOf, repeat } from "./lib/measure.mjs";
import { benchOut, cliPath, corpusDir, distDir } from "./lib/paths.mjs";

const TARGET_CPU_S = 2;
const CITATIONS = 500;
const DRAFT_PAGES = 20;
const runs = (n) => (process.env.BENCH_RUNS ? Math.max(1, Number(process.env.BENCH_RUNS) | 0) : n);
const s = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");

const FILLER = [
  "The argument then turns to the practical side of the construction.",
  "This observation matters for everything that follows in the chapter.",
  "A careful reader will want to compare this with the earlier discussion.",
  "The same idea returns later in a more general setting.",
  "Nothing in the construction depends on the particular choice made here.",
];

/** Words of a page line fit to quote: letters, digits and plain punctuation, no quote marks. */
function quotable(line) {
  const clean = line.replace(/\s+/g, " ").trim();
  if (/["\u201c\u201d]/.test(clean)) return undefined;
  const words = clean.split(" ");
  if (words.length < 6) return undefined;
  const quote = words.slice(0, Math.min(words.length, 9)).join(" ");
  // A quotation holding a citation form would be read as one; keep the draft's citations countable.
  if (/\b(p|pp|eq|eqs|fig|figs|page|pages|equation|figure)\b\.?\s*\(?\d/i.test(quote)) return undefined;
  return quote.length >= 12 && quote.length <= 400 ? quote : undefined;
}

async function makeDraft(pdf, cacheDir) {
  const { openDocument } = await import(pathToFileURL(join(distDir, "document", "open.js")).href);
  const doc = await openDocument(pdf, { cacheDir, timeoutMs: 600_000 });
  const candidates = [];
  for (const page of doc.pages) {
    if (!page || page.page < 8) continue;
    for (const line of page.lines) {
      const quote = quotable(page.text.slice(line.startUtf16, line.endUtf16));
      if (quote) candidates.push({ page: page.page, quote });
    }
  }
  const pick = (i) => candidates[(i * 7919) % candidates.length];
  const sentences = [];
  for (let i = 0; i < CITATIONS; i++) {
    const c = pick(i);
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
        sentences.push(`On p. ${c.page} the author writes "${c.quote}".`);
        break;
      case 5:
        sentences.push(`As page ${c.page === doc.pageCount ? 1 : c.page + 1} puts it, "${c.quote}".`);
        break;
      case 6:
        sentences.push(`The text on p. ${c.page} reads "${c.quote.replace(/[a-z]{4,}/, "alteredword")}".`);
        break;
      case 7:
        sentences.push(`Page ${1 + (i % doc.pageCount)} sets up the next step.`);
        break;
      case 8:
        sentences.push(
          i % 20 === 8 ? `Fig. (${2 + (i % 5)}.${1 + (i % 4)}) shows it.` : `Eq. (${1 + (i % 9)}) gives it.`,
        );
        break;
      case 9:
        sentences.push(`See p. ${c.page}, where "${c.quote}" is said.`);
        sentences.push(`Elsewhere the author writes "${pick(i + 1).quote}".`);
        break;
    }
    sentences.push(FILLER[i % FILLER.length]);
  }
  // About 3000 characters a page: 20 pages of draft.
  const text = sentences.join(" ");
  const perPage = Math.ceil(text.length / DRAFT_PAGES);
  const lines = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + 76);
    if (end < text.length) end = text.lastIndexOf(" ", end) > at ? text.lastIndexOf(" ", end) : end;
    lines.push(text.slice(at, end).trim());
    at = end;
  }
  return { draft: `${lines.join("\n")}\n`, perPage };
}

export async function run() {
  const pdf = join(corpusDir, "thesis-determinant.pdf");
  if (!existsSync(pdf)) return [`check-text: ${pdf} is absent; skipped`];
  const dir = benchOut("check-text", String(process.pid));
  const cacheDir = join(dir, "cache");
  mkdirSync(cacheDir, { recursive: true });
  const { draft } = await makeDraft(pdf, cacheDir);
  const draftPath = join(dir, "draft.txt");
  writeFileSync(draftPath, draft);
  const args = [cliPath, "check-text", pdf, draftPath, "--json", "--cache-dir", cacheDir];
  const ok = (r) => (r.code === 0 || r.code === 1) && r.stdout.startsWith("{");
  // The first run computes the anchors (figures, equations) and caches them: that is the cold part.
  const [cold] = await repeat(1, () => measure(process.execPath, args), ok);
  const warm = await repeat(runs(5), () => measure(process.execPath, args), ok);
  const report = JSON.parse(warm[0].stdout);
  const sum = report.summary;
  rmSync(dir, { recursive: true, force: true });
  const cpu = medianOf(warm, "cpuS");
  return [
    `check-text: ${sum.citations} citations + ${sum.unanchored} unanchored in a ${DRAFT_PAGES}-page draft ` +
      `(${draft.length} chars) against thesis-determinant (196 p.): ${sum.PASS} PASS, ${sum.FLAG} FLAG, ${sum.FAIL} FAIL`,
    `check-text warm: process cpu ${s(cpu)} s (target < ${TARGET_CPU_S} s) ${cpu < TARGET_CPU_S ? "OK" : "MISS"}; ` +
      `wall ${s(medianOf(warm, "wallS"))} s, peak RSS ${s(medianOf(warm, "maxRssMb"))} MB; median of ${warm.length}`,
    `  (first run, anchors computed and cached: cpu ${s(cold.cpuS)} s, wall ${s(cold.wallS)} s)`,
  ];
}
