#!/usr/bin/env node
// Records what the OCR path's label rules (ocr-equation-labels.ts) say of every page of the shared
// corpus and the test fixtures, read as an OCR reading gives words: each page's text layer taken as
// OCR words (text-layer-words.ts). No OCR engine runs: the words are the text layer's, so the record
// is the same on every machine, and it covers many more layouts than the scanned fixtures do. A
// change meant to keep the OCR path's verdicts is shown to keep them by `--compare FILE` (exit 1
// when any PDF's spots, sightings or bands differ). Pages and geometry come from the cache
// scripts/anchors-snapshot.mjs fills (bench-out/anchors-snapshot); a page not there is left out.
// Usage: node scripts/ocr-anchors-snapshot.mjs OUT.json [DIR...]
//        node scripts/ocr-anchors-snapshot.mjs --compare SNAPSHOT.json [DIR...]
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root, runSnapshot } from "./snapshot-run.mjs";

const load = (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { openForAnchors } = await load("layout/anchors.js");
const { textLayerWords } = await load("layout/text-layer-words.js");
const ocr = await load("layout/ocr-equation-labels.js");

const cacheDir = join(root, "bench-out", "anchors-snapshot");

/** The page's words as the text layer gives them, for every page the cache holds. */
async function pagesOf(pdf) {
  const doc = await openForAnchors(pdf, { cacheDir, noCache: false, withGeometry: false });
  const out = [];
  for (let p = 1; p <= doc.pageCount; p++) {
    const text = doc.pages[p - 1] ?? doc.cache?.readPageText(p);
    const geometry = doc.geometry.get(p) ?? doc.cache?.readPageGeometry(p);
    if (text && geometry) out.push([p, textLayerWords(text, geometry)]);
  }
  return out;
}

/** The reasons of a refused sighting in one order (the rules give them as a set). */
function sorted(labels) {
  return { ...labels, sightings: labels.sightings.map((s) => ({ ...s, reasons: [...s.reasons].sort() })) };
}

/** Everything the rules say of a document's pages, alone and with the document's context. */
function recordOf(pages) {
  const blockTop = ocr.documentBlockTop(pages.map(([, w]) => ocr.ocrTextBlock(w)));
  const columns = ocr.documentColumns(pages.map(([, w]) => ocr.ocrPageColumns(w)));
  const out = {};
  for (const [page, words] of pages) {
    const alone = sorted(ocr.ocrPageLabels(words));
    const withContext = sorted(ocr.ocrPageLabels(words, { blockTop, columns }));
    const mathBands = withContext.mathBandsToRead;
    const withBands =
      mathBands.length > 0 ? sorted(ocr.ocrPageLabels(words, { blockTop, columns, mathBands })) : undefined;
    if (
      alone.spots.length +
        alone.sightings.length +
        withContext.spots.length +
        withContext.sightings.length ===
      0
    )
      continue;
    out[page] = { alone, withContext, withBands, strips: ocr.labelStrips(words).length };
  }
  return out;
}

await runSnapshot("ocr-anchors-snapshot.mjs", async (pdf) => recordOf(await pagesOf(pdf)));
