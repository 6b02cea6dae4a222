// Generates the bench PDFs: a long LaTeX document of realistic density (varied words and numbers,
// ligatures, hyphenation, footnotes, two-column stretches, numbered displayed equations and figure
// captions every ~20 pages), compiled with pdflatex and trimmed to exactly the page count asked for.
// Results are cached under bench-out/ by the sha256 of this file and the page count, so a change to
// the generator rebuilds and an unchanged one reuses.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchOut } from "./paths.mjs";

const GENERATOR_HASH = createHash("sha256")
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest("hex")
  .slice(0, 12);

/** Words per page of one-column body text at the chosen layout, measured; the generator overshoots. */
const WORDS_PER_PAGE = 560;
const OVERSHOOT = 1.1;

const COMMON = (
  "the of and to in a is that for it as was with be by on not he this are or his from at which but have an " +
  "they you were their one all we can her has there been if more when will would who so no these than its " +
  "also into only other some time could them two may then do first any my now such like our over man me even " +
  "most made after between many those before must through where much should well because each just under " +
  "while both however therefore thus hence since although whereas within without against among during"
).split(" ");

export const ACADEMIC = (
  "efficient field office flow affect effect first final significant coefficient workflow different " +
  "difficult sufficient offer official profile reflect conflict fluid flux fixed figure finite define " +
  "classification specification identification modification verification amplification affinity " +
  "analysis method model result estimate variance sample parameter distribution observation theorem " +
  "proof lemma measure density boundary condition equation function operator matrix vector eigenvalue " +
  "spectrum convergence stability simulation experiment procedure evidence hypothesis regression " +
  "uniform random process temperature pressure velocity surface interface layer region domain approach " +
  "framework structure property relation assumption approximation asymptotic numerical analytical " +
  "empirical statistical theoretical consistent robust bounded continuous discrete linear nonlinear"
).split(" ");

export const SYLLABLES = (
  "ka ri to mu sen vel tra po li qua dor fen gal mi ost rel bin cor dal eph fi fl ff un der ment tion ab " +
  "sor pel ther mo graph ic al ous ive ly er est in ex pro con sub trans inter ple sta ble ing ate ize"
).split(" ");

/** A small deterministic generator (mulberry32), so the same seed gives the same document. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeWriter(seed) {
  const rand = prng(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pseudoWord = () => {
    let w = "";
    const n = int(2, 4);
    for (let i = 0; i < n; i++) w += pick(SYLLABLES);
    return w;
  };
  const number = () => {
    switch (int(0, 7)) {
      case 0:
        return String(int(1, 999));
      case 1:
        return `${int(0, 99)}.${String(int(0, 999)).padStart(3, "0")}`;
      case 2:
        return `${int(1, 99)}\\%`;
      case 3:
        return String(int(1950, 2024));
      case 4:
        return `${int(1, 9)}--${int(10, 30)}`;
      case 5:
        return `$n = ${int(5, 500)}$`;
      case 6:
        return `$p < 0.0${int(1, 5)}$`;
      default:
        return `(${int(1, 40)})`;
    }
  };
  const word = () => {
    const r = rand();
    if (r < 0.45) return pick(COMMON);
    if (r < 0.75) return pick(ACADEMIC);
    if (r < 0.95) return pseudoWord();
    return number();
  };
  const sentence = () => {
    const n = int(8, 28);
    const words = [];
    for (let i = 0; i < n; i++) words.push(word());
    if (rand() < 0.15) words.splice(int(2, n - 2), 0, `\`\`${pseudoWord()} ${pick(ACADEMIC)}''`);
    if (rand() < 0.2) words[int(1, n - 1)] += ",";
    const s = words.join(" ");
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  };
  const paragraph = (words) => {
    const out = [];
    let count = 0;
    while (count < words) {
      const s = sentence();
      out.push(s);
      count += s.split(" ").length;
    }
    return { text: out.join(" "), words: count };
  };
  const title = () => {
    const n = int(2, 5);
    const w = [];
    for (let i = 0; i < n; i++) w.push(rand() < 0.5 ? pick(ACADEMIC) : pseudoWord());
    const s = w.join(" ");
    return `${s[0].toUpperCase()}${s.slice(1)}`;
  };
  return { rand, int, pick, paragraph, title, pseudoWord };
}

/** The LaTeX source of a document of roughly `pages` pages. */
export function benchTex(pages, seed = 20240611) {
  const w = makeWriter(seed);
  const parts = [
    "\\documentclass[11pt]{article}",
    "\\usepackage[a4paper,margin=2.8cm]{geometry}",
    "\\usepackage{amsmath,amssymb,multicol,microtype}",
    "\\pdftrailerid{}",
    "\\begin{document}",
    `\\title{${w.title()}}\\author{A. ${w.title()}}\\date{}\\maketitle`,
  ];
  const target = Math.ceil(pages * WORDS_PER_PAGE * OVERSHOOT);
  let words = 0;
  let equation = 0;
  let figure = 0;
  let nextSection = 0;
  let nextTwoColumn = WORDS_PER_PAGE * 9;
  let nextDisplay = WORDS_PER_PAGE * 20;
  while (words < target) {
    if (words >= nextSection) {
      parts.push(`\\section{${w.title()}}`);
      nextSection = words + WORDS_PER_PAGE * w.int(4, 10);
    }
    if (words >= nextTwoColumn) {
      // A stretch of about one and a half pages in two balanced columns.
      parts.push("\\begin{multicols}{2}");
      let inner = 0;
      while (inner < WORDS_PER_PAGE * 1.5) {
        const p = w.paragraph(w.int(60, 160));
        parts.push(p.text, "");
        inner += p.words;
      }
      parts.push("\\end{multicols}");
      words += inner;
      nextTwoColumn = words + WORDS_PER_PAGE * w.int(7, 12);
      continue;
    }
    if (words >= nextDisplay) {
      // A few numbered displayed equations and a figure with its caption, referred to by number.
      const n = w.int(2, 3);
      for (let k = 0; k < n; k++) {
        equation++;
        const p = w.paragraph(w.int(40, 90));
        parts.push(`${p.text} As Eq.~(${equation}) shows,`);
        parts.push(
          "\\begin{equation}",
          `  E_{${w.int(1, 9)}} = \\sum_{i=1}^{${w.int(2, 50)}} a_i x_i^{${w.int(2, 4)}} + ${w.int(1, 9)}.${w.int(0, 99)}\\,\\frac{\\partial u}{\\partial t} - \\int_0^1 f(s)\\,ds`,
          "\\end{equation}",
          `where ${lowerFirst(w.paragraph(w.int(20, 40)).text)}`,
          "",
        );
        words += p.words + 30;
      }
      figure++;
      parts.push(
        "\\begin{figure}[htbp]",
        "  \\centering",
        `  \\framebox[0.6\\textwidth]{\\rule{0pt}{${w.int(3, 6)}cm}}`,
        `  \\caption{${w.paragraph(w.int(15, 45)).text}}`,
        "\\end{figure}",
        `Figure~${figure} shows the ${w.pick(["result", "estimate", "profile", "flux"])} of ${w.pseudoWord()}.`,
        "",
      );
      nextDisplay = words + WORDS_PER_PAGE * w.int(17, 23);
    }
    const p = w.paragraph(w.int(60, 220));
    let text = p.text;
    if (w.rand() < 0.05) text += `\\footnote{${w.paragraph(w.int(10, 35)).text}}`;
    parts.push(text, "");
    words += p.words;
  }
  parts.push("\\end{document}", "");
  return parts.join("\n");
}

