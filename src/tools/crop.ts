import type { Box } from "../document/model.js";
import { assertPageInRange, openDocument } from "../document/open.js";
import { DEFAULT_RENDER_DPI, MIN_RENDER_DPI, renderRegion } from "../document/render.js";
import { CiteproofError } from "../errors.js";
import type { FoundAnchor } from "../layout/anchor-lookup.js";
import {
  anchorRefArg,
  assertBoxOrAnchor,
  assertNonEmptyBox,
  type CropNaming,
  clipBox,
  locateAnchor,
  requireCropPage,
} from "../layout/crop-region.js";
import {
  optionalInteger,
  optionalNumber,
  optionalString,
  rejectUnknown,
  requireString,
  type ToolArgs,
} from "./args.js";
import { type AgentTool, admitPath } from "./tool.js";

/** An image handed to a model: a page at 600 dpi is about 35 million pixels; that is too much. */
export const MAX_CROP_DPI = 600;
export const MAX_CROP_PIXELS = 12_000_000;

const ARGUMENTS: CropNaming = {
  subject: { page: 'argument "page"', box: 'argument "box"', anchor: 'argument "anchor"' },
  mention: { page: '"page"', box: '"box"', anchor: '"anchor"' },
  anchorsListing: "the anchors tool",
  kindInNotFound: true,
};

export const cropTool: AgentTool = {
  name: "crop",
  title: "Render a place of a PDF page",
  description:
    "Renders a place of a PDF page to a PNG image, so you (or a person) can see what a verdict rests " +
    'on: a box in PDF points (default user space, bottom-left origin), an anchor ("equation:2.1", ' +
    '"figure:3"; the equation with its label or the caption with its figure), or the whole page. ' +
    "Returns the image and {page, dpi, widthPx, heightPx, box, transform, anchor?} as `citeproof crop " +
    "--json` reports it (without the output path).",
  inputSchema: {
    type: "object",
    properties: {
      pdf: { type: "string", description: "path of the PDF, inside the allowed roots" },
      page: { type: "integer", minimum: 1, description: "physical page; optional with anchor" },
      box: {
        type: "object",
        description: "region in PDF points; the whole page when neither box nor anchor is given",
        properties: {
          left: { type: "number" },
          bottom: { type: "number" },
          right: { type: "number" },
          top: { type: "number" },
        },
        required: ["left", "bottom", "right", "top"],
        additionalProperties: false,
      },
      anchor: {
        type: "string",
        description: "equation:LABEL or figure:LABEL, as the anchors tool lists them",
      },
      dpi: { type: "number", minimum: MIN_RENDER_DPI, maximum: MAX_CROP_DPI, description: "default 150" },
      password: { type: "string", description: "password of an encrypted PDF" },
    },
    required: ["pdf"],
    additionalProperties: false,
  },
  async run(args, env) {
    rejectUnknown(args, ["pdf", "page", "box", "anchor", "dpi", "password"]);
    const pdf = admitPath(env, requireString(args, "pdf"));
    const dpi = optionalNumber(args, "dpi", MIN_RENDER_DPI, MAX_CROP_DPI) ?? DEFAULT_RENDER_DPI;
    const anchorText = optionalString(args, "anchor");
    const box = args.box === undefined || args.box === null ? undefined : boxArg(args);
    assertBoxOrAnchor(box !== undefined, anchorText !== undefined, ARGUMENTS);
    let page = optionalInteger(args, "page", 1, Number.MAX_SAFE_INTEGER);
    const options = { ...env.open, password: optionalString(args, "password") };

    let region: Box | "page" = box ?? "page";
    let found: FoundAnchor | undefined;
    // Only the page asked for is read, unless an anchor must be found.
    const doc = await openDocument(
      pdf,
      anchorText === undefined && page !== undefined ? { ...options, pages: [page] } : options,
    );
    if (page !== undefined) assertPageInRange(doc, page);
    if (anchorText !== undefined) {
      const ref = anchorRefArg(anchorText, ARGUMENTS);
      ({ page, region, found } = await locateAnchor(doc, ref, page, options, ARGUMENTS));
    }
    page = requireCropPage(page, ARGUMENTS);
    const text = doc.pages[page - 1];
    const shownSize = region === "page" ? text?.cropBox : region;
    if (shownSize) {
      const pixels =
        (((shownSize.right - shownSize.left) * dpi) / 72) * (((shownSize.top - shownSize.bottom) * dpi) / 72);
      if (pixels > MAX_CROP_PIXELS) {
        throw new CiteproofError(
          "USAGE",
          `the crop would be about ${Math.round(pixels / 1e6)} million pixels, over ${MAX_CROP_PIXELS / 1e6} million; lower "dpi" or crop a smaller box`,
        );
      }
    }
    const rendered = await renderRegion(doc.source, page, region, dpi, options);
    const t = rendered.transform;
    const shown = region === "page" ? t.cropBox : clipBox(region, t.cropBox);
    return {
      json: {
        page,
        dpi,
        widthPx: rendered.widthPx,
        heightPx: rendered.heightPx,
        box: shown,
        transform: t,
        ...(found ? { anchor: { kind: found.kind, ...found.anchor } } : {}),
      },
      image: { png: rendered.png, widthPx: rendered.widthPx, heightPx: rendered.heightPx },
    };
  },
};

function boxArg(args: ToolArgs): Box {
  const value = args.box as Record<string, unknown>;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new CiteproofError("BOX_INVALID", 'argument "box" must be an object {left, bottom, right, top}');
  }
  const out = {} as Box;
  for (const key of ["left", "bottom", "right", "top"] as const) {
    const v = value[key];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new CiteproofError("BOX_INVALID", `argument "box.${key}" must be a finite number`);
    }
    out[key] = v;
  }
  return assertNonEmptyBox(out, ARGUMENTS.subject.box);
}
