/**
 * What a crop shows: the page and region named by an anchor ("equation:2.1", "figure:3") or a box,
 * checked the same way for every interface. Each interface names its own arguments in the messages.
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

export type CropArg = "page" | "box" | "anchor";

/** How an interface names its arguments: the CLI's `--page`, or a tool's `argument "page"` / `"page"`. */
export interface CropNaming {
  /** An argument as the subject of a message: `--anchor`, `argument "anchor"`. */
  subject: Record<CropArg, string>;
  /** An argument named in passing: `--anchor`, `"anchor"`. */
  mention: Record<CropArg, string>;
  /** Where the anchors are listed: "citeproof anchors", "the anchors tool". */
  anchorsListing: string;
  /** Whether "no anchor ..." names the anchor's kind first ("no equation anchor equation (2.1)"). */
  kindInNotFound: boolean;
}

export interface AnchorPlace {
  page: number;
  region: Box;
  found: FoundAnchor;
}

/** Refuses a box given together with an anchor. */
export function assertBoxOrAnchor(hasBox: boolean, hasAnchor: boolean, naming: CropNaming): void {
  if (hasBox && hasAnchor)
    throw new CiteproofError(
      "USAGE",
      `give either ${naming.mention.box} or ${naming.mention.anchor}, not both`,
    );
}

/** Parses the anchor argument; USAGE when it is not equation:LABEL or figure:LABEL. */
export function anchorRefArg(text: string, naming: CropNaming): AnchorRef {
  const ref = parseAnchorRef(text);
  if (!ref)
    throw new CiteproofError(
      "USAGE",
      `${naming.subject.anchor} must be equation:LABEL or figure:LABEL (got ${JSON.stringify(text)})`,
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
  naming: CropNaming,
): Promise<AnchorPlace> {
  if (page !== undefined) assertPageInRange(doc, page);
  const all = findAnchors(await documentAnchors(doc, options), ref);
  const here = all.filter((a) => page === undefined || a.anchor.page === page);
  if (here.length === 0) {
    const name = ref.kind === "equation" ? `equation (${ref.label})` : `figure ${ref.label}`;
    const pages = [...new Set(all.map((a) => a.anchor.page))];
    throw new CiteproofError(
      "ANCHOR_NOT_FOUND",
      `no ${naming.kindInNotFound ? `${ref.kind} ` : ""}anchor ${name}${page !== undefined ? ` on page ${page}` : ""} in this PDF${
        pages.length > 0 ? `; it is on page ${pages.join(", ")}` : ""
      } (see ${naming.anchorsListing})`,
    );
  }
  const found = here[0];
  return { page: found.anchor.page, region: anchorRegion(found), found };
}

/** The page to render: USAGE when none was given and no anchor named one. */
export function requireCropPage(page: number | undefined, naming: CropNaming): number {
  if (page === undefined)
    throw new CiteproofError(
      "USAGE",
      `${naming.subject.page} is required unless ${naming.mention.anchor} is given`,
    );
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
