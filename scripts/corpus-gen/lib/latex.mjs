// Builds a generated LaTeX document and reads its ground truth from the run itself: the .aux file's
// \newlabel entries give the printed number of every labelled object, and the marks below give the
// physical page it was shipped on. Nothing here looks at the PDF the rules under test read.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Marks a template puts into its document (after \begin{document} is not needed; the preamble
 * defines them):
 *   \gttrue{kind}{key}   right after \label{key}: a true label of that kind (equation, figure)
 *   \gtfalse{kind}{text} where the template prints a label-like token that is no such label (a trap)
 *   \gtfalselabel{kind}{key} after \label{key} of a number that is not printed as such a label
 *                        (the parent number of a subequation group)
 * A true label's page is the \newlabel's printed page, turned into the physical page by the list of
 * printed pages each shipout writes; the marks write the physical page they are shipped on: the
 * shipout counter, read when the page is shipped (not when the mark is met, which for a float can be
 * pages earlier), 1-based then.
 */
export const GROUND_TRUTH_MACROS = String.raw`\makeatletter
\def\gtauxtrue#1#2#3{}\def\gtauxfalse#1#2#3{}\def\gtauxfalselabel#1#2#3{}\def\gtauxshipout#1{}
\AddToHook{shipout/before}{\immediate\write\@auxout{\string\gtauxshipout{\thepage}}}
\newcommand\gtfalselabel[2]{\protected@write\@auxout{}{\string\gtauxfalselabel{#1}{#2}{\noexpand\the\ReadonlyShipoutCounter}}}
\newcommand\gttrue[2]{\protected@write\@auxout{}{\string\gtauxtrue{#1}{#2}{\noexpand\the\ReadonlyShipoutCounter}}}
\newcommand\gtfalse[2]{\protected@write\@auxout{}{\string\gtauxfalse{#1}{#2}{\noexpand\the\ReadonlyShipoutCounter}}}
\makeatother
`;

export const ENGINES = ["pdflatex", "xelatex", "lualatex"];

