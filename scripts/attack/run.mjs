#!/usr/bin/env node
// The attack suite: seeded hostile inputs against the built library and CLI (`npm run attack`).
// `--sample` runs a bounded slice for CI. Prints one table: per attack, the inputs tried, verdicts,
// coded errors, crashes (a stack trace or a signal), hangs (past the deadline + 5 s), leaks (bytes of
// a file outside the root read), data lost (claims lost by the locks; claims, events or batch lines
// lost or half-written after a SIGKILL), escapes, undetected tampers (missed), the largest peak
// resident memory of one call in MiB and the calls over the memory cap (CITEPROOF_MAX_MEMORY_MB,
// default 1024). Exit 1 when any crash, hang, leak, loss, escape, missed tamper or call over the
// cap is seen.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { badInputAttack } from "./bad-inputs.mjs";
import { hostileBibAttack } from "./hostile-bibs.mjs";
import { hostileFlowAttack } from "./hostile-flow.mjs";
import { hostileHttpAttack } from "./hostile-http.mjs";
import { hostilePdfAttack } from "./hostile-pdfs.mjs";
import { httpDisconnectAttack } from "./http-disconnect.mjs";
import { httpLimitAttack } from "./http-limits.mjs";
import { killTrials } from "./kill-trials.mjs";
import { runLockTrials } from "./lock-trials.mjs";
import { mcpFrameAttack } from "./mcp-frames.mjs";
import { pageMemoryAttack } from "./page-memory.mjs";
import { pathRaceAttack } from "./path-race.mjs";
import { serveClientAttack } from "./serve-clients.mjs";
import { specialFileAttack } from "./special-files.mjs";
import { tamperAttack } from "./tamper.mjs";

const sample = process.argv.includes("--sample");
const seedArg = process.argv.find((a) => a.startsWith("--seed="));
const seed = seedArg ? Number(seedArg.slice(7)) : 18;
const work = mkdtempSync(join(tmpdir(), "citeproof-attack-"));
const rows = [];
const row = (attack, r) => {
  rows.push({
    attack,
    tried: 0,
    verdicts: 0,
    coded: 0,
    crashes: 0,
    hangs: 0,
    leaks: 0,
    lost: 0,
    escapes: 0,
    missed: 0,
    ...r,
    "peak MB": r.peakMb ?? "",
    "over cap": r.overCap ?? "",
  });
  process.stderr.write(`${attack}: done\n`);
};

try {
  if (spawnSync(process.execPath, ["-e", "import('./dist/index.js')"]).status !== 0) {
    throw new Error("build first (npm run build)");
  }
  row("path race", await pathRaceAttack(join(work, "race"), { calls: sample ? 1500 : 10_000, seed }));
  const locks = await runLockTrials({ trials: sample ? 30 : 1000, waiters: 8, seed });
  row("stale lock, 8 waiters", {
    tried: locks.trials,
    coded: locks.errors,
    hangs: locks.hangs,
    lost: locks.lost + locks.overlaps,
    verdicts: locks.entries,
  });
  row("special files", await specialFileAttack(join(work, "special")));
  row("bad inputs, MCP frames", await badInputAttack());
  row("malformed MCP frames, stdio + HTTP", await mcpFrameAttack({ count: sample ? 40 : 120, seed }));
  row("HTTP batches, big bodies, flood", await httpLimitAttack({ sample }));
  row(
    "HTTP clients gone mid-call",
    await httpDisconnectAttack(join(work, "gone"), { rounds: sample ? 1 : 5 }),
  );
  row(
    "serve: killed clients, long lines, own streams",
    await serveClientAttack(join(work, "serve"), { rounds: sample ? 1 : 5 }),
  );
  row("store tamper", await tamperAttack(join(work, "tamper"), { seed }));
  row(
    "hostile PDFs",
    await hostilePdfAttack(join(work, "pdfs"), {
      count: sample ? 6 : 400,
      structural: sample ? 5 : 600,
      seed,
      width: sample ? 1 : 2,
    }),
  );
  row("ToUnicode bombs, resident serve", await pageMemoryAttack(join(work, "page-memory"), { sample }));
  row("hostile flow inputs", await hostileFlowAttack(join(work, "flow"), { sample, seed }));
  row("hostile bibliographies and drafts", await hostileBibAttack(join(work, "bibs"), { sample, seed }));
  row("hostile HTTP", await hostileHttpAttack(join(work, "http"), { bombMib: sample ? 256 : 4096, sample }));
  const kills = await killTrials(join(work, "kill"), {
    trials: sample ? 3 : 30,
    laterTrials: sample ? 1 : 30,
    seed,
  });
  row("SIGKILL: session, log, batch, fetch, assemble, retry", { ...kills, verdicts: kills.verdicts });
} finally {
  rmSync(work, { recursive: true, force: true });
}

const columns = [
  "attack",
  "tried",
  "verdicts",
  "coded",
  "crashes",
  "hangs",
  "leaks",
  "lost",
  "escapes",
  "missed",
  "peak MB",
  "over cap",
];
const width = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
const line = (values) => values.map((v, i) => String(v).padEnd(width[i])).join("  ");
console.log(line(columns));
for (const r of rows) console.log(line(columns.map((c) => r[c])));
const bad = rows.some(
  (r) => r.crashes + r.hangs + r.leaks + r.lost + r.escapes + r.missed + (r.overCap ?? 0) > 0,
);
console.log(bad ? "attack: FAILED" : "attack: held");
process.exit(bad ? 1 : 0);
