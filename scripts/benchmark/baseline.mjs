#!/usr/bin/env node
// The plain baseline of the equation-number and figure benchmark (docs/benchmark.md): what a regular
// expression over `pdftotext` output decides, scored on the same gold cases as citeproof's corpus runner.
// An equation label counts as printed when "(L)" stands anywhere in the document's text (with a page
// named by a generated gold's truth, on one of those pages); a figure label when a line opens with
// "Figure L", "Fig. L" or "FIG. L" followed by a period, a colon or a space.
// Usage: node scripts/benchmark/baseline.mjs [DIR...] [--groups]   (default DIR: ../shared/corpus)
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const args = process.argv.slice(2);
const byGroup = args.includes("--groups");
const dirs = args.filter((a) => !a.startsWith("--"));
if (dirs.length === 0) dirs.push(join(root, "..", "shared", "corpus"));

const CATEGORIES = ["eq-true", "eq-false", "fig-true", "fig-true-beyond", "fig-false"];

function escaped(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The document's text per page (pdftotext separates pages with a form feed). */
function pagesOf(pdf) {
  const text = execFileSync("pdftotext", ["-q", "-enc", "UTF-8", pdf, "-"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  return text.split("\f");
}

function equationPrinted(pages, label, onPages) {
  const re = new RegExp(`\\(\\s*${escaped(label)}\\s*\\)`);
  const where = onPages ?? pages.map((_, i) => i + 1);
  return where.some((p) => re.test(pages[p - 1] ?? ""));
}

function figurePrinted(pages, label, onPages) {
  const re = new RegExp(`^\\s*(?:Figure|FIGURE|Fig\\.?|FIG\\.?)\\s*${escaped(label)}(?:[.:]|\\s)`, "m");
  const where = onPages ?? pages.map((_, i) => i + 1);
  return where.some((p) => re.test(pages[p - 1] ?? ""));
}

// The shared corpus's errata (gold cases the PDF contradicts), applied as the corpus runner applies
// them, so both tools are scored on the same truth.
const errata = JSON.parse(readFileSync(join(root, "scripts", "corpus-errata.json"), "utf8")).errata;
function applyErrata(name, gold) {
  for (const e of errata.filter((x) => x.gold === name)) {
    const c = gold.cases.find((x) => x.id === e.case);
    if (gold.pdf?.sha256 !== e.sha256 || !c || c.category !== e.was.category) continue;
    if (c.expect?.verdict !== e.was.verdict) continue;
    c.category = e.now.category;
    c.expect = { verdict: e.now.verdict, ...(e.now.pages ? { pages: e.now.pages } : {}) };
  }
}

const tally = new Map();
const count = (key, category, right) => {
  const row = tally.get(key) ?? Object.fromEntries(CATEGORIES.map((c) => [c, [0, 0]]));
  row[category][0] += right ? 1 : 0;
  row[category][1] += 1;
  tally.set(key, row);
};

for (const dir of dirs) {
  if (!existsSync(dir)) {
    console.error(`baseline: ${dir} does not exist`);
    process.exit(2);
  }
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".gold.json"))) {
    const gold = JSON.parse(readFileSync(join(dir, file), "utf8"));
    applyErrata(file.replace(/\.gold\.json$/, ""), gold);
    const pdf = join(dir, gold.pdf?.file ?? file.replace(/\.gold\.json$/, ".pdf"));
    if (!existsSync(pdf)) continue;
    let pages;
    try {
      pages = pagesOf(pdf);
    } catch {
      continue;
    }
    for (const c of gold.cases ?? []) {
      if (!CATEGORIES.includes(c.category)) continue;
      const label = c.evidence?.label;
      if (typeof label !== "string") continue;
      const truth = c.expect?.verdict === "PASS";
      const printed =
        c.evidence.kind === "equation"
          ? equationPrinted(pages, label, c.expect?.pages)
          : figurePrinted(pages, label, c.expect?.pages);
      count("all", c.category, printed === truth);
      const group = c.group ?? gold.group;
      if (byGroup && group) count(group, c.category, printed === truth);
    }
  }
}

const cell = ([right, total]) => (total === 0 ? "-" : `${right}/${total}`);
const width = 28;
console.log(["group".padEnd(width), ...CATEGORIES.map((c) => c.padStart(16))].join(""));
for (const [key, row] of [...tally].sort(([a], [b]) =>
  a === "all" ? -1 : b === "all" ? 1 : a < b ? -1 : 1,
)) {
  console.log([key.padEnd(width), ...CATEGORIES.map((c) => cell(row[c]).padStart(16))].join(""));
}
