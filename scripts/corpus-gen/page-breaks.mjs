#!/usr/bin/env node
// Builds documents whose quotations run across page breaks, with the break's furniture between the
// halves, and writes them as a corpus folder (PDF + NAME.gold.json) that scripts/corpus.mjs scores:
//   - LaTeX (pdfLaTeX, LuaLaTeX): fancyhdr running heads with the folio at the head, a plain folio at
//     the foot (the page number between the halves), footnotes at the page's foot, long words in a
//     narrow measure so that words are hyphenated across the break (`con-` / `dition`);
//   - a Chromium print of an HTML page (its own header and footer: the date, title, URL and `N/M`)
//     with MathJax-like inline mathematics (a visible rendering and a clipped assistive copy);
//   - a scan of a LaTeX document with Tesseract's invisible OCR text layer.
// Truth is taken from the generating run: every word of the source is numbered, and LaTeX writes the
// physical page each word starts and ends on into the .aux as the page is shipped (a mark before and
// after the word, which hyphenation passes over). A Chromium print writes no such record: there the
// page a word stands on is read with poppler's pdftotext (another reader than the one under test),
// aligning the source's words, in order, with each page's words.
// Cases, per break: runs of source words that start on one page and end on the next, named with
// `endPage` (break-true: PASS), named without it (break-hint: FAIL crosses-page), and the same runs
// with one word near the break changed or dropped (break-altered: FAIL; checked absent from the source).
// Usage: node scripts/corpus-gen/page-breaks.mjs [--seed N] [--out DIR] [--no-ocr] [--fixture]
//   --fixture  only the documents the unit tests read (FIXTURE), seed 7, into test/fixtures/page-breaks
//              with their sha256 recorded there
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeSha256Sums } from "../fixtures/sha256sums.mjs";
import { buildLatex, hasEngine } from "./lib/latex.mjs";
import { hashString, random } from "./lib/random.mjs";
import { scanPdf, scanTools } from "./lib/scan.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = resolve(here, "..", "..");
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const asFixture = args.includes("--fixture");
const seed = asFixture ? 7 : Number(option("--seed") ?? 7);
const out = asFixture
  ? join(root, "test", "fixtures", "page-breaks")
  : resolve(option("--out") ?? join(root, ".corpus-gen", "page-breaks"));
const withOcr = !asFixture && !args.includes("--no-ocr");
/** The documents test/text/page-break-furniture.test.ts reads. */
const FIXTURE = [
  "breaks-fancy-head-notes-lualatex",
  "breaks-plain-foot-pdflatex",
  "breaks-chromium-mathjax-0",
];
const wanted = (name) => !asFixture || FIXTURE.includes(name);
mkdirSync(out, { recursive: true });

// Long words, so that line ends (and so page ends) fall inside words often.
const LONG = (
  "condition representation approximately characteristic neighbourhood transformation measurement " +
  "considerable interpretation understanding establishment observational consequently distribution " +
  "independently configuration experimental particularly relationship organisation fundamentally " +
  "straightforward comprehensive determination sophisticated investigation correspondingly " +
  "accumulation generalisation nevertheless administrative responsibility"
).split(" ");
const SHORT = (
  "the model of a system is given by its state and input it receives over time we consider case where " +
  "each component interacts with neighbours through coupling that depends on distance strength signal"
).split(" ");

function words(rng, n) {
  const list = [];
  for (let i = 0; i < n; i++) list.push(rng.chance(0.45) ? rng.pick(LONG) : rng.pick(SHORT));
  return list;
}

/** Paragraphs of source words; some words end a sentence (a full stop or comma glued to them). */
function sourceText(rng, paragraphs) {
  const paras = [];
  for (let p = 0; p < paragraphs; p++) {
    const w = words(rng, rng.int(90, 160));
    for (let i = 0; i < w.length; i++) {
      if (i === 0 || w[i - 1].endsWith(".")) w[i] = w[i][0].toUpperCase() + w[i].slice(1);
      if (i === w.length - 1 || rng.chance(0.07)) w[i] += ".";
      else if (rng.chance(0.05)) w[i] += ",";
    }
    paras.push(w);
  }
  return paras;
}

