#!/usr/bin/env node
// Builds the generated ground-truth corpus: every generator module in this folder (a file named
// *.gen.mjs) describes seeded documents; this runs them, builds each PDF (LaTeX engines, LibreOffice)
// once into a cache keyed by its source, and writes PDF + NAME.gold.json pairs in the format of the
// shared corpus, so scripts/corpus.mjs scores them like any other corpus folder.
//
// Usage: npm run corpus:generate [-- --seed N] [--ci] [--only equations,captions] [--classes beamer,article]
//                                 [--out DIR]
//   --ci       only the fixed sample the modules mark for CI (doc.ci), into .corpus-gen/ci
//   --classes  only the documents whose group starts with one of these names before its "/"
//              (a document class, an office route); other groups' earlier output stays
//
// A generator module exports
//   name: string                       prefix of its documents' file names
//   documents({ rng, seed }): Doc[]    rng is a seeded source (lib/random.mjs)
// where a Doc is one of
//   { id, group, ci?, engine, tex, extraFalse?(trueLabels), scan?, ocr? }  LaTeX: truth from the .aux marks
//   { id, group, ci?, office: { fodt, via: "odt" | "docx" }, pages, cases }   Office: truth from the template
// `group` is what the score is reported by (a document class and engine, an office route). LaTeX
// templates mark labels with \gttrue / \gtfalse (lib/latex.mjs); `extraFalse` receives the true
// labels by kind and returns more false ones ({ kind, label, note }). Office `cases` are
// { kind, label, truth, page, note }. Kinds are "equation" and "figure". A LaTeX document with
// `scan: { dpi, layer }` is turned into a scan of itself once built (lib/scan.mjs: page images, with no
// text layer or an invisible OCR one); `ocr: "auto"` goes into its gold, for the runner's `verify --ocr`.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { auxTruth, buildLatex, GROUND_TRUTH_MACROS, hasEngine, pageCount } from "./lib/latex.mjs";
import { buildOffice, hasSoffice } from "./lib/office.mjs";
import { hashString, random } from "./lib/random.mjs";
import { scanPdf, scanTools } from "./lib/scan.mjs";

/** Bump when the build or the truth it records changes, so cached documents are rebuilt. */
const BUILD_VERSION = 2;
const CATEGORIES = {
  equation: { true: "eq-true", false: "eq-false" },
  figure: { true: "fig-true", false: "fig-false" },
};

const here = fileURLToPath(new URL(".", import.meta.url));
const root = resolve(here, "..", "..");
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const ci = args.includes("--ci");
const seed = Number(option("--seed") ?? 11);
const only = option("--only")?.split(",");
const classes = option("--classes")?.split(",");
const wanted = (group) => !classes || classes.includes(group.split("/")[0]);
const out = resolve(option("--out") ?? join(root, ".corpus-gen", ci ? "ci" : "corpus"));
const cacheDir = join(root, ".corpus-gen", "cache");
mkdirSync(cacheDir, { recursive: true });
mkdirSync(out, { recursive: true });

const modules = readdirSync(here)
  .filter((f) => f.endsWith(".gen.mjs"))
  .sort();
const engines = new Map();
const engineAvailable = (e) => {
  if (!engines.has(e)) engines.set(e, hasEngine(e));
  return engines.get(e);
};
const soffice = hasSoffice();
const summary = { seed, ci, documents: 0, cached: 0, skipped: [], failed: [] };
const started = Date.now();

for (const file of modules) {
  const mod = await import(pathToFileURL(join(here, file)).href);
  if (only && !only.includes(mod.name)) continue;
  // This module's earlier output goes; other modules' stays (a run with --only rebuilds one module).
  for (const f of readdirSync(out).filter((f) => f.endsWith(".gold.json"))) {
    const gold = JSON.parse(readFileSync(join(out, f), "utf8"));
    if (gold.generator !== mod.name || !wanted(gold.group)) continue;
    rmSync(join(out, f));
    rmSync(join(out, gold.pdf.file), { force: true });
  }
  const docs = mod.documents({ rng: random(hashString(`${seed}:${mod.name}`)), seed });
  for (const doc of docs) {
    if ((ci && !doc.ci) || !wanted(doc.group)) continue;
    const name = `${mod.name}-${doc.id}`;
    if (doc.engine && !engineAvailable(doc.engine)) {
      summary.skipped.push(`${name}: ${doc.engine} not installed`);
      continue;
    }
    if (doc.scan && !scanTools(doc.scan.layer)) {
      summary.skipped.push(`${name}: the tools of a scan (pdftoppm, tesseract, qpdf) are not installed`);
      continue;
    }
    if (doc.office && !soffice) {
      summary.skipped.push(`${name}: soffice not installed`);
      continue;
    }
    let built;
    try {
      built = cachedBuild(doc);
    } catch (error) {
      summary.failed.push(`${name}: ${error.message}`);
      continue;
    }
    const cases = doc.office ? officeCases(doc) : latexCases(doc, built.truth);
    if (cases.length === 0) {
      summary.skipped.push(`${name}: no cases`);
      continue;
    }
    const pdfFile = join(out, `${name}.pdf`);
    writeFileSync(pdfFile, built.pdf);
    if (doc.office && pagesMismatch(doc, pdfFile)) {
      summary.failed.push(`${name}: the PDF does not have the ${doc.pages} pages its template laid out`);
      continue;
    }
    const gold = {
      pdf: { file: `${name}.pdf`, sha256: createHash("sha256").update(built.pdf).digest("hex") },
      pages: pageCount(pdfFile),
      kind: doc.group,
      group: doc.group,
      generator: mod.name,
      seed,
      ...(doc.ocr ? { ocr: doc.ocr } : {}),
      cases,
    };
    writeFileSync(join(out, `${name}.gold.json`), `${JSON.stringify(gold, null, 1)}\n`);
    summary.documents++;
  }
}

