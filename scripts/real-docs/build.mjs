#!/usr/bin/env node
// Builds the acceptance set of documents from producers the fixture builders do not use, with the truth
// of each taken from its source (never from a reader under test), and the quotations to check:
//   node scripts/real-docs/build.mjs [out-dir]            the full set, default .real-docs/
//   node scripts/real-docs/build.mjs --subset [out-dir]   the committed subset, default
//                                                         test/fixtures/real-docs/ (generated text only)
// Producers: pandoc's LaTeX reader into JATS and EPUB, LibreOffice's exports of a flat ODT into DOCX, ODT,
// EPUB and HTML, and (full set) documents already on a Debian system: HTML manuals in /usr/share/doc,
// man pages set as HTML by pandoc, Markdown guides, license texts and LaTeX manuals; a missing one is
// skipped and named. truth.json lists per document the true quotations (with their section), the
// altered ones (one word changed) and the wrong sections (another heading named). Measure with
// scripts/real-docs/measure.mjs.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { prng } from "../bench/lib/make-pdf.mjs";
import { convert } from "../corpus-gen/lib/office.mjs";
import { writeSha256Sums } from "../fixtures/sha256sums.mjs";
import { generatedText, generatedTruth, toFodt, toLatex } from "./generated.mjs";
import { pandocTruth } from "./pandoc-truth.mjs";

const subset = process.argv.includes("--subset");
const outDir =
  process.argv.slice(2).find((a) => !a.startsWith("--")) ??
  (subset ? join("test", "fixtures", "real-docs") : ".real-docs");
const PER_DOCUMENT = subset ? 12 : 40;
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "citeproof-real-docs-"));
const documents = [];
const skipped = [];

function run(command, args, options = {}) {
  return execFileSync(command, args, { stdio: ["ignore", "pipe", "pipe"], timeout: 300_000, ...options });
}

/** LibreOffice's export of `file` to `format`, kept in the set as `name`. */
function soffice(file, format, name) {
  const out = join(work, "soffice");
  mkdirSync(out, { recursive: true });
  convert(out, file, format, join(work, "profile"));
  renameSync(join(out, basename(file).replace(/\.\w+$/u, `.${format.split(":")[0]}`)), join(outDir, name));
}

