// Writes what verify answers for every gold evidence record of the corpus (all of a PDF's records
// together, and its quotations alone), as JSON and as the CLI's text, one file per PDF and set, so
// two builds can be compared byte for byte (`diff -r`). Run it once with an empty cache directory
// (cold) and once more with the same one (warm): a change meant to be invisible leaves every file
// the same in both passes. The build is $CITEPROOF_BENCH_DIST (else dist/).
// Usage: node same-output.mjs <out-dir> <cache-dir> [corpus-dir]
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { corpusDir, distDir, libraryPath } from "./paths.mjs";

const [out, cacheDir, corpus = corpusDir] = process.argv.slice(2);
if (!out || !cacheDir) throw new Error("usage: node same-output.mjs <out-dir> <cache-dir> [corpus-dir]");
const { verifyPdf, closeExtractionWorker } = await import(pathToFileURL(libraryPath).href);
const { formatVerifyReport } = await import(pathToFileURL(join(distDir, "operations", "verify.js")).href);
mkdirSync(out, { recursive: true });

for (const file of readdirSync(corpus)
  .filter((f) => f.endsWith(".gold.json"))
  .sort()) {
  const gold = JSON.parse(readFileSync(join(corpus, file), "utf8"));
  const pdf = join(corpus, gold.pdf.file);
  const records = gold.cases
    .filter((c) => c.tool === "verify" && c.evidence)
    .map((c) => ({ id: c.id, ...c.evidence }));
  const sets = { all: records, quotations: records.filter((r) => r.kind === "quotation") };
  for (const [set, evidence] of Object.entries(sets)) {
    if (evidence.length === 0) continue;
    let text;
    try {
      const report = await verifyPdf(pdf, evidence, { cacheDir, timeoutMs: 600_000 });
      text = `${JSON.stringify(report, null, 1)}\n${formatVerifyReport(gold.pdf.file, report)}`;
    } catch (error) {
      text = `error: ${error?.code ?? ""} ${error?.message ?? String(error)}\n`;
    }
    writeFileSync(join(out, `${file.replace(/\.gold\.json$/, "")}.${set}.txt`), text);
  }
}
await closeExtractionWorker();
