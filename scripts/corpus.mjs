#!/usr/bin/env node
// Runs the gold cases of a corpus folder (default ../shared/corpus) through the CLI, exactly as a
// user would call it, and prints per-category accuracy, per-PDF figures for the anchor categories and every
// miss. Exit 1 when a category falls below its threshold.
//
// A category of a PDF listed in scripts/corpus-ratchet.json is gated by a ratchet instead of the threshold:
// the number of its cases right may never fall below the floor recorded there (the best figure landed so
// far). `--raise-ratchet` raises the floors to this run's figures (never lowers them). A category leaves the
// ratchet file once the PDF meets its full threshold; every category not listed is held to the threshold.
// `--groups` also reports the anchor categories per document group (a gold's `group`, as the generated
// corpus writes it). A generated gold's true labels carry `expect.pages`: a PASS must name one of them.
// `--misses` also renders, for every equation or figure miss whose place on a page is known (the
// label seen, or the page a generated gold names), the strip of that page around it to a PNG under
// corpus-misses/ and prints its path beside the miss.
// scripts/corpus-errata.json lists gold cases the PDF itself contradicts (what the page prints, how to look):
// each is applied only to the PDF of the recorded sha256 while the gold still says what the erratum says it
// does, and every one applied is listed in the output.
// `--acceptance` also holds every document group (a gold's `group`) to the acceptance for anchors on
// their own: true equation and figure labels PASS >= 99%, false equation labels PASS <= 0.5%, no false
// figure label PASSes; a group below it fails the run (the generated corpus is judged so).
// Several DIRs (seeds of the generated corpus) are run as one corpus: each PDF named by its folder too,
// each group's figures added up over them.
// Usage: node scripts/corpus.mjs [DIR...] [--raise-ratchet] [--groups] [--acceptance] [--misses]
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const cli = join(root, "dist", "cli", "main.cjs");
const args = process.argv.slice(2);
const raiseRatchet = args.includes("--raise-ratchet");
const byGroup = args.includes("--groups");
const renderMisses = args.includes("--misses");
const perGroupAcceptance = args.includes("--acceptance");
const missesDir = join(root, "corpus-misses");
const positional = args.filter((a) => !a.startsWith("--"));
const dirs = (positional.length > 0 ? positional : [join(root, "..", "shared", "corpus")]).map((d) =>
  resolve(d),
);
const ratchetFile = join(root, "scripts", "corpus-ratchet.json");
const ratchet = existsSync(ratchetFile) ? JSON.parse(readFileSync(ratchetFile, "utf8")) : { floors: {} };
const errata = JSON.parse(readFileSync(join(root, "scripts", "corpus-errata.json"), "utf8")).errata;
const erratumLines = [];
const absent = dirs.filter((d) => !existsSync(d));
if (absent.length > 0) {
  console.log(`corpus: ${absent.join(", ")} does not exist; nothing to run`);
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
  "break-true": 0.99,
  "break-hint": 0.99,
  "break-altered": 1,
  "hint-wrong-page": 1,
  "hint-digit": 1,
  "page-true": 1,
  "page-missing": 1,
  "eq-true": 0.99,
  "eq-true-ocr-beyond": 0.99,
  "eq-false": 0.995,
  "fig-true": 0.99,
  "fig-true-beyond": 0.99,
  "fig-false": 1,
  "cc-exact": 1,
  "cc-outside": 1,
  "cc-partial": 1,
  "cc-case": 1,
  "cc-normalized": 1,
  "cc-image-only": 1,
};

// Share of cases right that each document group must reach under --acceptance.
const ACCEPTANCE = { "eq-true": 0.99, "eq-false": 0.995, "fig-true": 0.99, "fig-false": 1 };

const work = mkdtempSync(join(tmpdir(), "citeproof-corpus-"));
const cacheDir = join(work, "cache");
/** Per category, for the PDFs gated by the thresholds. */
const tally = new Map();
/** Per PDF, per category, for every PDF. */
const perPdf = new Map();
/** Per document group, per category. */
const perGroup = new Map();
const misses = [];
const unsupported = new Map();

function ratchetedCategory(name, category) {
  return ratchet.floors[name]?.[category] !== undefined;
}