export function hasEngine(engine) {
  try {
    execFileSync("sh", ["-c", `command -v ${engine}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Whether texlive holds a file (a class, a package, a font), by kpsewhich. */
export function texHas(file) {
  try {
    return execFileSync("kpsewhich", [file], { encoding: "utf8" }).trim().length > 0;
  } catch {
    return false;
  }
}

/**
 * Runs the engine twice (labels settle) in a fresh folder; returns the PDF bytes and the .aux text,
 * or throws with the log's error lines.
 */
export function buildLatex(engine, tex, timeoutMs = 120_000) {
  const work = mkdtempSync(join(tmpdir(), "citeproof-gen-"));
  const env = { ...process.env, SOURCE_DATE_EPOCH: "1700000000", FORCE_SOURCE_DATE: "1", TZ: "UTC" };
  try {
    writeFileSync(join(work, "doc.tex"), tex);
    for (let pass = 0; pass < 2; pass++) {
      try {
        execFileSync(engine, ["-interaction=nonstopmode", "-halt-on-error", "doc.tex"], {
          cwd: work,
          env,
          stdio: ["ignore", "pipe", "pipe"],
          timeout: timeoutMs,
        });
      } catch (error) {
        const log = join(work, "doc.log");
        const lines = existsSync(log)
          ? readFileSync(log, "utf8")
              .split("\n")
              .filter((l) => l.startsWith("!") || l.startsWith("l."))
              .slice(0, 6)
              .join(" | ")
          : "";
        throw new Error(`${engine} failed: ${lines || error.message.split("\n")[0]}`);
      }
    }
    return { pdf: readFileSync(join(work, "doc.pdf")), aux: readFileSync(join(work, "doc.aux"), "utf8") };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The balanced-brace groups that follow position `at` in `s`: ["{a}", ...] without the braces. */
function groups(s, at, count) {
  const out = [];
  let i = at;
  while (out.length < count && i < s.length) {
    if (s[i] !== "{") break;
    let depth = 0;
    let j = i;
    for (; j < s.length; j++) {
      if (s[j] === "{") depth++;
      else if (s[j] === "}" && --depth === 0) break;
    }
    out.push(s.slice(i + 1, j));
    i = j + 1;
  }
  return out;
}

/**
 * A printed label as the .aux holds it, without TeX grouping braces and spacing commands; a class's
 * wrapper around it (memoir's \M@TitleReference{number}{title}) gives its first argument.
 */
function plainLabel(s) {
  const wrapped = /^\\[A-Za-z@]+\s*(?=\{)/.exec(s);
  if (wrapped) s = groups(s, wrapped[0].length, 1)[0] ?? s;
  return s
    .replace(/\\(?:relax|ignorespaces|nobreakspace|upshape|textup|rm|normalfont)\b\s*/g, "")
    .replace(/[{}\s]/g, "");
}

/**
 * The ground truth of one built document: true labels (printed number from \newlabel, page from the
 * mark) and false ones (the template's traps), by kind. Pages are physical, 1-based.
 */
export function auxTruth(aux) {
  const numbers = new Map();
  const printedPages = new Map();
  const shipped = [...aux.matchAll(/\\gtauxshipout\{([^}]*)\}/g)].map((m) => m[1]);
  const physical = (printed) => {
    const i = shipped.indexOf(printed);
    return i >= 0 ? i + 1 : undefined;
  };
  const truths = [];
  const traps = [];
  for (const m of aux.matchAll(/\\newlabel\{([^}]*)\}/g)) {
    const [inner] = groups(aux, m.index + m[0].length, 1);
    if (inner === undefined) continue;
    const [printed, page] = groups(inner, 0, 2);
    if (printed !== undefined) numbers.set(m[1], plainLabel(printed));
    if (page !== undefined) printedPages.set(m[1], page);
  }
  for (const m of aux.matchAll(/\\gtauxtrue\{([^}]*)\}\{([^}]*)\}\{(\d+)\}/g)) {
    const page = Number(m[3]) || physical(printedPages.get(m[2]));
    truths.push({ kind: m[1], key: m[2], label: numbers.get(m[2]), page });
  }
  for (const m of aux.matchAll(/\\gtauxfalse\{([^}]*)\}\{([^}]*)\}\{(\d+)\}/g)) {
    traps.push({ kind: m[1], label: plainLabel(m[2]), page: Number(m[3]) });
  }
  for (const m of aux.matchAll(/\\gtauxfalselabel\{([^}]*)\}\{([^}]*)\}\{(\d+)\}/g)) {
    const label = numbers.get(m[2]);
    if (label) traps.push({ kind: m[1], label, page: Number(m[3]) });
  }
  return { truths, traps };
}

/** Page count of a PDF file, by pdfinfo (poppler); undefined when pdfinfo is absent. */
export function pageCount(file) {
  try {
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    const m = /^Pages:\s+(\d+)/m.exec(info);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A generator module's LaTeX documents: two pdfLaTeX variants of each class texlive has, then one
 * XeLaTeX and one LuaLaTeX document where `unicode(profile, count)` says what those engines set (a
 * font, or true; undefined: none for this class; `count` is the documents made so far). `tex(profile,
 * rng, unicode)` writes one, `unicode` undefined for pdfLaTeX; `ciClasses` name the CI sample.
 */
export function classDocuments({ rng, classes, ciClasses, tex, unicode, extraFalse }) {
  const docs = [];
  for (const profile of classes) {
    if ((profile.file && !texHas(profile.file)) || (profile.needs && !texHas(profile.needs))) continue;
    for (let variant = 0; variant < 2; variant++) {
      const doc = rng.fork(`${profile.id}-${variant}`);
      docs.push({
        id: `${profile.id}-pdflatex-${variant}`,
        group: `${profile.id}/pdflatex`,
        ci: variant === 0 && ciClasses.has(profile.id),
        engine: "pdflatex",
        tex: tex(profile, doc, undefined),
        extraFalse,
      });
    }
    for (const engine of ["xelatex", "lualatex"]) {
      const set = unicode(profile, docs.length);
      if (set === undefined) break;
      const doc = rng.fork(`${profile.id}-${engine}`);
      docs.push({
        id: `${profile.id}-${engine}`,
        group: `${profile.id}/${engine}`,
        engine,
        tex: tex(profile, doc, set),
        extraFalse,
      });
    }
  }
  return docs;
}
