// Generates the flow-format bench inputs: one text of about 100,000 words (numbered chapters and
// sections, paragraphs, footnotes, an occasional list and block quote) written as Markdown, built by
// pandoc into EPUB, DOCX, standalone HTML and a PDF (pdflatex), plus 100 true quotation records taken
// from the generating text (never from a reader under test), some naming their section. The PDF's
// records name the page pdftotext (poppler, not citeproof) finds the words on; a quotation that
// poppler cannot place on one page or two facing pages is skipped, so every format gets the same 100.
// Results are cached under bench-out/flow/ by the sha256 of this file and pandoc's version, so a
// change to the generator rebuilds and an unchanged one reuses.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ACADEMIC, prng, SYLLABLES } from "./make-pdf.mjs";
import { benchOut } from "./paths.mjs";

export const FLOW_WORDS = 100_000;
export const FLOW_QUOTATIONS = 100;
/** Every SECTION_EVERY-th record names its section (by number, words, or both in turn). */
const SECTION_EVERY = 3;

const COMMON = (
  "the of and to in a is that for it as was with be by on not this are or from at which but have an " +
  "they were their one all we can has there been if more when will would so no these than its also into " +
  "only other some time could them two may then any now such our over even most made after between many " +
  "those before must through where much should well because each just under while both however therefore " +
  "thus hence since although whereas within without against among during"
).split(" ");

/**
 * The text as Markdown and, for every body sentence, its words and the section it stands in:
 * { markdown, words, sentences: [{ text, number, title }] }.
 */