function lowerFirst(s) {
  return `${s[0].toLowerCase()}${s.slice(1)}`;
}

function pageCountOf(pdf) {
  return Number(execFileSync("qpdf", ["--show-npages", pdf], { encoding: "utf8" }).trim());
}

/**
 * Builds (or reuses) the bench PDF of exactly `pages` pages, and its one-page excerpt. Returns paths.
 * Needs pdflatex and qpdf.
 */
export function ensureBenchPdf(pages = 1000, log = () => {}) {
  const dir = join(benchOut(), "pdf", `${GENERATOR_HASH}-${pages}`);
  const pdf = join(dir, `bench-${pages}p.pdf`);
  const onePage = join(dir, "bench-1p.pdf");
  if (existsSync(pdf) && existsSync(onePage)) return { pdf, onePage, pages, cached: true };
  const work = join(benchOut(), "pdf", `work-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    writeFileSync(join(work, "bench.tex"), benchTex(pages));
    log(`generating the ${pages}-page bench PDF with pdflatex (cached afterwards) ...`);
    const env = { ...process.env, SOURCE_DATE_EPOCH: "1700000000", FORCE_SOURCE_DATE: "1", TZ: "UTC" };
    try {
      execFileSync("pdflatex", ["-interaction=batchmode", "-halt-on-error", "bench.tex"], {
        cwd: work,
        env,
        stdio: "ignore",
        maxBuffer: 1 << 26,
      });
    } catch (error) {
      const logFile = join(work, "bench.log");
      const detail = existsSync(logFile)
        ? readFileSync(logFile, "utf8")
            .split("\n")
            .filter((l) => l.startsWith("!"))
            .slice(0, 3)
            .join(" ")
        : "";
      throw new Error(`pdflatex failed: ${error.message.split("\n")[0]} ${detail}`);
    }
    const built = join(work, "bench.pdf");
    const have = pageCountOf(built);
    if (have < pages)
      throw new Error(
        `the generator made ${have} pages, fewer than ${pages}: raise WORDS_PER_PAGE's overshoot`,
      );
    const trimmed = join(work, "trimmed.pdf");
    execFileSync("qpdf", ["--empty", "--pages", built, `1-${pages}`, "--", trimmed]);
    const one = join(work, "one.pdf");
    // Page 2 is plain body text (page 1 carries the title block).
    execFileSync("qpdf", ["--empty", "--pages", built, "2", "--", one]);
    mkdirSync(dir, { recursive: true });
    copyFileSync(one, `${onePage}.tmp`);
    renameSync(`${onePage}.tmp`, onePage);
    copyFileSync(trimmed, `${pdf}.tmp`);
    renameSync(`${pdf}.tmp`, pdf);
    log(`built ${pdf} (${have} pages before trimming to ${pages})`);
    return { pdf, onePage, pages, cached: false };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