const LATEX_STYLES = {
  // Running head (title) and folio at the head's outer side, on both sides.
  "fancy-head": String.raw`\usepackage{fancyhdr}\pagestyle{fancy}\fancyhf{}
\fancyhead[LE,RO]{\thepage}\fancyhead[RE,LO]{\itshape Notes on coupled systems}`,
  // A folio centred at the foot: the page number stands between the halves.
  "plain-foot": String.raw`\pagestyle{plain}`,
  // Both: a running head with a rule and a folio at the foot.
  "fancy-both": String.raw`\usepackage{fancyhdr}\pagestyle{fancy}\fancyhf{}
\fancyhead[L]{\small Coupled systems}\fancyhead[R]{\small Chapter 2}\fancyfoot[C]{--~\thepage~--}`,
};

function latexDoc(rng, style, footnotes) {
  const paras = sourceText(rng, 9);
  // A word with a footnote mark glued to it: a run of words never goes over the mark (`fences`).
  const fences = new Set();
  const notes = [];
  const body = [];
  let index = 0;
  for (const para of paras) {
    const parts = ["\\leavevmode"];
    for (const w of para) {
      let note = "";
      if (footnotes && rng.chance(0.02)) {
        const noteWords = words(rng, rng.int(8, 30));
        notes.push(noteWords);
        note = `\\footnote{${noteWords.join(" ")}.}`;
        fences.add(index);
      }
      parts.push(`\\gtb{${index}}${w}\\gte{${index}}${note}`);
      index++;
    }
    body.push(parts.join(" "));
  }
  const tex = String.raw`\documentclass[11pt,twoside]{article}
\usepackage[paperwidth=15cm,paperheight=21cm,textwidth=9cm,textheight=15cm]{geometry}
${LATEX_STYLES[style]}
\makeatletter
\def\gtauxb#1#2{}\def\gtauxe#1#2{}
\newcommand\gtb[1]{\protected@write\@auxout{}{\string\gtauxb{#1}{\noexpand\the\ReadonlyShipoutCounter}}}
\newcommand\gte[1]{\protected@write\@auxout{}{\string\gtauxe{#1}{\noexpand\the\ReadonlyShipoutCounter}}}
\makeatother
\brokenpenalty=0
\begin{document}
${body.join("\n\n")}
\end{document}
`;
  return { tex, words: paras.flat(), fences, notes };
}

/** Each word's first and last physical page, from the marks the shipped pages wrote. */
function latexPages(aux, count) {
  const start = new Array(count);
  const end = new Array(count);
  for (const m of aux.matchAll(/\\gtauxb\{(\d+)\}\{(\d+)\}/g)) start[Number(m[1])] = Number(m[2]);
  for (const m of aux.matchAll(/\\gtauxe\{(\d+)\}\{(\d+)\}/g)) end[Number(m[1])] = Number(m[2]);
  return { start, end };
}

/** MathJax's CHTML output in miniature: the rendering hidden from readers, and its assistive copy. */
function mathHtml(rng) {
  const v = rng.pick(["x", "y", "n", "k"]);
  const e = rng.int(2, 9);
  return (
    `<mjx-container class="MathJax" jax="CHTML" style="position:relative">` +
    `<mjx-math aria-hidden="true">${v}<sup>${e}</sup></mjx-math>` +
    `<mjx-assistive-mml unselectable="on" display="inline" style="position:absolute;top:0;left:0;` +
    `clip:rect(1px,1px,1px,1px);padding:1px 0 0 0;border:0;display:block;overflow:hidden">` +
    `<math><msup><mi>${v}</mi><mn>${e}</mn></msup></math></mjx-assistive-mml></mjx-container>`
  );
}