export function flowText(words = FLOW_WORDS, seed = 20261207) {
  const rand = prng(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pseudoWord = () => {
    let w = "";
    for (let i = int(2, 4); i > 0; i--) w += pick(SYLLABLES);
    return w;
  };
  const word = () => {
    const r = rand();
    if (r < 0.45) return pick(COMMON);
    if (r < 0.75) return pick(ACADEMIC);
    if (r < 0.96) return pseudoWord();
    return String(int(2, 1999));
  };
  const capital = (s) => `${s[0].toUpperCase()}${s.slice(1)}`;
  const sentence = () => {
    const n = int(8, 28);
    const w = [];
    for (let i = 0; i < n; i++) w.push(word());
    if (rand() < 0.2) w[int(1, n - 2)] += ",";
    return `${capital(w.join(" "))}.`;
  };
  const title = () => {
    const w = [];
    for (let i = int(2, 5); i > 0; i--) w.push(rand() < 0.5 ? pick(ACADEMIC) : pseudoWord());
    return capital(w.join(" "));
  };
  const out = [`% ${title()}`, "% A. Bench", ""];
  const sentences = [];
  let count = 0;
  let note = 0;
  const notes = [];
  for (let chapter = 1; count < words; chapter++) {
    const chapterTitle = title();
    out.push(`# ${chapter} ${chapterTitle}`, "");
    for (let section = 1; section <= int(3, 6) && count < words; section++) {
      const number = `${chapter}.${section}`;
      const sectionTitle = title();
      out.push(`## ${number} ${sectionTitle}`, "");
      for (let p = int(4, 9); p > 0 && count < words; p--) {
        const body = [];
        let n = 0;
        for (let target = int(60, 220); n < target; ) {
          const s = sentence();
          body.push(s);
          sentences.push({ text: s, number, title: sectionTitle });
          n += s.split(" ").length;
        }
        count += n;
        let text = body.join(" ");
        if (rand() < 0.08) {
          note++;
          const noteText = sentence();
          notes.push(`[^${note}]: ${noteText}`);
          count += noteText.split(" ").length;
          text += `[^${note}]`;
        }
        out.push(text, "");
        if (rand() < 0.04) {
          for (let k = int(3, 5); k > 0; k--) out.push(`- ${sentence()}`);
          out.push("");
        } else if (rand() < 0.03) {
          out.push(`> ${sentence()} ${sentence()}`, "");
        }
      }
    }
  }
  out.push(...notes, "");
  return { markdown: out.join("\n"), words: count, sentences };
}

const norm = (s) => s.normalize("NFKC").replace(/-\n/g, "").replace(/\s+/g, " ").trim();

/** The text of every page of a PDF as poppler reads it, line-end hyphens joined. */
function popplerPages(pdf) {
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", pdf, "-"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  return text.split("\f").map(norm);
}

/**
 * 100 quotation records, 8 to 18 words from within one body sentence each, spread evenly over the
 * text; every SECTION_EVERY-th names its section. Returns { flow, pdf }: the same quotations, the
 * flow records with their sections, the PDF records with the page poppler finds them on.
 */
function quotations(sentences, pdfPages, count = FLOW_QUOTATIONS, seed = 11) {
  const rand = prng(seed);
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const flow = [];
  const pdf = [];
  const stride = Math.floor(sentences.length / count);
  for (let i = 0; flow.length < count && i < sentences.length; i++) {
    const at = (flow.length * stride + i * 7) % sentences.length;
    const s = sentences[at];
    const words = s.text.replace(/[.,]/g, "").split(" ");
    if (words.length < 8) continue;
    const length = Math.min(words.length, int(8, 18));
    const start = int(0, words.length - length);
    const text = words.slice(start, start + length).join(" ");
    if (text.split(" ").length < 8) continue;
    // The words as poppler reads them must lie on one page, or run over onto the next.
    const probe = s.text
      .split(" ")
      .slice(start, start + length)
      .join(" ");
    let page = pdfPages.findIndex((p) => p.includes(probe));
    let endPage;
    if (page < 0) {
      page = pdfPages.findIndex(
        (p, k) => k + 1 < pdfPages.length && `${p} ${pdfPages[k + 1]}`.includes(probe),
      );
      if (page < 0) continue;
      endPage = page + 2;
    }
    const id = `q${flow.length + 1}`;
    const k = flow.length;
    const section =
      k % SECTION_EVERY === 0
        ? [s.number, s.title, `${s.number} ${s.title}`][(k / SECTION_EVERY) % 3]
        : undefined;
    flow.push({ id, kind: "quotation", ...(section ? { section } : {}), text: probe });
    pdf.push({ id, kind: "quotation", page: page + 1, ...(endPage ? { endPage } : {}), text: probe });
  }
  if (flow.length < count)
    throw new Error(`only ${flow.length} of ${count} quotations could be placed in the PDF`);
  return { flow, pdf };
}

function pandocVersion() {
  return execFileSync("pandoc", ["--version"], { encoding: "utf8" }).split("\n")[0];
}

/**
 * Builds (or reuses) the flow bench's inputs; returns paths { epub, docx, html, pdf, flowEvidence,
 * pdfEvidence, words, pages }.
 */
export function ensureFlowInputs(log = () => {}) {
  const hash = createHash("sha256")
    .update(readFileSync(fileURLToPath(import.meta.url)))
    // The vocabulary comes from the PDF generator: a change there changes the text too.
    .update(readFileSync(fileURLToPath(new URL("./make-pdf.mjs", import.meta.url))))
    .update(pandocVersion())
    .digest("hex")
    .slice(0, 12);
  const dir = join(benchOut("flow"), hash);
  const names = {
    md: "book.md",
    epub: "book.epub",
    docx: "book.docx",
    html: "book.html",
    pdf: "book.pdf",
    flowEvidence: "quotations-flow.json",
    pdfEvidence: "quotations-pdf.json",
    meta: "meta.json",
  };
  const inside = (base) => Object.fromEntries(Object.entries(names).map(([k, f]) => [k, join(base, f)]));
  const paths = inside(dir);
  if (existsSync(paths.meta)) return { ...paths, ...JSON.parse(readFileSync(paths.meta, "utf8")) };
  log(
    `generating the ${FLOW_WORDS}-word flow bench text and building it with pandoc (cached afterwards) ...`,
  );
  // Built in a folder of this process's own, renamed into place when complete: a run cut short or
  // another bench building at the same time never leaves a half-built set behind.
  const work = join(benchOut("flow"), `work-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const at = inside(work);
  const env = { ...process.env, SOURCE_DATE_EPOCH: "1700000000", FORCE_SOURCE_DATE: "1", TZ: "UTC" };
  try {
    const text = flowText();
    writeFileSync(at.md, text.markdown);
    const pandoc = (to, out, ...extra) =>
      execFileSync("pandoc", [at.md, "-f", "markdown", "-o", out, "-t", to, ...extra], {
        cwd: work,
        env,
        stdio: ["ignore", "ignore", "pipe"],
        maxBuffer: 1 << 28,
      });
    pandoc("epub3", at.epub);
    pandoc("docx", at.docx);
    pandoc("html5", at.html, "--standalone");
    // The PDF: pandoc's LaTeX, compiled by pdflatex.
    pandoc("latex", join(work, "book.tex"), "--standalone", "-V", "geometry:a4paper,margin=2.5cm");
    try {
      execFileSync("pdflatex", ["-interaction=batchmode", "-halt-on-error", "book.tex"], {
        cwd: work,
        env,
        stdio: "ignore",
      });
    } catch (error) {
      const logFile = join(work, "book.log");
      const detail = existsSync(logFile)
        ? readFileSync(logFile, "utf8")
            .split("\n")
            .filter((l) => l.startsWith("!"))
            .slice(0, 3)
            .join(" ")
        : "";
      throw new Error(`pdflatex failed: ${error.message.split("\n")[0]} ${detail}`);
    }
    const pages = popplerPages(at.pdf);
    const { flow, pdf } = quotations(text.sentences, pages);
    writeFileSync(at.flowEvidence, JSON.stringify(flow, null, 1));
    writeFileSync(at.pdfEvidence, JSON.stringify(pdf, null, 1));
    writeFileSync(
      at.meta,
      JSON.stringify({ words: text.words, pages: pages.filter((p) => p.length > 0).length }),
    );
    if (!existsSync(paths.meta)) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(work, dir);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { ...paths, ...JSON.parse(readFileSync(paths.meta, "utf8")) };
}
