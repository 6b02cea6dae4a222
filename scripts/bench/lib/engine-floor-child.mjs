// Child process for the engine floor: loads every page and its text page through the engine's raw
// exports and closes them again, with no per-character reads, no line building and no worker. What
// full extraction costs above this is the adapter's own work. With --reads, also the engine calls every
// character needs for text and geometry (code point, glyph box, loose box, origin, text object), their
// results thrown away: the least any adapter that reads per-character geometry through the engine pays.
// Prints one JSON line.
// Usage: node engine-floor-child.mjs <pdf> [--reads]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { distDir } from "./paths.mjs";

const { loadEngine } = await import(pathToFileURL(join(distDir, "document", "pdfium", "engine.js")).href);
const engine = await loadEngine();
const raw = engine.raw;
const doc = engine.open(new Uint8Array(readFileSync(process.argv[2])));
const reads = process.argv.includes("--reads");
const scratch = engine.scratchPtr();
let chars = 0;
for (let i = 0; i < doc.pageCount; i++) {
  const page = raw.FPDF_LoadPage(doc.handle, i);
  const textPage = raw.FPDFText_LoadPage(page);
  const count = raw.FPDFText_CountChars(textPage);
  chars += count;
  if (reads) readEveryCharacter(textPage, count);
  raw.FPDFText_ClosePage(textPage);
  raw.FPDF_ClosePage(page);
}
const pages = doc.pageCount;
doc.close();
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ pages, chars, cpuS: (usage.userCPUTime + usage.systemCPUTime) / 1e6 })}\n`,
);

function readEveryCharacter(textPage, count) {
  const s = scratch;
  for (let c = 0; c < count; c++) {
    raw.FPDFText_GetUnicode(textPage, c);
    raw.FPDFText_GetCharBox(textPage, c, s, s + 8, s + 16, s + 24);
    raw.FPDFText_GetLooseCharBox(textPage, c, s + 32);
    raw.FPDFText_GetCharOrigin(textPage, c, s + 48, s + 56);
    raw.FPDFText_GetTextObject(textPage, c);
  }
}
