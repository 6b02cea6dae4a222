/**
 * What `crop --explain` draws over a rendered page: for each equation-label candidate of the page
 * (accepted or rejected), its label box, the display it was paired with (or the content a rejected
 * one was read against), its column frame, and the predicates that refused it; for each figure-caption
 * candidate, its "Figure N" box, its caption block and an accepted caption's figure, and the
 * predicates that refused it. Pure: from an explained anchors record and the image's transform to
 * shapes in the image's pixels.
 */
import type { Box } from "../document/model.js";
import type { Outline } from "../document/outlines.js";
import { type RenderTransform, userBoxToDevice } from "../document/render-transform.js";
import type { AnchorsRecord } from "./anchors.js";

/** One equation-label or figure-caption candidate of the page, as `anchors --explain` reports it, in user space. */
export interface ExplainedCandidate {
  kind: "equation" | "caption";
  label: string;
  printed: string;
  accepted: boolean;
  labelBox: Box;
  /** An accepted label's display, or the content beside a rejected one; a caption's block. */
  displayBox?: Box;
  /** The column frame the label was measured in. */
  frame?: Box;
  /** An accepted caption's figure, when the record is sure of it. */
  figureBox?: Box;
  /** The predicates that refused it; empty for an accepted label. */
  decidedBy: string[];
}

/**
 * The role of a rectangle: an equation's label, its display, or its column frame; a caption's
 * "Figure N", its block, or its figure.
 */
export type OverlayRole = "label" | "display" | "frame" | "caption" | "block" | "figure";
export type OverlayClass = "accepted" | "rejected";

export interface OverlayRect {
  role: OverlayRole;
  class: OverlayClass;
  /** Index of the candidate in the list the overlay was drawn from. */
  candidate: number;
  /** Pixels of the image, x right, y down. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OverlayTag {
  class: OverlayClass;
  candidate: number;
  /** Where the text's baseline starts, in the image's pixels. */
  x: number;
  y: number;
  /** Whether the text starts at x (right of the label) or ends there (left of it). */
  anchor: "start" | "end";
  text: string;
}

export interface Overlay {
  widthPx: number;
  heightPx: number;
  rects: OverlayRect[];
  tags: OverlayTag[];
}

/** The page's candidates from an explained record: accepted labels first, then rejected ones. */
export function explainedCandidates(record: AnchorsRecord, page: number): ExplainedCandidate[] {
  const out: ExplainedCandidate[] = [];
  for (const e of record.equations)
    if (e.page === page)
      out.push({
        kind: "equation",
        label: e.label,
        printed: `(${e.label})`,
        accepted: true,
        labelBox: e.labelBox,
        displayBox: e.equationBox,
        ...(e.explain?.frame ? { frame: e.explain.frame } : {}),
        decidedBy: [],
      });
  for (const c of record.rejectedEquationCandidates)
    if (c.page === page)
      out.push({
        kind: "equation",
        label: c.label,
        printed: c.printed,
        accepted: false,
        labelBox: c.labelBox,
        ...(c.explain?.contentBox ? { displayBox: c.explain.contentBox } : {}),
        ...(c.explain?.frame ? { frame: c.explain.frame } : {}),
        decidedBy: c.explain?.decidedBy ?? c.reasons,
      });
  for (const f of record.figures)
    if (f.page === page)
      out.push({
        kind: "caption",
        label: f.label,
        printed: `${f.keyword} ${f.label}`,
        accepted: true,
        labelBox: f.labelBox,
        displayBox: f.captionBox,
        ...(f.figureBox ? { figureBox: f.figureBox } : {}),
        decidedBy: [],
      });
  for (const c of record.rejectedCaptions)
    if (c.page === page)
      out.push({
        kind: "caption",
        label: c.label,
        printed: c.explain ? `${c.explain.features.keyword} ${c.label}` : c.label,
        accepted: false,
        labelBox: c.labelBox,
        ...(c.explain ? { displayBox: c.explain.captionBox } : {}),
        decidedBy: c.explain?.decidedBy ?? c.reasons,
      });
  return out;
}

