/**
 * What a crop shows: the page and region named by an anchor ("equation:2.1", "figure:3") or a box,
 * checked the same way for every interface. Messages name the inputs as fields (`{{anchor}}`), which
 * each interface writes in its own terms (the CLI's `--anchor`, a tool's `argument "anchor"`).
 */
import type { Box } from "../document/model.js";
import { assertPageInRange, type OpenedDocument } from "../document/open.js";
import { CiteproofError } from "../errors.js";
import {
  type AnchorRef,
  anchorRegion,
  type FoundAnchor,
  findAnchors,
  parseAnchorRef,
} from "./anchor-lookup.js";
import { type AnchorsOptions, documentAnchors } from "./anchors.js";

export interface AnchorPlace {
  page: number;
  region: Box;
  found: FoundAnchor;
}

/** Refuses a box given together with an anchor. */
export function assertBoxOrAnchor(hasBox: boolean, hasAnchor: boolean): void {
  if (hasBox && hasAnchor)
    throw new CiteproofError("USAGE", "give either {{box}} or {{anchor}}, not both", {
      path: "anchor",
      field: "anchor",
    });
}

/** Parses the anchor argument; USAGE when it is not equation:LABEL or figure:LABEL. */
export function anchorRefArg(text: string): AnchorRef {
  const ref = parseAnchorRef(text);
  if (!ref)
    throw new CiteproofError(
      "USAGE",
      `{{anchor}} must be equation:LABEL or figure:LABEL (got ${JSON.stringify(text)})`,
      { path: "anchor", field: "anchor" },
    );
  return ref;
}

/**
 * The first anchor with this label (on `page` when one is given) and the region that shows it.
 * PAGE_OUT_OF_RANGE for a page the PDF lacks; ANCHOR_NOT_FOUND, naming the pages it is on, otherwise.
 */
export async function locateAnchor(
  doc: OpenedDocument,
  ref: AnchorRef,
  page: number | undefined,
  options: AnchorsOptions,
): Promise<AnchorPlace> {
  if (page !== undefined) assertPageInRange(doc, page);
  const all = findAnchors(await documentAnchors(doc, options), ref);
  const here = all.filter((a) => page === undefined || a.anchor.page === page);
  if (here.length === 0) {
    const name = ref.kind === "equation" ? `equation (${ref.label})` : `figure ${ref.label}`;
    const pages = [...new Set(all.map((a) => a.anchor.page))];
    throw new CiteproofError(
      "ANCHOR_NOT_FOUND",
      `no anchor ${name}${page !== undefined ? ` on page ${page}` : ""} in this PDF${
        pages.length > 0 ? `; it is on page ${pages.join(", ")}` : ""
      } (the anchors operation lists them)`,
    );
  }
  const found = here[0];
  return { page: found.anchor.page, region: anchorRegion(found), found };
}

/** The page to render: USAGE when none was given and no anchor named one. */
export function requireCropPage(page: number | undefined): number {
  if (page === undefined)
    throw new CiteproofError("USAGE", "{{page}} is required unless {{anchor}} is given", {
      path: "page",
      field: "page",
    });
  return page;
}

/** Refuses an empty box (`subject` names it: `--box 1,2,3,4`, `argument "box"`); BOX_INVALID. */
export function assertNonEmptyBox(box: Box, subject: string): Box {
  if (!(box.right > box.left && box.top > box.bottom))
    throw new CiteproofError("BOX_INVALID", `${subject} is empty: it needs left < right and bottom < top`);
  return box;
}

/** The part of `box` inside `page`. */
export function clipBox(box: Box, page: Box): Box {
  return {
    left: Math.max(box.left, page.left),
    bottom: Math.max(box.bottom, page.bottom),
    right: Math.min(box.right, page.right),
    top: Math.min(box.top, page.top),
  };
}
