// Child process for the engine floor: loads every page and its text page through the engine's raw
// exports and closes them again, with no per-character reads, no line building and no worker. What
// full extraction costs above this is the adapter's own work. Prints one JSON line.
// Usage: node engine-floor-child.mjs <pdf>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { distDir } from "./paths.mjs";

const { loadEngine } = await import(pathToFileURL(join(distDir, "document", "pdfium", "engine.js")).href);
const engine = await loadEngine();
const raw = engine.raw;
const doc = engine.open(new Uint8Array(readFileSync(process.argv[2])));
let chars = 0;
for (let i = 0; i < doc.pageCount; i++) {
  const page = raw.FPDF_LoadPage(doc.handle, i);
  const textPage = raw.FPDFText_LoadPage(page);
  chars += raw.FPDFText_CountChars(textPage);
  raw.FPDFText_ClosePage(textPage);
  raw.FPDF_ClosePage(page);
}
const pages = doc.pageCount;
doc.close();
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ pages, chars, cpuS: (usage.userCPUTime + usage.systemCPUTime) / 1e6 })}\n`,
);