/**
 * The shapes to draw over an image of `widthPx` x `heightPx` that `t` maps to user space. A
 * candidate wholly outside the image is left out; frames come first so that boxes are drawn over them.
 */
export function explainOverlay(
  candidates: readonly ExplainedCandidate[],
  t: RenderTransform,
  widthPx: number,
  heightPx: number,
): Overlay {
  const frames = new Map<string, OverlayRect>();
  const boxes: OverlayRect[] = [];
  const tags: OverlayTag[] = [];
  // Only a rejected candidate is tagged, with the predicates that refused it; green says enough.
  candidates.forEach((c, i) => {
    const cls: OverlayClass = c.accepted ? "accepted" : "rejected";
    const caption = c.kind === "caption";
    const label = rect(c.labelBox, caption ? "caption" : "label", cls, i, t);
    if (!overlaps(label, widthPx, heightPx)) return;
    if (c.frame) {
      // A column's candidates share its frame: it is drawn once, for the first of them.
      const frame = rect(c.frame, "frame", cls, i, t);
      const key = [frame.x, frame.y, frame.width, frame.height].join();
      if (!frames.has(key)) frames.set(key, frame);
    }
    if (c.figureBox) boxes.push(rect(c.figureBox, "figure", cls, i, t));
    if (c.displayBox) boxes.push(rect(c.displayBox, caption ? "block" : "display", cls, i, t));
    boxes.push(label);
    if (c.accepted) return;
    const text = `${c.printed} ${c.decidedBy.join(",")}`;
    // Over the label, running away from the nearer edge of the image: a label in the right half is
    // tagged leftwards from its right end. Below the label when there is no room above it.
    const right = label.x + label.width / 2 > widthPx / 2;
    tags.push({
      class: cls,
      candidate: i,
      x: right ? label.x + label.width : label.x,
      y: label.y > TAG_HEIGHT_PX ? label.y - 3 : label.y + label.height + TAG_HEIGHT_PX,
      anchor: right ? "end" : "start",
      text,
    });
  });
  return { widthPx, heightPx, rects: [...frames.values(), ...boxes], tags };
}

/** The tags' line height in the SVG (11 px text). */
const TAG_HEIGHT_PX = 14;

function rect(
  box: Box,
  role: OverlayRole,
  cls: OverlayClass,
  candidate: number,
  t: RenderTransform,
): OverlayRect {
  const d = userBoxToDevice(box, t);
  const x = Math.min(d.x0, d.x1);
  const y = Math.min(d.y0, d.y1);
  return {
    role,
    class: cls,
    candidate,
    x,
    y,
    width: Math.abs(d.x1 - d.x0),
    height: Math.abs(d.y1 - d.y0),
  };
}

function overlaps(r: OverlayRect, widthPx: number, heightPx: number): boolean {
  return r.x < widthPx && r.y < heightPx && r.x + r.width > 0 && r.y + r.height > 0;
}

const COLOURS = {
  accepted: [26, 158, 58],
  rejected: [214, 39, 40],
  frame: [31, 119, 180],
} as const;

/**
 * The overlay's boxes as outlines drawn into the pixels (the colours of the SVG's): each column
 * frame once, thin, then each display and label in its verdict's colour, the label the thickest.
 */
export function explainOutlines(candidates: readonly ExplainedCandidate[], dpi: number): Outline[] {
  const px = Math.max(1, Math.round(dpi / 100));
  const frames = new Map<string, Outline>();
  const boxes: Outline[] = [];
  for (const c of candidates) {
    const rgb = c.accepted ? COLOURS.accepted : COLOURS.rejected;
    if (c.frame)
      frames.set(Object.values(c.frame).join(), { box: c.frame, rgb: COLOURS.frame, lineWidthPx: px });
    if (c.figureBox) boxes.push({ box: c.figureBox, rgb, lineWidthPx: px });
    if (c.displayBox) boxes.push({ box: c.displayBox, rgb, lineWidthPx: px });
    boxes.push({ box: c.labelBox, rgb, lineWidthPx: 2 * px });
  }
  return [...frames.values(), ...boxes];
}