function bump(map, category, ok) {
  const t = map.get(category) ?? { ok: 0, total: 0 };
  t.total++;
  if (ok) t.ok++;
  map.set(category, t);
}

function record(name, category, ok, line, group = name, place = undefined) {
  if (!ratchetedCategory(name, category)) bump(tally, category, ok);
  if (!perPdf.has(name)) perPdf.set(name, new Map());
  bump(perPdf.get(name), category, ok);
  if (!perGroup.has(group)) perGroup.set(group, new Map());
  bump(perGroup.get(group), category, ok);
  if (!ok) misses.push({ line, place });
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

/**
 * A scan's equation labels are read with OCR: the PDFs whose gold holds labels printed only in the
 * page image (`eq-true-ocr-beyond`), or declares `"ocr"` (a generated scan), run all their equation
 * cases, the false ones too, with `--ocr` and a deadline OCR of every scanned page fits in.
 */
function equationOcr(gold) {
  const mode = gold.ocr ?? (gold.cases.some((c) => c.category === "eq-true-ocr-beyond") ? "auto" : undefined);
  return mode ? ["--ocr", mode, "--timeout-ms", "900000"] : [];
}

/** The brief defines a page pointer's best verdict as FLAG (the page exists); the gold writes PASS. */
function expectedVerdict(c) {
  if (c.evidence?.kind === "page" && c.expect.verdict === "PASS") return "FLAG";
  return c.expect.verdict;
}

function checkVerify(pdf, name, cases, group = name, extra = []) {
  if (cases.length === 0) return;
  const file = join(work, `${fileName(name)}-${cases[0].evidence.kind}.json`);
  writeFileSync(file, JSON.stringify(cases.map((c) => ({ id: c.id, ...c.evidence }))));
  const { status, json, stderr } = runCli(["verify", pdf, "--evidence", file, ...extra]);
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
    if (ok && c.expect.pages) {
      const pages = r.evidence?.pages ?? [];
      ok = pages.some((p) => c.expect.pages.includes(p));
      note = ` (found on pages ${pages.join(", ")}, printed on ${c.expect.pages.join(", ")})`;
    }
    record(
      name,
      c.category,
      ok,
      `${name} ${c.id} [${c.category}] ${JSON.stringify(c.evidence)} expected ${want}${c.expect.reason ? `/${c.expect.reason}` : ""}, got ${r.verdict}/${r.reason}: ${r.message}${note}`,
      group,
      { pdf, id: `${name}-${c.id}`, ...placeOf(r, c) },
    );
    checkHint(name, c, r);
  });
}

/** Where on a page a result points (a label seen or accepted), else the page a generated gold names. */
function placeOf(r, c) {
  const ev = r.evidence ?? {};
  for (const list of [ev.places, ev.sightings, ev.rejected, ev.candidates])
    if (Array.isArray(list))
      for (const p of list) if (p?.page && p.labelBox) return { page: p.page, box: p.labelBox };
  if (c.expect?.pages?.length) return { page: c.expect.pages[0] };
  return {};
}

/** Renders the strip of the page around a miss (or the whole page when only the page is known). */
function renderStrip(m) {
  const { pdf, id, page, box } = m.place ?? {};
  if (!page) return undefined;
  const out = join(missesDir, `${id.replace(/[^\w.-]+/g, "_")}.png`);
  const region = box ? ["--box", `0,${box.bottom - 60},100000,${box.top + 60}`] : [];
  const args = [cli, "crop", pdf, "--page", String(page), ...region, "--out", out, "--dpi", "100"];
  const run = spawnSync(process.execPath, [...args, "--cache-dir", cacheDir], { encoding: "utf8" });
  return run.status === 0 ? out : undefined;
}

/**
 * The repair hint of a FAIL: a wrong-page case's hint names a page the words are on (and the message
 * says it); a changed-digit case's hint names a difference whose two sides are digits that differ.
 */
