// Checks each document of an acceptance set with the built library: its kind from its content, its
// quotations through verifyFlow (the same check verify runs).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openFlow, sourceKind, verifyFlow } from "../../dist/index.js";

/** A heading's words without its printed number or a `Chapter 2.` before it (a message may name it by number). */
const headingWords = (title) =>
  title.replace(/^(?:(?:chapter|section|appendix)\s+)?[\dA-Z]+(?:\.\d+)*\.?\s+(?=\S)/iu, "");

const record = (q) => ({ kind: "quotation", text: q.text, ...(q.section ? { section: q.section } : {}) });

/** `{ rows, total, misses }`: per document and in all, the counts measure.mjs prints. */
export async function measureSet(dir, documents) {
  const rows = [];
  const misses = [];
  for (const d of documents) {
    const bytes = new Uint8Array(readFileSync(join(dir, d.file)));
    const source = { bytes, sha256: createHash("sha256").update(bytes).digest("hex"), origin: d.file };
    const kind = sourceKind(source);
    const doc = await openFlow(source, kind, { noCache: true });
    const check = (list) => verifyFlow(doc, list.map(record), d.file).results;
    const truePass = check(d.true).filter((r, i) => {
      const ok = r.verdict === "PASS";
      if (!ok)
        misses.push(
          `${d.file} true: ${r.verdict} ${r.reason}: ${d.true[i].text} [${d.true[i].section ?? ""}] ${r.message}`,
        );
      return ok;
    }).length;
    const falsePass = check(d.altered).filter((r, i) => {
      if (r.verdict === "PASS") misses.push(`${d.file} FALSE PASS: ${d.altered[i].text}`);
      return r.verdict === "PASS";
    }).length;
    const named = check(d.wrong).filter((r, i) => {
      const ok = r.reason === "wrong-section" && r.message.includes(headingWords(d.wrong[i].actual));
      if (!ok)
        misses.push(
          `${d.file} wrong: ${r.verdict} ${r.reason}: [${d.wrong[i].section} -> ${d.wrong[i].actual}] ${r.message}`,
        );
      return ok;
    }).length;
    rows.push({
      file: d.file,
      producer: d.producer,
      kind,
      true: d.true.length,
      pass: truePass,
      altered: d.altered.length,
      falsePass,
      wrong: d.wrong.length,
      named,
    });
  }
  const total = { true: 0, pass: 0, altered: 0, falsePass: 0, wrong: 0, named: 0 };
  for (const r of rows) for (const k of Object.keys(total)) total[k] += r[k];
  return { rows, total, misses };
}
