// Child process for the extraction figure: opens a PDF through the library with the cache off, so
// every page is extracted (per-character geometry included) in the worker thread, and prints one JSON
// line: pages, characters, and this process's own CPU (all threads) and peak memory. With `text`, the
// text layer alone, as a text check reads it.
// Usage: node extract-child.mjs <pdf> [workers] [text]   (default 1 worker; more split the pages over them)
import { pathToFileURL } from "node:url";
import { libraryPath } from "./paths.mjs";

const { openDocument } = await import(pathToFileURL(libraryPath).href);
const started = performance.now();
// Full per-character extraction: the text layer and every character's geometry (unless `text`).
const doc = await openDocument(process.argv[2], {
  noCache: true,
  withGeometry: process.argv[4] !== "text",
  timeoutMs: 30 * 60_000,
  jobs: Number(process.argv[3] ?? 1),
});
const wallMs = performance.now() - started;
let chars = 0;
let failed = 0;
for (const page of doc.pages) {
  chars += page?.text.length ?? 0;
  if (page?.extractionError) failed++;
}
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({
    pages: doc.pageCount,
    extracted: doc.extractedPages,
    failed,
    chars,
    openWallS: wallMs / 1000,
    cpuS: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    maxRssMb: usage.maxRSS / 1024,
  })}\n`,
);
