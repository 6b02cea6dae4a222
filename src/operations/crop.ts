import type { z } from "zod";
import type { Box } from "../document/model.js";
import { assertPageInRange, type OpenedDocument, openDocument } from "../document/open.js";
import { DEFAULT_RENDER_DPI, type RenderedRegion, renderRegion } from "../document/render.js";
import type { RenderTransform } from "../document/render-transform.js";
import { CiteproofError } from "../errors.js";
import type { FoundAnchor } from "../layout/anchor-lookup.js";
import { type AnchorsOptions, documentAnchors, openForAnchors } from "../layout/anchors.js";
import {
  anchorRefArg,
  assertBoxOrAnchor,
  assertNonEmptyBox,
  clipBox,
  locateAnchor,
  requireCropPage,
} from "../layout/crop-region.js";
import {
  type ExplainedCandidate,
  explainedCandidates,
  explainOutlines,
  explainOverlay,
} from "../layout/equation-overlay.js";
import { DEFAULT_MAX_PDF_BYTES, type PdfBytes, readPdfFile } from "../source/file.js";
import { explainSvg } from "./explain-svg.js";
import { callDeadline, defineOperation, type OperationContext } from "./operation.js";
import { inputPdf } from "./paths.js";
import type { cropInput } from "./schemas/documents.js";

export type CropInput = z.infer<typeof cropInput.object>;

export const MAX_CROP_PIXELS = 12_000_000;

export interface CropResult {
  page: number;
  dpi: number;
  widthPx: number;
  heightPx: number;
  /** The region shown, clipped to the page's CropBox. */
  box: Box;
  transform: RenderTransform;
  anchor?: { kind: FoundAnchor["kind"] } & FoundAnchor["anchor"];
  /** With `explain`: the page's equation-label candidates drawn over the image. */
  explain?: { candidates: ExplainedCandidate[] };
  png: Uint8Array;
  /** With `explain`: the image with the candidates' boxes and tags drawn over it, as SVG. */
  svg?: string;
}

export const cropOperation = defineOperation<CropInput, CropResult>({
  name: "crop",
  title: "Render a place of a PDF page",
  description:
    "Renders a place of a PDF page to a PNG image, so you (or a person) can see what a verdict rests " +
    'on: a box in PDF points (default user space, bottom-left origin), an anchor ("equation:2.1", ' +
    '"figure:3"; the equation with its label or the caption with its figure), or the whole page. ' +
    "Returns the image and {page, dpi, widthPx, heightPx, box, transform, anchor?} as `citeproof crop " +
    "--json` reports it (without the output path).",
  schema: () => import("./schemas/documents.js").then((m) => m.cropInput),
  output: () => import("./schemas/outputs.js").then((m) => m.cropOutput),
  async run(input, ctx) {
    const dpi = input.dpi ?? DEFAULT_RENDER_DPI;
    const explain = input.explain === true;
    assertBoxOrAnchor(input.box !== undefined, input.anchor !== undefined);
    if (input.box !== undefined) assertNonEmptyBox(input.box, "{{box}}");
    const pdf = await inputPdf(ctx, input.pdf);
    const options = { ...ctx.open, password: input.password, deadline: callDeadline(ctx) };
    let page = input.page;
    let region: Box | "page" = input.box ?? "page";
    let found: FoundAnchor | undefined;
    let source: PdfBytes;
    let doc: OpenedDocument | undefined;
    if (input.anchor !== undefined) {
      const ref = anchorRefArg(input.anchor);
      doc = await openForAnchors(pdf, { ...options, withGeometry: explain || undefined });
      source = doc.source;
      ({ page, region, found } = await locateAnchor(doc, ref, page, options));
      if (ctx.maxImagePixels !== undefined) assertCropSize(region, dpi, ctx.maxImagePixels);
    } else if (explain) {
      page = requireCropPage(page);
      doc = await openForAnchors(pdf, { ...options, withGeometry: true });
      source = doc.source;
      if (ctx.maxImagePixels !== undefined) assertShownSize(doc, page, region, dpi, ctx.maxImagePixels);
    } else {
      page = requireCropPage(page);
      source = await sourceFor(pdf, page, region, dpi, ctx, options);
    }
    const candidates = doc && explain ? await pageCandidates(doc, page, options) : undefined;
    const outlines = candidates ? { outlines: explainOutlines(candidates, dpi) } : {};
    const rendered = await renderRegion(source, page, region, dpi, { ...options, ...outlines });
    const t = rendered.transform;
    const explained = candidates ? { candidates, svg: explainedSvg(candidates, rendered) } : undefined;
    return {
      page,
      dpi,
      widthPx: rendered.widthPx,
      heightPx: rendered.heightPx,
      box: region === "page" ? t.cropBox : clipBox(region, t.cropBox),
      transform: t,
      ...(found ? { anchor: { kind: found.kind, ...found.anchor } } : {}),
      ...(explained ? { explain: { candidates: explained.candidates } } : {}),
      png: rendered.png,
      ...(explained ? { svg: explained.svg } : {}),
    };
  },
  json: ({ png: _png, svg: _svg, ...report }) => report,
  image: (r) => ({ png: r.png, widthPx: r.widthPx, heightPx: r.heightPx }),
  format: (r) =>
    `(${r.widthPx} x ${r.heightPx} px at ${r.dpi} dpi): page ${r.page}, box ${[r.box.left, r.box.bottom, r.box.right, r.box.top].map((v) => v.toFixed(1)).join(",")}${r.anchor ? `, ${r.anchor.kind} ${r.anchor.label}` : ""}${r.explain ? `, ${drawn(r.explain.candidates)}` : ""}`,
  exitCode: () => 0,
});