const fold = (t) =>
  t
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[“”"‘’']/gu, "")
    .replace(/\s+/gu, " ");

/**
 * The quotations of one document: true ones with their section, altered ones and wrong sections, at most
 * PER_DOCUMENT of each, spread over the text.
 */
function quotations(truth, seed) {
  const rand = prng(seed);
  const whole = fold(truth.sentences.map((s) => s.text).join(" "));
  const count = (needle) => whole.split(needle).length - 1;
  const titles = new Map();
  for (const h of truth.headings) titles.set(fold(h.title), (titles.get(fold(h.title)) ?? 0) + 1);
  const uniqueTitle = (t) => t !== "" && titles.get(fold(t)) === 1;
  const usable = truth.sentences.filter((s) => {
    const words = s.text.split(" ").length;
    return words >= 6 && words <= 40 && /[a-z]{3}/u.test(s.text) && count(fold(s.text)) === 1;
  });
  const step = Math.max(1, Math.floor(usable.length / PER_DOCUMENT));
  const chosen = usable.filter((_, i) => i % step === 0).slice(0, PER_DOCUMENT);
  const vocabulary = [...new Set(whole.split(" ").filter((w) => /^[a-z]{4,}$/u.test(w)))];
  const result = { true: [], altered: [], wrong: [] };
  for (const s of chosen) {
    result.true.push({ text: s.text, ...(uniqueTitle(s.section) ? { section: s.section } : {}) });
    const words = s.text.split(" ");
    const at = words.findIndex((w, i) => i >= words.length / 3 && /^[A-Za-z]{4,}$/u.test(w));
    if (at >= 0 && vocabulary.length > 1) {
      let other = words[at];
      while (fold(other) === fold(words[at])) other = vocabulary[Math.floor(rand() * vocabulary.length)];
      const altered = [...words.slice(0, at), other, ...words.slice(at + 1)].join(" ");
      if (count(fold(altered)) === 0) result.altered.push({ text: altered });
    }
    const others = truth.headings.filter((h) => uniqueTitle(h.title) && !s.chain.includes(h.title));
    if (uniqueTitle(s.section) && others.length > 0)
      result.wrong.push({
        text: s.text,
        section: others[Math.floor(rand() * others.length)].title,
        actual: s.section,
      });
  }
  return result;
}

function add(file, producer, truth, seed) {
  documents.push({ file, producer, ...quotations(truth, seed) });
}

function attempt(name, build) {
  try {
    build();
  } catch (error) {
    skipped.push(`${name}: ${String(error.message).split("\n")[0]}`);
  }
}

// Generated text through pandoc's LaTeX reader.
attempt("latex", () => {
  const doc = generatedText(7001, 4, 2);
  const tex = join(work, "generated.tex");
  writeFileSync(tex, toLatex(doc));
  const truth = generatedTruth(doc);
  run("pandoc", ["-f", "latex", "-s", "-t", "jats", "-o", join(outDir, "latex-pandoc.nxml"), tex]);
  add("latex-pandoc.nxml", "pandoc from LaTeX to JATS", truth, 1);
  run("pandoc", ["-f", "latex", "-t", "epub3", "-o", join(outDir, "latex-pandoc.epub"), tex]);
  add("latex-pandoc.epub", "pandoc from LaTeX to EPUB 3", truth, 2);
});

// Generated text through LibreOffice's exports.
attempt("libreoffice", () => {
  const doc = generatedText(7002, 4, 2);
  const fodt = join(work, "generated.fodt");
  writeFileSync(fodt, toFodt(doc));
  const truth = generatedTruth(doc);
  for (const [format, name, what] of [
    ["docx:MS Word 2007 XML", "libreoffice.docx", "DOCX"],
    ["odt", "libreoffice.odt", "ODT"],
    ["epub", "libreoffice.epub", "EPUB"],
    ["html:XHTML Writer File:UTF8", "libreoffice.html", "XHTML"],
  ]) {
    soffice(fodt, format, name);
    add(name, `LibreOffice from a flat ODT to ${what}`, truth, name.length);
  }
});

if (!subset) {
  const DOC = "/usr/share/doc";
  const html = [
    "valgrind/html/FAQ.html",
    "valgrind/html/QuickStart.html",
    "valgrind/html/manual-core.html",
    "libffi8/html/Introduction.html",
    "libffi8/html/The-Basics.html",
    "base-passwd/users-and-groups.html",
    "nodejs/api/assert.html",
    "nodejs/api/events.html",
    "libxslt1-dev/html/intro.html",
  ];
  for (const page of html)
    attempt(page, () => {
      const path = join(DOC, page);
      const name = `doc-${page.replace(/\//gu, "-")}`;
      writeFileSync(join(outDir, name), readFileSync(path));
      add(name, "HTML manual in /usr/share/doc", pandocTruth(path, "html"), name.length);
    });
  // groff's html device is not in groff-base; pandoc's man reader sets them as HTML instead.
  for (const page of ["ls", "grep", "tar", "sed", "find", "gzip", "curl", "ssh"])
    attempt(`man ${page}`, () => {
      const source = join(work, `${page}.1`);
      writeFileSync(source, gunzipSync(readFileSync(`/usr/share/man/man1/${page}.1.gz`)));
      const name = `man-${page}.html`;
      run("pandoc", ["-f", "man", "-s", "-t", "html5", "-o", join(outDir, name), source]);
      add(name, "man page set as HTML by pandoc", pandocTruth(source, "man"), name.length);
    });
  const markdown = [
    ["pandoc/README.md.gz", "markdown"],
    ["zstd/README.md.gz", "gfm"],
    ["nodejs/api/assert.md", "gfm"],
    ["nodejs/api/events.md", "gfm"],
    ["python3-yaml/README.md", "gfm"],
  ];
  for (const [file, from] of markdown)
    attempt(file, () => {
      const bytes = readFileSync(join(DOC, file));
      const name = `md-${file.replace(/\.gz$/u, "").replace(/\//gu, "-")}`;
      writeFileSync(join(outDir, name), file.endsWith(".gz") ? gunzipSync(bytes) : bytes);
      add(name, "Markdown guide in /usr/share/doc", pandocTruth(join(outDir, name), from), name.length);
    });
  for (const license of ["GPL-3", "Apache-2.0", "MPL-2.0"])
    attempt(license, () => {
      const text = readFileSync(`/usr/share/common-licenses/${license}`, "utf8");
      const name = `license-${license}.txt`;
      writeFileSync(join(outDir, name), text);
      const sentences = text
        .split(/\n\s*\n/u)
        .map((p) => p.replace(/\s+/gu, " ").trim())
        .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z])/u))
        .map((s) => ({ text: s, section: "", chain: [] }));
      add(name, "license text", { sentences, headings: [] }, name.length);
    });
  const latex = [
    "lualatex/typewriter/typewriter-guide.tex",
    "luatex/lua-visual-debug/lvdebug-doc.tex",
    "latex/uhrzeit/uhrzeit-doc.tex",
    "luatex/luapackageloader/luapackageloader.tex",
  ];
  for (const file of latex)
    attempt(file, () => {
      const path = join(DOC, "texlive-doc", file);
      if (!existsSync(path)) throw new Error("not installed");
      const truth = pandocTruth(path, "latex");
      const stem = `tex-${basename(file, ".tex")}`;
      run("pandoc", ["-f", "latex", "-s", "-t", "jats", "-o", join(outDir, `${stem}.nxml`), path]);
      add(`${stem}.nxml`, "pandoc from a LaTeX manual to JATS", truth, stem.length);
      run("pandoc", ["-f", "latex", "-t", "epub3", "-o", join(outDir, `${stem}.epub`), path]);
      add(`${stem}.epub`, "pandoc from a LaTeX manual to EPUB 3", truth, stem.length + 1);
    });
}

rmSync(work, { recursive: true, force: true });
writeFileSync(join(outDir, "truth.json"), `${JSON.stringify({ documents }, null, 1)}\n`);
if (subset) writeSha256Sums(outDir, (f) => f === "truth.json" || documents.some((d) => d.file === f));
for (const line of skipped) console.error(`skipped ${line}`);
console.log(`${documents.length} documents in ${outDir}`);
