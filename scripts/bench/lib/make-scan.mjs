// A scanned paper with numbered equations for the OCR bench and tests: a LaTeX article of `pages`
// pages (prose, a right-numbered display every few paragraphs) built with pdfLaTeX, printed to grey
// page images (pdftoppm) and rebuilt from the images alone, so there is no text layer. The truth is
// the generating run's .aux (each label and the page it is printed on) and, for quotations, six words of
// a line of each page as the built PDF's own text layer gives them.
// Usage: node scripts/bench/lib/make-scan.mjs <pages> <out.pdf> [dpi]  (writes <out>.truth.json beside it)
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLatex } from "../../corpus-gen/lib/latex.mjs";
import { scanPdf } from "../../corpus-gen/lib/scan.mjs";

const WORDS = (
  "the method estimates a bound on the error of each step and the analysis shows that the " +
  "sequence converges when the operator is contractive in a suitable norm while the constant " +
  "depends only on the data of the problem so that a careful choice of the parameters gives a " +
  "rate which is optimal for this class of models under the stated assumptions"
).split(" ");

const DISPLAYS = [
  String.raw`\int_0^1 f(x)\,dx = \sum_{k=1}^{n} w_k f(x_k) + R_n`,
  String.raw`\| u - u_h \| \le C h^{p+1} \| u \|_{p+1}`,
  String.raw`E[X] = \frac{a + b}{2} + \sigma^2`,
  String.raw`x_{k+1} = x_k - \alpha \nabla f(x_k)`,
  String.raw`\lambda_{\max}(A) \le \max_i \sum_j |a_{ij}|`,
];

/** Deterministic prose: sentence `i` of paragraph `p`. */
function paragraph(p) {
  const out = [];
  for (let s = 0; s < 6; s++) {
    const words = [];
    for (let w = 0; w < 14; w++) words.push(WORDS[(p * 31 + s * 7 + w * 3) % WORDS.length]);
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    out.push(`${words.join(" ")}.`);
  }
  return out.join(" ");
}

/** The LaTeX source of a paper of about `pages` pages. */
export function scanTex(pages) {
  const body = [];
  let eq = 0;
  for (let p = 0; p < pages * 9; p++) {
    body.push(paragraph(p), "");
    if (p % 2 === 1) {
      eq++;
      body.push(
        String.raw`\begin{equation}\label{eq:${eq}}`,
        DISPLAYS[eq % DISPLAYS.length],
        String.raw`\end{equation}`,
        "",
      );
    }
  }
  return [
    String.raw`\documentclass[11pt]{article}`,
    String.raw`\usepackage[margin=1in]{geometry}`,
    String.raw`\usepackage{amsmath}`,
    String.raw`\pagestyle{plain}`,
    String.raw`\begin{document}`,
    ...body,
    String.raw`\end{document}`,
    "",
  ].join("\n");
}

/** The labels the .aux records: `(3)` and its page. */
export function auxLabels(aux) {
  const out = [];
  for (const m of aux.matchAll(/\\newlabel\{eq:\d+\}\{\{(\d+)\}\{(\d+)\}/g))
    out.push({ label: `(${m[1]})`, page: Number(m[2]) });
  return out;
}

/** Whether pdfLaTeX, pdftoppm, pdftotext and qpdf are installed. */
export function scanToolsPresent() {
  for (const tool of ["pdflatex", "pdftoppm", "pdftotext", "qpdf"]) {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * The scan of a generated paper cut to its first `pages` pages, at `dpi`: { pdf, labels } with the
 * labels printed on those pages. Written to `out` (and `out.truth.json`) when given, and read back
 * from there when both already exist.
 */
export function makeScan(pages, { dpi = 300, out } = {}) {
  const truthFile = out ? `${out}.truth.json` : undefined;
  if (out && existsSync(out) && existsSync(truthFile))
    return { pdf: readFileSync(out), ...JSON.parse(readFileSync(truthFile, "utf8")) };
  const built = buildLatex("pdflatex", scanTex(pages));
  const cut = firstPages(built.pdf, pages);
  const pdf = scanPdf(cut, { dpi, layer: "none" });
  const labels = auxLabels(built.aux).filter((l) => l.page <= pages);
  const quotations = pageQuotations(cut, pages);
  if (out) {
    writeFileSync(out, pdf);
    writeFileSync(truthFile, `${JSON.stringify({ pages, dpi, labels, quotations }, null, 1)}\n`);
  }
  return { pdf, pages, dpi, labels, quotations };
}

/** Per page, six words of a line of prose in its middle, as the built PDF's text layer gives them. */
function pageQuotations(pdf, pages) {
  const out = [];
  for (let page = 1; page <= pages; page++) {
    const text = execFileSync("pdftotext", ["-f", String(page), "-l", String(page), "-", "-"], {
      input: pdf,
      encoding: "utf8",
    });
    // Six words of letters alone (no sentence's end inside) from a line in the page's middle.
    const runs = text
      .split("\n")
      .map((l) => l.trim().split(" "))
      .map((words) => {
        for (let i = 0; i + 6 <= words.length; i++)
          if (words.slice(i, i + 6).every((w) => /^[a-z]+$/i.test(w))) return words.slice(i, i + 6);
        return undefined;
      })
      .filter((run) => run !== undefined);
    if (runs.length === 0) continue;
    out.push({ page, text: runs[runs.length >> 1].join(" ") });
  }
  return out;
}

/** The first `pages` pages of a PDF (by qpdf). */
function firstPages(pdf, pages) {
  const work = mkdtempSync(join(tmpdir(), "citeproof-scan-cut-"));
  try {
    writeFileSync(join(work, "in.pdf"), pdf);
    execFileSync("qpdf", ["--empty", "--pages", "in.pdf", `1-${pages}`, "--", "out.pdf"], { cwd: work });
    return readFileSync(join(work, "out.pdf"));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [pages, out, dpi] = process.argv.slice(2);
  if (!pages || !out) {
    process.stderr.write("usage: make-scan.mjs <pages> <out.pdf> [dpi]\n");
    process.exit(2);
  }
  const made = makeScan(Number(pages), { out, dpi: dpi ? Number(dpi) : 300 });
  process.stdout.write(`${out}: ${made.pages} pages, ${made.labels.length} labels\n`);
}
