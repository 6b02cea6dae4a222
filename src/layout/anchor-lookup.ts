/** Finding an equation or figure anchor by label, and the page region that shows it. */
import type { Box } from "../document/model.js";
import type { AnchorsRecord, EquationAnchor, FigureAnchor } from "./anchors.js";

export type AnchorRef = { kind: "equation"; label: string } | { kind: "figure"; label: string };

export type FoundAnchor =
  | { kind: "equation"; anchor: EquationAnchor }
  | { kind: "figure"; anchor: FigureAnchor };

/** Parses "equation:2.1" or "figure:3"; undefined when the text is not of that form. */
export function parseAnchorRef(text: string): AnchorRef | undefined {
  const m = /^(equation|figure):(.+)$/.exec(text.trim());
  if (!m) return undefined;
  return { kind: m[1] as "equation" | "figure", label: m[2].trim() };
}

/** Every anchor with this label, in page order, optionally on one page only. */
export function findAnchors(record: AnchorsRecord, ref: AnchorRef, page?: number): FoundAnchor[] {
  const out: FoundAnchor[] =
    ref.kind === "equation"
      ? record.equations.filter((e) => e.label === ref.label).map((anchor) => ({ kind: "equation", anchor }))
      : record.figures.filter((f) => f.label === ref.label).map((anchor) => ({ kind: "figure", anchor }));
  return out
    .filter((f) => page === undefined || f.anchor.page === page)
    .sort((a, b) => a.anchor.page - b.anchor.page);
}

/** The region a crop of the anchor shows: the equation with its label, or the caption with its figure. */
export function anchorRegion(found: FoundAnchor, pad = 6): Box {
  const boxes =
    found.kind === "equation"
      ? [found.anchor.labelBox, found.anchor.equationBox]
      : [
          found.anchor.captionBox,
          found.anchor.labelBox,
          ...(found.anchor.figureBox ? [found.anchor.figureBox] : []),
        ];
  return {
    left: Math.min(...boxes.map((b) => b.left)) - pad,
    bottom: Math.min(...boxes.map((b) => b.bottom)) - pad,
    right: Math.max(...boxes.map((b) => b.right)) + pad,
    top: Math.max(...boxes.map((b) => b.top)) + pad,
  };
}