function checkHint(name, c, r) {
  const hint = r.evidence?.hint;
  const line = (what) => `${name} ${c.id} [${c.category}] hint ${what}: ${r.message}`;
  if (c.category === "quote-wrong-page") {
    const named = hint?.page;
    const ok = (r.evidence?.foundOnPages ?? []).includes(named) && r.message.includes(`page ${named}`);
    record(name, "hint-wrong-page", ok, line(`names page ${named}`));
  } else if (c.category === "quote-digit") {
    const digit = (hint?.differences ?? []).find(
      (d) => /\d/.test(d.page) && /\d/.test(d.quotation) && d.page !== d.quotation,
    );
    record(
      name,
      "hint-digit",
      digit !== undefined && r.message.includes(`\`${digit.page}\``),
      line("names no digit"),
    );
  }
}

/** A PDF's name as a file name (a name of several folders' run holds a slash). */
const fileName = (name) => name.replace(/[^\w.-]+/g, "_");

function checkCite(pdf, name, cases) {
  const byNorm = new Map();
  for (const c of cases) {
    const n = c.options?.normalization ?? "none";
    byNorm.set(n, [...(byNorm.get(n) ?? []), c]);
  }
  for (const [normalization, group] of byNorm) {
    const file = join(work, `${fileName(name)}-cc-${normalization}.json`);
    writeFileSync(file, JSON.stringify(group.map((c) => ({ id: c.id, ...c.citation }))));
    const { status, json, stderr } = runCli([
      "cite-check",
      pdf,
      "--citations",
      file,
      "--normalization",
      normalization,
      "--allow-root",
      dirname(pdf),
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
        name,
        c.category,
        r.verdict === c.expect.verdict,
        `${name} ${c.id} [${c.category}] expected ${c.expect.verdict}, got ${r.verdict}/${r.reason}`,
      );
    });
  }
}

/** Applies the errata of this gold, when its PDF is the one they were read from and the gold is unchanged. */
function applyErrata(name, gold) {
  for (const e of errata.filter((x) => x.gold === name)) {
    const c = gold.cases.find((x) => x.id === e.case);
    const applies =
      gold.pdf.sha256 === e.sha256 &&
      c !== undefined &&
      c.category === e.was.category &&
      c.expect.verdict === e.was.verdict;
    if (!applies) {
      erratumLines.push(
        `  ${name} ${e.case}: not applied (the PDF or the gold is no longer the one it was read from)`,
      );
      continue;
    }
    c.category = e.now.category;
    c.expect = { verdict: e.now.verdict, ...(e.now.pages ? { pages: e.now.pages } : {}) };
    erratumLines.push(
      `  ${name} ${e.case}: gold ${e.was.category} ${e.was.verdict}, counted ${e.now.category} ${e.now.verdict}: ${e.why}`,
    );
  }
}

/**
 * The gold files of every folder, in order. With several folders (seeds of the generated corpus), a
 * PDF's name is its folder's name and its own, so the same file of two seeds stays two PDFs; groups
 * with the same name add up over the folders.
 */
function goldFiles() {
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".gold.json"))
      .sort()
      .map((goldFile) => {
        const own = goldFile.replace(/\.gold\.json$/, "");
        return { dir, goldFile, name: dirs.length > 1 ? `${basename(dir)}/${own}` : own };
      }),
  );
}

const started = Date.now();
for (const { dir, goldFile, name } of goldFiles()) {
  const gold = JSON.parse(readFileSync(join(dir, goldFile), "utf8"));
  const pdf = join(dir, gold.pdf.file);
  applyErrata(name, gold);
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
    gold.group,
    equationOcr(gold),
  );
  checkVerify(
    pdf,
    name,
    verifyCases.filter((c) => c.evidence.kind === "figure"),
    gold.group,
  );
  checkCite(
    pdf,
    name,
    gold.cases.filter((c) => c.tool === "cite-check"),
  );
}

