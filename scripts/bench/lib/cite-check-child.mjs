// Child process for the cite-check bench: in a fresh process, times one call (wall and CPU of every
// thread, module loading excluded) and prints one JSON line.
//   extract <pdf> <pages>                          openDocument of those pages, cache off, with glyph geometry
//   check <pdf> <citations.json> <cache> <root>    citeCheck of the citations with that cache directory
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { distDir } from "./paths.mjs";

const load = (path) => import(pathToFileURL(`${distDir}/${path}`).href);
const [mode, pdf, ...rest] = process.argv.slice(2);

async function timed(body) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await body();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, value };
}

if (mode === "extract") {
  const { openDocument } = await load("document/open.js");
  const pages = rest[0].split(",").map(Number);
  const r = await timed(() =>
    openDocument(pdf, { noCache: true, pages, withGeometry: true, timeoutMs: 600_000 }),
  );
  process.stdout.write(
    `${JSON.stringify({ wallMs: r.wallMs, cpuMs: r.cpuMs, extracted: r.value.extractedPages })}\n`,
  );
} else {
  const { citeCheck } = await load("checks/cite-check/run.js");
  const { parseCitations } = await load("checks/cite-check/request.js");
  const [citationsPath, cacheDir, root] = rest;
  const citations = parseCitations(JSON.parse(readFileSync(citationsPath, "utf8")));
  const input = {
    source: { path: pdf },
    citations,
    normalization: "none",
    timeoutMs: 300_000,
    maxOutputChars: 200_000,
  };
  const r = await timed(() => citeCheck(input, { allowRoots: [root], cacheDir }));
  process.stdout.write(
    `${JSON.stringify({ wallMs: r.wallMs, cpuMs: r.cpuMs, extracted: r.value.extracted_pages, summary: r.value.summary })}\n`,
  );
}