function drawn(candidates: readonly ExplainedCandidate[]): string {
  const count = (kind: ExplainedCandidate["kind"], what: string) => {
    const of = candidates.filter((c) => c.kind === kind);
    const accepted = of.filter((c) => c.accepted).length;
    return `${of.length} ${what} drawn (${accepted} accepted, ${of.length - accepted} rejected)`;
  };
  const captions = candidates.some((c) => c.kind === "caption")
    ? `, ${count("caption", "caption candidates")}`
    : "";
  return `${count("equation", "equation-label candidates")}${captions}`;
}

/**
 * The bytes to render from. Without a cap on the image the file is read and the renderer finds the
 * page; a capped crop (an agent's) is opened first to learn how large the image would be.
 */
async function sourceFor(
  pdf: string | PdfBytes,
  page: number,
  region: Box | "page",
  dpi: number,
  ctx: OperationContext,
  options: OperationContext["open"] & { password?: string },
): Promise<PdfBytes> {
  const cap = ctx.maxImagePixels;
  if (cap === undefined)
    return typeof pdf === "string" ? readPdfFile(pdf, options.maxBytes ?? DEFAULT_MAX_PDF_BYTES) : pdf;
  const doc = await openDocument(pdf, { ...options, pages: [page] });
  assertShownSize(doc, page, region, dpi, cap);
  return doc.source;
}

function assertShownSize(doc: OpenedDocument, page: number, region: Box | "page", dpi: number, cap: number) {
  assertPageInRange(doc, page);
  const shown = region === "page" ? doc.pages[page - 1]?.cropBox : region;
  if (shown) assertCropSize(shown, dpi, cap);
}

/** The page's equation-label candidates as `anchors --explain` decides them. */
async function pageCandidates(
  doc: OpenedDocument,
  page: number,
  options: AnchorsOptions,
): Promise<ExplainedCandidate[]> {
  return explainedCandidates(await documentAnchors(doc, { ...options, explain: true }), page);
}

/** The image with the candidates' boxes and tags drawn over it as vectors. */
function explainedSvg(candidates: readonly ExplainedCandidate[], rendered: RenderedRegion): string {
  const overlay = explainOverlay(candidates, rendered.transform, rendered.widthPx, rendered.heightPx);
  return explainSvg(overlay, rendered.png);
}

function assertCropSize(shown: Box, dpi: number, cap: number): void {
  const pixels = (((shown.right - shown.left) * dpi) / 72) * (((shown.top - shown.bottom) * dpi) / 72);
  if (pixels > cap) {
    throw new CiteproofError(
      "USAGE",
      `the crop would be about ${Math.round(pixels / 1e6)} million pixels, over ${cap / 1e6} million; lower {{dpi}} or crop a smaller {{box}}`,
      { path: "dpi", field: "dpi", limit: cap },
    );
  }
}