let failed = false;
const pct = (t) => `${((t.ok / t.total) * 100).toFixed(1).padStart(5)}%`;
console.log(`corpus: ${dirs.join(", ")}`);
if (erratumLines.length > 0) {
  console.log("gold errata (scripts/corpus-errata.json)");
  for (const line of erratumLines) console.log(line);
}
console.log("PDFs gated by the thresholds");
console.log("category                   right/total   share   threshold");
for (const category of Object.keys(THRESHOLDS)) {
  const t = tally.get(category);
  if (!t) continue;
  const below = t.ok / t.total < THRESHOLDS[category];
  if (below) failed = true;
  console.log(
    `${category.padEnd(26)} ${`${t.ok}/${t.total}`.padStart(11)}   ${pct(t)}  >= ${+(THRESHOLDS[category] * 100).toFixed(1)}%${below ? "  BELOW" : ""}`,
  );
}
for (const [category, u] of unsupported)
  console.log(`${category.padEnd(26)} not run (${u.count} cases): ${u.why}`);

const ratcheted = Object.keys(ratchet.floors).filter((name) => perPdf.has(name));
if (ratcheted.length > 0) {
  console.log(
    `\nCategories gated by the ratchet (of ${ratcheted.length} PDF(s); floors in scripts/corpus-ratchet.json)`,
  );
  console.log("pdf                        category                   right/total   floor");
  for (const name of ratcheted)
    for (const [category, floor] of Object.entries(ratchet.floors[name])) {
      const t = perPdf.get(name).get(category) ?? { ok: 0, total: 0 };
      const below = t.ok < floor;
      if (below) failed = true;
      console.log(
        `${name.padEnd(26)} ${category.padEnd(26)} ${`${t.ok}/${t.total}`.padStart(11)}   >= ${floor}${below ? "  RATCHET: below the floor" : ""}`,
      );
    }
}

const anchorCategories = Object.keys(THRESHOLDS).filter((c) => /^(eq|fig)-/.test(c));
function anchorTable(what, table, mark) {
  const width = Math.max(26, ...[...table.keys()].map((k) => k.length + 1));
  console.log(`\nanchors per ${what} (right/total)`);
  console.log(`${what.padEnd(width)} ${anchorCategories.map((c) => c.padStart(19)).join("")}`);
  for (const [name, cats] of [...table].sort(([a], [b]) => a.localeCompare(b))) {
    const cells = anchorCategories.map((c) => {
      const t = cats.get(c);
      return (t ? `${t.ok}/${t.total}` : "-").padStart(19);
    });
    console.log(`${name.padEnd(width)} ${cells.join("")}${mark(name)}`);
  }
}
anchorTable("pdf", perPdf, (name) => (name in ratchet.floors ? "  (ratchet: some categories)" : ""));
if (byGroup) anchorTable("group", perGroup, () => "");
if (perGroupAcceptance) {
  let below = 0;
  for (const [group, cats] of [...perGroup].sort(([a], [b]) => a.localeCompare(b)))
    for (const [category, share] of Object.entries(ACCEPTANCE)) {
      const t = cats.get(category);
      if (!t || t.ok / t.total >= share) continue;
      below++;
      console.log(`ACCEPTANCE  ${group} ${category}: ${t.ok}/${t.total}, below ${(share * 100).toFixed(1)}%`);
    }
  if (below > 0) failed = true;
  else console.log(`\nacceptance: every group meets it (${perGroup.size} groups)`);
}

if (raiseRatchet) {
  let raised = 0;
  for (const name of Object.keys(ratchet.floors)) {
    const cats = perPdf.get(name);
    if (!cats) continue;
    for (const [category, t] of cats) {
      if (!ratchetedCategory(name, category)) continue;
      if (t.ok > ratchet.floors[name][category]) {
        ratchet.floors[name][category] = t.ok;
        raised++;
      }
    }
  }
  const tmp = `${ratchetFile}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(ratchet, null, 2)}\n`);
  renameSync(tmp, ratchetFile);
  console.log(`\nratchet: ${raised} floor(s) raised in scripts/corpus-ratchet.json`);
}
if (misses.length > 0) {
  console.log(`\nmisses (${misses.length}):`);
  if (renderMisses) mkdirSync(missesDir, { recursive: true });
  for (const m of misses) {
    const png = renderMisses && m.place ? renderStrip(m) : undefined;
    console.log(`  ${m.line}${png ? `\n    strip: ${png}` : ""}`);
  }
}
console.log(`\ncorpus run took ${((Date.now() - started) / 1000).toFixed(1)} s`);
rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
