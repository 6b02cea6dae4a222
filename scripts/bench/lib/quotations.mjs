// Builds the bench's evidence file: quotation records sampled from the text of many pages of a PDF
// as poppler reads it (independent of citeproof's own extraction), most true on the page they name,
// some true but naming another page, some false (one word swapped for a word the document lacks).
import { execFileSync } from "node:child_process";

const SAFE_LINE = /^[A-Za-z0-9 ,.;:%()'"\u2018\u2019\u201c\u201d-]+$/;

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const TAG =
  /<(page) width="([^"]+)"|<(line)\b[^>]*>|<word xMin="([^"]+)" yMin="[^"]+" xMax="([^"]+)"[^>]*>([^<]*)<\/word>/g;
/** A gap at least this wide across the middle of the page is taken for a column gutter. */
const GUTTER_PT = 4;

/**
 * Runs of consecutive plain body lines per page, as word lists, from poppler's word boxes. Poppler
 * reads tight two-column text across the gutter, so on a page with two columns each line is cut at
 * the gutter and every piece is a run of its own; elsewhere consecutive lines join. A line-end hyphen
 * or a line with symbols ends a run.
 */
function pageRuns(pdf) {
  const xhtml = execFileSync("pdftotext", ["-bbox-layout", "-enc", "UTF-8", pdf, "-"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const pages = [];
  let page;
  let line;
  for (const m of xhtml.matchAll(TAG)) {
    if (m[1]) {
      page = { middle: Number(m[2]) / 2, lines: [] };
      pages.push(page);
    } else if (m[3]) {
      line = [];
      page.lines.push(line);
    } else if (line) {
      const text = m[6].replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ENTITIES[e]);
      line.push({ x0: Number(m[4]), x1: Number(m[5]), text });
    }
  }
  return pages.map(({ middle, lines }) => {
    const cut = (words) => {
      const at = words.findIndex(
        (w, i) => i > 0 && words[i - 1].x1 <= middle && w.x0 >= middle && w.x0 - words[i - 1].x1 >= GUTTER_PT,
      );
      return at < 0 ? [words] : [words.slice(0, at), words.slice(at)];
    };
    const twoColumns = lines.filter((l) => cut(l).length > 1).length >= 3;
    const runs = [];
    let run = [];
    const close = () => {
      if (run.length >= 6) runs.push(run);
      run = [];
    };
    for (const words of lines) {
      for (const piece of twoColumns ? cut(words) : [words]) {
        const text = piece.map((w) => w.text);
        const joined = text.join(" ");
        // Two or more periods in a row would read as an ellipsis (an elided quotation).
        if (text.length < 4 || !SAFE_LINE.test(joined) || joined.includes("..")) {
          close();
          continue;
        }
        run.push(...text);
        if (text[text.length - 1].endsWith("-")) {
          run.pop();
          close();
        }
        if (twoColumns) close();
      }
    }
    close();
    return runs;
  });
}

/**
 * Returns `count` quotation records over the PDF's pages: `wrongPage` of them true but naming another
 * page, `falseCount` false, the rest true on their page. Deterministic for a given PDF and seed.
 */
export function makeQuotations(pdf, { count = 1000, wrongPage = 50, falseCount = 100, seed = 7 } = {}) {
  const rand = prng(seed);
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pages = pageRuns(pdf);
  const usable = pages.map((runs, i) => ({ page: i + 1, runs })).filter((p) => p.runs.length > 0);
  if (usable.length === 0) throw new Error(`no plain body text found in ${pdf}`);
  const pageCount = pages.length;
  const records = [];
  for (let i = 0; i < count; i++) {
    // Walk the pages evenly so the quotations spread over the whole document.
    const { page, runs } = usable[Math.floor((i * usable.length) / count + rand() * 3) % usable.length];
    const run = runs[int(0, runs.length - 1)];
    const length = Math.min(run.length, int(6, 18));
    const start = int(0, run.length - length);
    const words = run.slice(start, start + length);
    let claimed = page;
    let kind = "true";
    if (wrongPage > 0 && i % Math.round(count / wrongPage) === 1 && pageCount > 1) {
      kind = "wrong-page";
      claimed = page + (rand() < 0.5 ? -1 : 1) * int(1, 6);
      if (claimed < 1 || claimed > pageCount) claimed = page === 1 ? 2 : page - 1;
    } else if (falseCount > 0 && i % Math.round(count / falseCount) === 3) {
      kind = "false";
      words[Math.floor(words.length / 2)] = `zanquor${"xvw"[i % 3]}ix`;
    }
    records.push({ id: `q${i + 1}-${kind}`, kind: "quotation", page: claimed, text: words.join(" ") });
  }
  return records;
}