console.log(
  `corpus-gen: ${summary.documents} documents in ${out} (${summary.cached} from the cache) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
for (const s of summary.skipped) console.log(`  skipped ${s}`);
for (const f of summary.failed) console.log(`  FAILED ${f}`);
process.exit(summary.failed.length > 0 ? 1 : 0);

function cachedBuild(doc) {
  const source = doc.office
    ? { office: doc.office }
    : { engine: doc.engine, tex: injectMacros(doc.tex), ...(doc.scan ? { scan: doc.scan } : {}) };
  const key = createHash("sha256")
    .update(JSON.stringify({ BUILD_VERSION, ...source }))
    .digest("hex")
    .slice(0, 32);
  const pdfFile = join(cacheDir, `${key}.pdf`);
  const metaFile = join(cacheDir, `${key}.json`);
  if (existsSync(pdfFile) && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, "utf8"));
    const pdf = readFileSync(pdfFile);
    if (createHash("sha256").update(pdf).digest("hex") === meta.sha256) {
      summary.cached++;
      return { pdf, truth: meta.truth };
    }
  }
  let pdf;
  let truth;
  if (doc.office) {
    pdf = buildOffice(doc.office.fodt, doc.office.via);
  } else {
    const built = buildLatex(doc.engine, source.tex);
    pdf = doc.scan ? scanPdf(built.pdf, doc.scan) : built.pdf;
    truth = auxTruth(built.aux);
  }
  // Written to temporary names and renamed, so a cache entry is whole or absent.
  writeFileSync(`${pdfFile}.tmp`, pdf);
  writeFileSync(
    `${metaFile}.tmp`,
    JSON.stringify({ sha256: createHash("sha256").update(pdf).digest("hex"), truth }),
  );
  renameSync(`${pdfFile}.tmp`, pdfFile);
  renameSync(`${metaFile}.tmp`, metaFile);
  return { pdf, truth };
}

/** An Office template knows its pages only while every section fits on one page. */
function pagesMismatch(doc, pdfFile) {
  const pages = pageCount(pdfFile);
  return pages !== undefined && pages !== doc.pages;
}

function injectMacros(tex) {
  return tex.replace(/\\begin\{document\}/, `${GROUND_TRUTH_MACROS}\\begin{document}`);
}

function latexCases(doc, truth) {
  const trueLabels = {};
  const pagesOf = new Map();
  for (const t of truth.truths) {
    if (t.label === undefined || t.label === "") continue;
    const key = `${t.kind}\u0000${t.label}`;
    pagesOf.set(key, [...new Set([...(pagesOf.get(key) ?? []), t.page])]);
    trueLabels[t.kind] ??= new Set();
    trueLabels[t.kind].add(t.label);
  }
  const cases = [];
  for (const [key, pages] of pagesOf) {
    const [kind, label] = key.split("\u0000");
    cases.push(trueCase(kind, label, pages));
  }
  const falses = [
    ...truth.traps.map((t) => ({ ...t, note: `trap on page ${t.page}` })),
    ...(doc.extraFalse?.(trueLabels) ?? []),
  ];
  const seen = new Set();
  for (const f of falses) {
    const key = `${f.kind}\u0000${f.label}`;
    if (trueLabels[f.kind]?.has(f.label) || seen.has(key)) continue;
    seen.add(key);
    cases.push(falseCase(f.kind, f.label, f.note));
  }
  return number(cases);
}

function officeCases(doc) {
  const trueOnes = new Set(doc.cases.filter((c) => c.truth).map((c) => `${c.kind}\u0000${c.label}`));
  const cases = [];
  const seen = new Set();
  for (const c of doc.cases) {
    const key = `${c.kind}\u0000${c.label}`;
    if (seen.has(key) || (!c.truth && trueOnes.has(key))) continue;
    seen.add(key);
    if (c.truth) {
      const pages = doc.cases
        .filter((o) => o.truth && `${o.kind}\u0000${o.label}` === key)
        .map((o) => o.page);
      cases.push(trueCase(c.kind, c.label, [...new Set(pages)]));
    } else cases.push(falseCase(c.kind, c.label, c.note));
  }
  return number(cases);
}

function trueCase(kind, label, pages) {
  return {
    category: CATEGORIES[kind].true,
    tool: "verify",
    evidence: { kind, label },
    expect: { verdict: "PASS", pages },
  };
}

function falseCase(kind, label, note) {
  return {
    category: CATEGORIES[kind].false,
    tool: "verify",
    evidence: { kind, label },
    expect: { verdict: "FAIL" },
    ...(note ? { note } : {}),
  };
}

function number(cases) {
  const counts = {};
  return cases.map((c) => {
    counts[c.category] = (counts[c.category] ?? 0) + 1;
    return { id: `${c.category}-${String(counts[c.category]).padStart(3, "0")}`, ...c };
  });
}
