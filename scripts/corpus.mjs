#!/usr/bin/env node
// Runs the gold cases of a corpus folder (default ../shared/corpus) through the CLI, exactly as a
// user would call it, and prints per-category accuracy and every miss. Exit 1 when a category falls
// below its threshold.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const cli = join(root, "dist", "cli", "main.js");
const dir = resolve(process.argv[2] ?? join(root, "..", "shared", "corpus"));
if (!existsSync(dir)) {
  console.log(`corpus: ${dir} does not exist; nothing to run`);
  process.exit(0);
}

// Minimum share of cases that must come out as expected, per category.
const THRESHOLDS = {
  "quote-true": 0.99,
  "quote-true-linebreak": 0.99,
  "quote-hyphenated-beyond": 0.99,
  "quote-digit": 1,
  "quote-word": 1,
  "quote-dropped": 1,
  "quote-wrong-page": 1,
  "quote-short": 1,
  "page-true": 1,
  "page-missing": 1,
  "eq-true": 0.98,
  "eq-false": 0.99,
  "fig-true": 0.98,
  "fig-true-beyond": 0.98,
  "fig-false": 1,
  "cc-exact": 1,
  "cc-outside": 1,
  "cc-partial": 1,
  "cc-case": 1,
  "cc-normalized": 1,
  "cc-image-only": 1,
};

const work = mkdtempSync(join(tmpdir(), "citeproof-corpus-"));
const cacheDir = join(work, "cache");
const tally = new Map();
const misses = [];
const unsupported = new Map();

function record(category, ok, line) {
  const t = tally.get(category) ?? { ok: 0, total: 0 };
  t.total++;
  if (ok) t.ok++;
  else misses.push(line);
  tally.set(category, t);
}

function runCli(args) {
  const out = spawnSync(process.execPath, [cli, ...args, "--json", "--cache-dir", cacheDir], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  let json;
  try {
    json = JSON.parse(out.stdout);
  } catch {
    json = undefined;
  }
  return { status: out.status, json, stderr: out.stderr };
}

/** The brief defines a page pointer's best verdict as FLAG (the page exists); the gold writes PASS. */
function expectedVerdict(c) {
  if (c.evidence?.kind === "page" && c.expect.verdict === "PASS") return "FLAG";
  return c.expect.verdict;
}

function checkVerify(pdf, name, cases) {
  if (cases.length === 0) return;
  const file = join(work, `${name}-${cases[0].evidence.kind}.json`);
  writeFileSync(file, JSON.stringify(cases.map((c) => ({ id: c.id, ...c.evidence }))));
  const { status, json, stderr } = runCli(["verify", pdf, "--evidence", file]);
  if (!json?.results) {
    const code = json?.error?.code ?? `exit ${status}`;
    for (const c of cases) {
      const u = unsupported.get(c.category) ?? {
        count: 0,
        why: `${code}: ${json?.error?.message ?? stderr.trim()}`,
      };
      u.count++;
      unsupported.set(c.category, u);
    }
    return;
  }
  cases.forEach((c, i) => {
    const r = json.results[i];
    const want = expectedVerdict(c);
    let ok = r.verdict === want && (!c.expect.reason || r.reason === c.expect.reason);
    let note = "";
    if (ok && c.expect.reason === "wrong-page") {
      const pages = r.evidence?.foundOnPages ?? [];
      ok = pages.length > 0 && !pages.includes(c.evidence.page);
      note = ` (named pages ${pages.join(", ")})`;
    }
    record(
      c.category,
      ok,
      `${name} ${c.id} [${c.category}] ${JSON.stringify(c.evidence)} expected ${want}${c.expect.reason ? `/${c.expect.reason}` : ""}, got ${r.verdict}/${r.reason}: ${r.message}${note}`,
    );
  });
}

function checkCite(pdf, name, cases) {
  const byNorm = new Map();
  for (const c of cases) {
    const n = c.options?.normalization ?? "none";
    byNorm.set(n, [...(byNorm.get(n) ?? []), c]);
  }
  for (const [normalization, group] of byNorm) {
    const file = join(work, `${name}-cc-${normalization}.json`);
    writeFileSync(file, JSON.stringify(group.map((c) => ({ id: c.id, ...c.citation }))));
    const { status, json, stderr } = runCli([
      "cite-check",
      pdf,
      "--citations",
      file,
      "--normalization",
      normalization,
      "--allow-root",
      dir,
    ]);
    if (!json?.results) {
      for (const c of group) {
        const why = `${json?.error?.code ?? `exit ${status}`}: ${json?.error?.message ?? stderr.trim().split("\n")[0]}`;
        const u = unsupported.get(c.category) ?? { count: 0, why };
        u.count++;
        unsupported.set(c.category, u);
      }
      continue;
    }
    group.forEach((c, i) => {
      const r = json.results[i];
      record(
        c.category,
        r.verdict === c.expect.verdict,
        `${name} ${c.id} [${c.category}] expected ${c.expect.verdict}, got ${r.verdict}/${r.reason}`,
      );
    });
  }
}

const started = Date.now();
for (const goldFile of readdirSync(dir)
  .filter((f) => f.endsWith(".gold.json"))
  .sort()) {
  const gold = JSON.parse(readFileSync(join(dir, goldFile), "utf8"));
  const pdf = join(dir, gold.pdf.file);
  const name = goldFile.replace(/\.gold\.json$/, "");
  const verifyCases = gold.cases.filter((c) => c.tool === "verify");
  checkVerify(
    pdf,
    name,
    verifyCases.filter((c) => c.evidence.kind === "quotation" || c.evidence.kind === "page"),
  );
  checkVerify(
    pdf,
    name,
    verifyCases.filter((c) => c.evidence.kind === "equation"),
  );
  checkVerify(
    pdf,
    name,
    verifyCases.filter((c) => c.evidence.kind === "figure"),
  );
  checkCite(
    pdf,
    name,
    gold.cases.filter((c) => c.tool === "cite-check"),
  );
}

let failed = false;
console.log(`corpus: ${dir}`);
console.log("category                   right/total   share   threshold");
for (const category of Object.keys(THRESHOLDS)) {
  const t = tally.get(category);
  if (!t) continue;
  const share = t.ok / t.total;
  const below = share < THRESHOLDS[category];
  if (below) failed = true;
  console.log(
    `${category.padEnd(26)} ${`${t.ok}/${t.total}`.padStart(11)}   ${(share * 100).toFixed(1).padStart(5)}%  >= ${(THRESHOLDS[category] * 100).toFixed(0)}%${below ? "  BELOW" : ""}`,
  );
}
for (const [category, u] of unsupported)
  console.log(`${category.padEnd(26)} not run (${u.count} cases): ${u.why}`);
if (misses.length > 0) {
  console.log(`\nmisses (${misses.length}):`);
  for (const m of misses) console.log(`  ${m}`);
}
console.log(`\ncorpus run took ${((Date.now() - started) / 1000).toFixed(1)} s`);
rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
