#!/usr/bin/env node
// Checks the acceptance set scripts/real-docs/build.mjs wrote against the built library (npm run build
// first) and prints, per document and in all: true quotations PASS, altered ones PASS (a false PASS),
// wrong sections named. Exit 1 below the acceptance (true >= 99% PASS, no false PASS, wrong sections
// named >= 95%).
//   node scripts/real-docs/measure.mjs [dir] [--misses]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { measureSet } from "./measure-set.mjs";

const dir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? ".real-docs";
const truth = JSON.parse(readFileSync(join(dir, "truth.json"), "utf8"));
const { rows, total, misses } = await measureSet(dir, truth.documents);
const pct = (a, b) => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)}%`);
for (const r of rows)
  console.log(
    `${r.file.padEnd(44)} ${r.kind.padEnd(9)} true ${r.pass}/${r.true} (${pct(r.pass, r.true)})  false PASS ${r.falsePass}/${r.altered}  wrong named ${r.named}/${r.wrong} (${pct(r.named, r.wrong)})  ${r.producer}`,
  );
console.log(
  `ALL ${rows.length} documents: true ${total.pass}/${total.true} (${pct(total.pass, total.true)})  false PASS ${total.falsePass}/${total.altered}  wrong named ${total.named}/${total.wrong} (${pct(total.named, total.wrong)})`,
);
if (process.argv.includes("--misses")) for (const m of misses) console.log(`MISS ${m}`);
const ok = total.pass >= 0.99 * total.true && total.falsePass === 0 && total.named >= 0.95 * total.wrong;
process.exitCode = ok ? 0 : 1;
