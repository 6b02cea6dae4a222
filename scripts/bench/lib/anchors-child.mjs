// Child process for the anchors bench. Modes:
//   extract <pdf>                  open with the cache off (the extraction figure's own work)
//   anchors <pdf>                  open for anchors with the cache off, then decide every anchor
//   extract-cached <pdf> <dir>     the same two with a (fresh) cache: what a first verify does
//   anchors-cached <pdf> <dir>
//   crop <pdf> <cacheDir> n  crop n anchors at 150 dpi through the render worker, first one cold
// Prints one JSON line; CPU of every thread is measured by the parent under GNU time.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { distDir } from "./paths.mjs";

const load = (path) => import(pathToFileURL(join(distDir, path)).href);
const [mode, pdf, cacheDir, count] = process.argv.slice(2);
const { openDocument } = await load("document/open.js");
const timeoutMs = 30 * 60_000;

if (mode === "extract" || mode === "extract-cached") {
  // Full per-character extraction (geometry included): what anchor detection adds to is measured against it.
  const options =
    mode === "extract"
      ? { noCache: true, timeoutMs, withGeometry: true }
      : { cacheDir, timeoutMs, withGeometry: true };
  const doc = await openDocument(pdf, options);
  process.stdout.write(`${JSON.stringify({ pages: doc.pageCount, extracted: doc.extractedPages })}\n`);
} else if (mode === "anchors" || mode === "anchors-cached") {
  const { documentAnchors, openForAnchors } = await load("layout/anchors.js");
  const options = mode === "anchors" ? { noCache: true, timeoutMs } : { cacheDir, timeoutMs };
  const doc = await openForAnchors(pdf, options);
  const before = process.cpuUsage();
  const started = performance.now();
  const record = await documentAnchors(doc, options);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(before);
  process.stdout.write(
    `${JSON.stringify({
      pages: doc.pageCount,
      equations: record.equations.length,
      rejected: record.rejectedEquationCandidates.length,
      figures: record.figures.length,
      decideCpuMs: (used.user + used.system) / 1000,
      decideWallMs: wallMs,
    })}\n`,
  );
} else if (mode === "crop") {
  const { documentAnchors } = await load("layout/anchors.js");
  const { anchorRegion } = await load("layout/anchor-lookup.js");
  const { renderRegion, closeRenderer } = await load("document/render.js");
  const doc = await openDocument(pdf, { cacheDir, timeoutMs });
  const record = await documentAnchors(doc);
  const found = [
    ...record.equations.map((anchor) => ({ kind: "equation", anchor })),
    ...record.figures.map((anchor) => ({ kind: "figure", anchor })),
  ];
  if (found.length === 0) throw new Error(`${pdf} has no anchors to crop`);
  const times = [];
  for (let i = 0; i < Number(count); i++) {
    const f = found[i % found.length];
    const started = performance.now();
    const r = await renderRegion(doc.source, f.anchor.page, anchorRegion(f), 150);
    times.push(performance.now() - started);
    if (r.png.length < 100) throw new Error("empty PNG");
  }
  await closeRenderer();
  process.stdout.write(
    `${JSON.stringify({ coldMs: times[0], warmMs: times.slice(1), anchors: found.length })}\n`,
  );
}