function htmlDoc(rng) {
  const paras = sourceText(rng, 14);
  const html = [];
  // A mathematics token stands between words; a run of words never crosses one (`fences`).
  const fences = new Set();
  let index = 0;
  for (const para of paras) {
    const parts = [];
    for (const w of para) {
      parts.push(w);
      if (w.endsWith(".") && rng.chance(0.5)) {
        parts.push(mathHtml(rng));
        fences.add(index);
      }
      index++;
    }
    html.push(`<p>${parts.join(" ")}</p>`);
  }
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Coupled systems</title>
<style>body{font-family:serif;font-size:13pt;line-height:1.45;margin:0 1cm} p{margin:0 0 .6em}</style>
</head><body><h1>Coupled systems</h1>${html.join("\n")}</body></html>`;
  return { html: page, words: paras.flat(), fences };
}

function printHtml(html) {
  const work = mkdtempSync(join(tmpdir(), "citeproof-breaks-"));
  try {
    writeFileSync(join(work, "doc.html"), html);
    execFileSync(
      "chromium",
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        `--user-data-dir=${join(work, "profile")}`,
        `--print-to-pdf=${join(work, "doc.pdf")}`,
        `file://${join(work, "doc.html")}`,
      ],
      { stdio: "ignore", timeout: 120_000 },
    );
    return readFileSync(join(work, "doc.pdf"));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const norm = (w) => w.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Each source word's page in a print no marks were written into: pdftotext's words of each page,
 * matched in order with the source's (a word is placed where it and the next two stand in a row).
 */
