// Scans of generated equation documents: documents of the equations module (their displays, labels
// and traps, truth from the .aux as there) built with pdfLaTeX, then printed to grey page images at
// 200 dpi and rebuilt as a scan (lib/scan.mjs): the images alone (no text layer), or the images under
// an invisible OCR text layer Tesseract made of them. Their labels are printed only in the page image,
// so the corpus runner reads them with `verify --ocr` (the gold says `"ocr": "auto"`).
import * as equations from "./equations.gen.mjs";

export const name = "equations-scan";

/** The classes scanned: one and two columns, right and left labels, numbering within chapters. */
const CLASSES = new Set(["article", "article-leqno", "amsart", "report", "article-twocolumn"]);
const LAYERS = [
  { id: "image", layer: "none" },
  { id: "ocr-layer", layer: "ocr" },
];
const DPI = 200;

export function documents({ rng, seed }) {
  const sources = equations
    .documents({ rng: rng.fork("sources"), seed })
    .filter(
      (d) => d.engine === "pdflatex" && d.id.endsWith("-pdflatex-0") && CLASSES.has(d.group.split("/")[0]),
    );
  return sources.flatMap((d) => {
    const cls = d.group.split("/")[0];
    return LAYERS.map((l) => ({
      ...d,
      id: `${cls}-${l.id}`,
      group: `scan-${l.id}/${cls}`,
      // Not in the CI sample: OCR takes seconds a page, and the class is not yet at the acceptance.
      ci: false,
      scan: { dpi: DPI, layer: l.layer },
      ocr: "auto",
    }));
  });
}
