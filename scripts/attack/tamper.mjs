// Store tampering by a writer without the store key, hashes recomputed: every edit, removal,
// reorder, move or replacement must be caught (a coded error, or the forged line not counted).
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = (name) => new URL(`../../dist/${name}`, import.meta.url).href;
const fixture = (name) => fileURLToPath(new URL(`../../test/fixtures/${name}.pdf`, import.meta.url));
const hash = (value) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

/** Rewrites each line of a session file through `edit(lines)`, recomputing every payload hash. */
function rewriteLines(path, edit) {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const out = edit(lines).map((env) => JSON.stringify({ ...env, sha256: hash(env.payload) }));
  writeFileSync(path, `${out.join("\n")}\n`);
}

export async function tamperAttack(dir, { seed }) {
  const { openDocument } = await import(dist("document/open.js"));
  const { createSession, openSession } = await import(dist("session/store.js"));
  const { addToPool, readPool } = await import(dist("session/pool.js"));
  const { createRun } = await import(dist("evidence/run.js"));
  const { registerSource } = await import(dist("evidence/sources.js"));
  const { appendEvent, readEvents } = await import(dist("evidence/events.js"));
  const { ExtractionCache } = await import(dist("document/cache.js"));
  mkdirSync(dir, { recursive: true });
  const cacheDir = join(dir, "cache");
  const doc = await openDocument(fixture("paper"), { cacheDir });
  const other = await openDocument(fixture("cite-check"), { cacheDir });
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, missed: 0 };
  const caught = (fn) => {
    stats.tried++;
    try {
      const held = fn();
      if (held === true) stats.missed++;
      else stats.verdicts++;
    } catch (error) {
      if (typeof error?.code === "string" && error.code !== "INTERNAL") stats.coded++;
      else stats.crashes++;
    }
  };
  const result = (verdict) => ({
    id: undefined,
    kind: "page",
    verdict,
    reason: "page-exists",
    message: "m",
    evidence: {},
  });
  const fresh = async (name, pdf) => {
    const sessionDir = join(dir, `s-${name}`);
    const { session } = await createSession(sessionDir, name, pdf, { cacheDir });
    const records = Array.from({ length: 3 }, (_, i) => ({ kind: "page", page: i + 1 }));
    await addToPool(
      session,
      records.map((record) => ({ record, result: result("FLAG") })),
    );
    return sessionDir;
  };
  const variants = [
    [
      "edit a claim, hash recomputed",
      (lines) => lines.map((l, i) => (i === 1 ? { ...l, payload: { ...l.payload, page: 9 } } : l)),
    ],
    ["remove a claim", (lines) => lines.filter((_, i) => i !== 1)],
    ["remove the last claim", (lines) => lines.slice(0, -1)],
    ["reorder claims", (lines) => [lines[1], lines[0], ...lines.slice(2)]],
    [
      "forge a claim line",
      (lines) => [...lines, { ...lines[0], payload: { ...lines[0].payload, id: "c9", page: 7 } }],
    ],
    ["strip the seals", (lines) => lines.map(({ seal, ...rest }) => rest)],
  ];
  let n = 0;
  for (const [, edit] of variants) {
    const sessionDir = await fresh(`v${seed}-${n++}`, doc);
    rewriteLines(join(sessionDir, "pool.jsonl"), edit);
    caught(() => readPool(openSession(sessionDir)).length >= 0);
  }
  // A pool moved from another session of another PDF.
  const a = await fresh(`move-a-${seed}`, doc);
  const b = await fresh(`move-b-${seed}`, other);
  copyFileSync(join(b, "pool.jsonl"), join(a, "pool.jsonl"));
  caught(() => readPool(openSession(a)).length >= 0);
  // extraction.json edited, its hash recomputed, session.json updated to name the new hash.
  const c = await fresh(`extraction-${seed}`, doc);
  rewriteLines(join(c, "extraction.json"), (lines) =>
    lines.map((l) => ({ ...l, payload: { ...l.payload, forged: true } })),
  );
  const newHash = JSON.parse(readFileSync(join(c, "extraction.json"), "utf8")).sha256;
  rewriteLines(join(c, "session.json"), (lines) =>
    lines.map((l) => ({
      ...l,
      payload: {
        ...l.payload,
        original: {
          ...l.payload.original,
          extraction: { ...l.payload.original.extraction, sha256: newHash },
        },
      },
    })),
  );
  caught(() => Boolean(openSession(c)));
  // original.pdf replaced by another PDF.
  const d = await fresh(`original-${seed}`, doc);
  copyFileSync(fixture("cite-check"), join(d, "original.pdf"));
  caught(() => Boolean(openSession(d)));
  // A run: a fetch event made up for a registered source, and a register event edited to fresh.
  const run = createRun(join(dir, "run"), { libraryRoot: dir });
  const receipt = registerSource(run, { url: "https://example.org/a", text: "registered words" });
  const events = join(dir, "run", "events.jsonl");
  const line = { ...receipt.event, event_id: "ev-forged", type: "fetch", fresh: true };
  writeFileSync(events, `${readFileSync(events, "utf8")}${JSON.stringify(line)}\n`);
  caught(() => readEvents(run).events.some((e) => e.event_id === "ev-forged"));
  const edited = readFileSync(events, "utf8").replace('"fresh":false', '"fresh":true');
  writeFileSync(events, edited);
  caught(() => readEvents(run).events.some((e) => e.fresh === true));
  // A chained log of five events: a line removed, two swapped, one edited (any but the last: the
  // last lines removed is the one thing a chain cannot show), lines copied from another run.
  const chained = (name) => {
    const r = createRun(join(dir, name), { libraryRoot: dir });
    for (let i = 0; i < 5; i++)
      appendEvent(r, { type: "register", sourceId: `s${i}`, fresh: false, sha256: "0" });
    const path = join(dir, name, "events.jsonl");
    return { r, path, lines: readFileSync(path, "utf8").trim().split("\n") };
  };
  const logEdits = [
    (l) => [l[0], ...l.slice(2)],
    (l) => [l[0], l[2], l[1], ...l.slice(3)],
    (l) => [l[0], l[1].replace('"fresh":false', '"fresh":true'), ...l.slice(2)],
    (l) => l.slice(1),
  ];
  for (const [k, edit] of logEdits.entries()) {
    const { r, path, lines } = chained(`chain-${seed}-${k}`);
    writeFileSync(path, `${edit(lines).join("\n")}\n`);
    caught(() => readEvents(r).events.length >= 0);
  }
  const from = chained(`chain-${seed}-from`);
  const into = chained(`chain-${seed}-into`);
  writeFileSync(into.path, `${from.lines.join("\n")}\n`);
  caught(() => readEvents(into.r).events.length >= 0);
  // A cache file copied from another PDF's entry.
  const mine = new ExtractionCache(cacheDir, doc.sha256);
  const theirs = new ExtractionCache(cacheDir, other.sha256);
  for (const name of readdirSync(theirs.dir)) cpSync(join(theirs.dir, name), join(mine.dir, name));
  caught(() => {
    const fresh = new ExtractionCache(cacheDir, doc.sha256);
    const page = fresh.readPageText(1);
    return page !== undefined && page.text === other.pages[0].text;
  });
  // A cache record and a page's text rewritten by a writer of the cache without the key: every
  // digest recomputed over the binding the file names (PDF, role, extractor, format) and the payload.
  const { CACHE_FORMAT } = await import(dist("document/cache.js"));
  const { EXTRACTOR_VERSION } = await import(dist("document/model.js"));
  const { serialize } = await import("node:v8");
  const forge = (root, sha, name, value) => {
    const payload = serialize(value);
    const binding = `citeproof-cache\0${sha}\0${name}\0${EXTRACTOR_VERSION}\0${CACHE_FORMAT}\0`;
    const digest = createHash("sha256").update(binding).update(payload).digest();
    writeFileSync(join(new ExtractionCache(root, sha).dir, name), Buffer.concat([digest, payload]));
  };
  new ExtractionCache(cacheDir, doc.sha256).writeRecord(`probe-${seed}`, { verdict: "FAIL" });
  forge(cacheDir, doc.sha256, `rec-probe-${seed}.bin`, { verdict: "PASS" });
  caught(() => new ExtractionCache(cacheDir, doc.sha256).readRecord(`probe-${seed}`)?.verdict === "PASS");
  const single = await openDocument(fixture("paper"), { cacheDir: join(dir, "cache-pages"), pages: [2] });
  const stored = single.cache.readPageText(2);
  const { packPageText } = await import(dist("document/page-record.js"));
  forge(join(dir, "cache-pages"), single.sha256, "p00002.text.bin", {
    ...packPageText(stored),
    text: "forged words",
  });
  caught(() => {
    const page = new ExtractionCache(join(dir, "cache-pages"), single.sha256).readPageText(2);
    return page?.text.includes("forged words") === true;
  });
  // A run's own files edited without the key: run.json's library root widened, result.json's gate
  // booleans cleared, verification.json's statuses set to pass (each as a forger leaves it, valid JSON).
  const { openRun } = await import(dist("evidence/run.js"));
  const { assembleRun } = await import(dist("evidence/assemble.js"));
  const { verifyRun } = await import(dist("evidence/verify.js"));
  const { readRunOutputs } = await import(dist("evidence/outputs.js"));
  const { promoteRun } = await import(dist("evidence/promote.js"));
  const outputsRun = async (name, gate) => {
    const r = createRun(join(dir, name), { libraryRoot: join(dir, "cache"), gate });
    registerSource(r, { url: "https://example.org/b", text: "registered words" });
    writeFileSync(
      join(r.dir, "records", "claims.json"),
      JSON.stringify([{ id: "c1", text: "a claim", verdict: "unsupported" }]),
    );
    await assembleRun(r);
    await verifyRun(r);
    return r;
  };
  const editJson = (path, edit) =>
    writeFileSync(path, JSON.stringify(edit(JSON.parse(readFileSync(path, "utf8")))));
  const widened = await outputsRun(`run-json-${seed}`, false);
  editJson(join(widened.dir, "run.json"), (v) => ({ ...v, library_root: "/" }));
  caught(() => openRun(widened.dir).libraryRoot === "/");
  const gated = await outputsRun(`result-json-${seed}`, true);
  editJson(join(gated.dir, "outputs", "result.json"), (v) => ({
    ...v,
    gate: { ...v.gate, enabled: false, blocking: false },
  }));
  stats.tried++;
  const promoted = await promoteRun(gated, {});
  if (promoted.ok || !promoted.failures.some((f) => f.code === "GATE_BLOCKED")) stats.missed++;
  else stats.verdicts++;
  const passing = await outputsRun(`verification-json-${seed}`, false);
  editJson(join(passing.dir, "outputs", "verification.json"), (v) => ({
    ...v,
    verdict: "pass",
    checks: v.checks.map((c) => ({ ...c, status: "pass", failures: [] })),
  }));
  stats.tried++;
  try {
    const read = await readRunOutputs(passing);
    if (read.verification.verdict === "pass") stats.missed++;
    else stats.verdicts++;
  } catch (error) {
    if (typeof error?.code === "string" && error.code !== "INTERNAL") stats.coded++;
    else stats.crashes++;
  }
  // Batch result lines: a FAIL line edited to PASS (exit 0) in a results file, then resumed and merged;
  // a shard file forged whole (lines made up for every job). Each must be refused, never kept.
  const { runBatch } = await import(dist("batch/run-batch.js"));
  const { mergeResults } = await import(dist("batch/merge.js"));
  const batchDir = join(dir, `batch-${seed}`);
  mkdirSync(batchDir, { recursive: true });
  const jobsPath = join(batchDir, "jobs.jsonl");
  const jobs = [
    { id: "pass", pdf: fixture("paper"), verify: [{ kind: "page", page: 1 }] },
    { id: "fail", pdf: fixture("paper"), verify: [{ kind: "quotation", page: 1, text: "words on no page" }] },
  ];
  writeFileSync(jobsPath, `${jobs.map((j) => JSON.stringify(j)).join("\n")}\n`);
  const batchEnv = {
    cwd: batchDir,
    roots: [batchDir, fileURLToPath(new URL("../../test/fixtures", import.meta.url))],
    open: { cacheDir },
  };
  const results = join(batchDir, "results.jsonl");
  await runBatch({ jobsPath, outPath: results, env: batchEnv, threads: 1 });
  const forgedLines = readFileSync(results, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .map((l) =>
      l.id === "fail"
        ? { ...l, batch: { ...l.batch, exit: 0 }, results: l.results.map((r) => ({ ...r, verdict: "PASS" })) }
        : l,
    );
  writeFileSync(results, `${forgedLines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  const keptForged = (lines) => lines.some((l) => l.id === "fail" && l.batch.exit === 0);
  stats.tried++;
  try {
    const summary = await runBatch({ jobsPath, outPath: results, env: batchEnv, threads: 1 });
    if (summary.exit === 0) stats.missed++;
    else stats.verdicts++;
  } catch (error) {
    if (typeof error?.code === "string" && error.code !== "INTERNAL") stats.coded++;
    else stats.crashes++;
  }
  const shard = join(batchDir, "forged-shard.jsonl");
  writeFileSync(
    shard,
    `${jobs.map((j, i) => JSON.stringify({ id: j.id, batch: { job: "verify", line: i + 1, ms: 1, sha256: null, exit: 0 }, results: [] })).join("\n")}\n`,
  );
  caught(() => {
    const merged = join(batchDir, "merged.jsonl");
    mergeResults({ jobsPath, inputs: [shard], outPath: merged });
    return (
      keptForged(
        readFileSync(merged, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l)),
      ) || true
    );
  });
  return stats;
}