function alignedPages(pdf, source) {
  const work = mkdtempSync(join(tmpdir(), "citeproof-breaks-"));
  try {
    writeFileSync(join(work, "doc.pdf"), pdf);
    const text = execFileSync("pdftotext", ["doc.pdf", "-"], { cwd: work, encoding: "utf8" });
    // The words of every page in one stream, each with its page.
    const stream = text.split("\f").flatMap((t, q) =>
      t
        .split(/\s+/)
        .map(norm)
        .filter(Boolean)
        .map((w) => ({ w, page: q + 1 })),
    );
    const src = source.map(norm);
    const page = new Array(src.length);
    // Where the word and the next two stand in order, a few words apart at most (furniture between).
    const fits = (i, at) => {
      if (stream[at].w !== src[i]) return false;
      for (let d = 1, from = at + 1; d <= 2 && i + d < src.length; d++) {
        let j = from;
        while (j < stream.length && j < from + 40 && stream[j].w !== src[i + d]) j++;
        if (j >= stream.length || j >= from + 40) return false;
        from = j + 1;
      }
      return true;
    };
    let t = 0;
    for (let i = 0; i < src.length; i++) {
      for (let at = t; at < stream.length && at < t + 80; at++) {
        if (!fits(i, at)) continue;
        page[i] = stream[at].page;
        t = at + 1;
        break;
      }
    }
    return { start: page, end: page };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Each page's words as poppler reads them, a word hyphenated at a line's end joined: ` a b c `. */
function popplerPages(pdf) {
  const work = mkdtempSync(join(tmpdir(), "citeproof-breaks-"));
  try {
    writeFileSync(join(work, "doc.pdf"), pdf);
    const text = execFileSync("pdftotext", ["doc.pdf", "-"], { cwd: work, encoding: "utf8" });
    return text
      .split("\f")
      .map((t) => ` ${t.replace(/-\n/g, "").split(/\s+/).map(norm).filter(Boolean).join(" ")} `);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The cases of one document: runs of words across each break, true, without endPage, and altered. */
function cases(rng, doc, pages, pdf) {
  const onPages = popplerPages(pdf);
  const { start, end } = pages;
  const w = doc.words;
  // Every text the document prints: a changed run must be in none of them.
  const printed = [w, ...(doc.notes ?? [])].map((t) => ` ${t.map(norm).join(" ")} `);
  const list = [];
  let n = 0;
  const id = (category) => `${category}-${String(++n).padStart(3, "0")}`;
  for (let k = 1; k < w.length; k++) {
    // k: the first word that starts on a later page than the word before it.
    if (!start[k] || !start[k - 1] || start[k] === start[k - 1]) continue;
    const first = start[k - 1];
    if (start[k] !== first + 1) continue;
    for (const length of [5, 8, 13]) {
      for (const before of new Set([1, 2, Math.floor(length / 2), length - 1])) {
        const s = k - before;
        const e = s + length - 1;
        if (s < 0 || e >= w.length || start[s] !== first || end[e] !== first + 1) continue;
        if (doc.fences && [...doc.fences].some((f) => f >= s && f < e)) continue;
        const run = w.slice(s, e + 1);
        const text = run.join(" ");
        list.push({ category: "break-true", evidence: { page: first, endPage: first + 1, text } });
        list.push({ category: "break-hint", evidence: { page: first, text }, reason: "crosses-page" });
        // One word next to the break changed, or dropped.
        const at = before - 1 + rng.int(0, 1);
        const changed = [...run];
        if (rng.chance(0.7)) {
          let other = rng.pick([...LONG, ...SHORT]);
          while (norm(other) === norm(run[at])) other = rng.pick([...LONG, ...SHORT]);
          changed[at] = other + run[at].replace(/^[A-Za-z]+/, "");
        } else changed.splice(at, 1);
        // Nor on either page, read in order (a page's last body line runs on into its footnotes).
        const folded = ` ${changed.map(norm).join(" ")} `;
        if (![...printed, onPages[first - 1], onPages[first]].some((t) => t.includes(folded)))
          list.push({
            category: "break-altered",
            evidence: { page: first, endPage: first + 1, text: changed.join(" ") },
          });
      }
    }
  }
  return list.map((c) => ({
    id: id(c.category),
    category: c.category,
    tool: "verify",
    evidence: { kind: "quotation", ...c.evidence },
    expect: {
      verdict: c.category === "break-true" ? "PASS" : "FAIL",
      ...(c.reason ? { reason: c.reason } : {}),
    },
  }));
}

function write(name, group, pdf, pageOf, doc, rng) {
  const file = `${name}.pdf`;
  writeFileSync(join(out, file), pdf);
  const list = cases(rng, doc, pageOf, pdf);
  const gold = {
    generator: "page-breaks",
    group,
    pdf: { file },
    kind: `generated: quotations across page breaks (${group})`,
    cases: list,
  };
  writeFileSync(join(out, `${name}.gold.json`), `${JSON.stringify(gold, null, 1)}\n`);
  const count = (c) => list.filter((x) => x.category === c).length;
  console.log(
    `${name}: ${count("break-true")} true, ${count("break-hint")} hint, ${count("break-altered")} altered`,
  );
}

const rng = random(hashString(`${seed}:page-breaks`));
for (const engine of ["pdflatex", "lualatex"]) {
  if (!hasEngine(engine)) {
    console.log(`${engine}: not installed, skipped`);
    continue;
  }
  for (const style of Object.keys(LATEX_STYLES)) {
    for (const footnotes of [false, true]) {
      const docRng = rng.fork(`${engine}-${style}-${footnotes}`);
      const name = `breaks-${style}${footnotes ? "-notes" : ""}-${engine}`;
      if (!wanted(name)) continue;
      const doc = latexDoc(docRng, style, footnotes);
      const { pdf, aux } = buildLatex(engine, doc.tex);
      write(name, `latex/${engine}`, pdf, latexPages(aux, doc.words.length), doc, docRng);
      if (withOcr && engine === "pdflatex" && style === "plain-foot" && footnotes && scanTools("ocr"))
        write(
          `${name}-ocr`,
          "scan/ocr-layer",
          scanPdf(pdf, { dpi: 300, layer: "ocr" }),
          latexPages(aux, doc.words.length),
          doc,
          docRng,
        );
    }
  }
}
if (hasEngine("chromium")) {
  for (let i = 0; i < 3; i++) {
    const docRng = rng.fork(`chromium-${i}`);
    if (!wanted(`breaks-chromium-mathjax-${i}`)) continue;
    const doc = htmlDoc(docRng);
    const pdf = printHtml(doc.html);
    write(`breaks-chromium-mathjax-${i}`, "chromium/mathjax", pdf, alignedPages(pdf, doc.words), doc, docRng);
  }
}
if (asFixture) writeSha256Sums(out, (f) => f.endsWith(".pdf") || f.endsWith(".json"));
