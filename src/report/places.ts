/**
 * The places of a PDF a result rests on, to be cropped for a person to look at: the matched lines
 * of a PASS, the closest passage of an `absent`, the page words of a `form-differs`, where the words
 * really are for a `wrong-page`, the label and equation or caption boxes of an anchor, and the
 * whole page (small) for a FLAG. Offsets and boxes come from the check's evidence and the page.
 */
import type { CheckResult, CheckResultOf } from "../checks/result.js";
import { type CheckContext, checkRecord } from "../checks/verify.js";
import { unionOfBoxes } from "../document/box-union.js";
import type { Box, PageGeometry, PageText } from "../document/model.js";

export type PlaceKind = "match" | "closest" | "page-words" | "elsewhere" | "anchor" | "sighting" | "page";

export interface Place {
  kind: PlaceKind;
  page: number;
  /** The region to render, in default user space, or the whole page. */
  region: Box | "page";
  /** Boxes to mark on the crop, in default user space. */
  marks: Box[];
  caption: string;
}

export interface PlaceSource {
  context: CheckContext;
  page(page: number): PageText | undefined;
  geometry(page: number): PageGeometry | undefined;
}

/** At most this many crops per result: the first matches say enough. */
export const MAX_PLACES = 4;

export function placesFor(result: CheckResult, source: PlaceSource): Place[] {
  const e = result.evidence;
  const page = typeof e.page === "number" ? e.page : undefined;
  if (result.kind === "equation" || result.kind === "figure") return anchorPlaces(result, source);
  // A page the engine failed on is not rendered again.
  if (page === undefined || result.reason === "page-unreadable") return [];
  if (result.verdict === "FLAG") return source.page(page) ? [wholePage(page)] : [];
  switch (result.reason) {
    case "found":
      return offsetsOf(result.evidence.matches)
        .slice(0, MAX_PLACES)
        .flatMap((m, i, all) =>
          spanPlace(source, page, m, "match", all.length > 1 ? `match ${i + 1} of ${all.length}` : "match"),
        );
    case "absent": {
      // A PDF's hint names the closest passage on a page; a flow document's is not a page's.
      const hint = result.evidence.hint as { page?: unknown; passage?: unknown } | undefined;
      const closest = offsetsOf([hint?.passage])[0];
      const on = typeof hint?.page === "number" ? hint.page : page;
      return closest ? spanPlace(source, on, closest, "closest", `the closest passage on page ${on}`) : [];
    }
    case "form-differs": {
      const span = offsetsOf([result.evidence])[0];
      return span ? spanPlace(source, page, span, "page-words", "what the page reads") : [];
    }
    case "wrong-page":
      return elsewhere(result, source);
    default:
      return [];
  }
}

interface Span {
  startUtf16: number;
  endUtf16: number;
}

function offsetsOf(value: unknown): Span[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (v): v is Span =>
      typeof v === "object" &&
      v !== null &&
      Number.isInteger((v as Span).startUtf16) &&
      Number.isInteger((v as Span).endUtf16) &&
      (v as Span).endUtf16 > (v as Span).startUtf16,
  );
}

function wholePage(page: number): Place {
  return { kind: "page", page, region: "page", marks: [], caption: `page ${page}` };
}

/** The words where the check found them on another page: the same check, run on that page. */
function elsewhere(result: CheckResultOf<"wrong-page">, source: PlaceSource): Place[] {
  const { foundOnPages = [], quotation: text } = result.evidence;
  if (text === undefined) return [];
  const places: Place[] = [];
  for (const other of foundOnPages.slice(0, MAX_PLACES)) {
    const there = checkRecord(source.context, { kind: "quotation", page: other, text });
    const first = there.reason === "found" ? offsetsOf(there.evidence.matches)[0] : undefined;
    if (first) {
      places.push(...spanPlace(source, other, first, "elsewhere", `the words are on page ${other}`));
    }
  }
  return places;
}

/**
 * A span of a page's text as a place: marked line by line (the glyphs of the span on each line it
 * touches, or the line's box where glyph boxes are missing), shown with some of the page around it.
 */
function spanPlace(source: PlaceSource, page: number, span: Span, kind: PlaceKind, caption: string): Place[] {
  const text = source.page(page);
  if (!text) return [];
  const geometry = source.geometry(page);
  const marks: Box[] = [];
  const lines: Box[] = [];
  let fontSize = 0;
  for (const line of text.lines) {
    const start = Math.max(span.startUtf16, line.startUtf16);
    const end = Math.min(span.endUtf16, line.endUtf16);
    if (start >= end) continue;
    const glyphs = geometry && glyphUnion(geometry, start, end);
    // Glyph boxes hug the ink; a point of air keeps the mark off the letters.
    marks.push(glyphs ? grow(glyphs, 1) : line.box);
    lines.push(line.box);
    fontSize = Math.max(fontSize, line.fontSize);
  }
  if (marks.length === 0) return [];
  // Whole lines are shown, so a short quotation is read in its sentence: the matched lines and the
  // whole line above and below them in the same column, never a line cut in half.
  const union = unionOfBoxes([...lines, ...marks]);
  const context = [nextLine(text.lines, union, "above"), nextLine(text.lines, union, "below")].filter(
    (b): b is Box => b !== undefined,
  );
  const shown = unionOfBoxes([union, ...context]);
  const padY = Math.min(3, 0.25 * (fontSize || 10));
  const padX = 8;
  const region = {
    left: shown.left - padX,
    bottom: shown.bottom - padY,
    right: shown.right + padX,
    top: shown.top + padY,
  };
  return [{ kind, page, region: clip(region, text.cropBox), marks, caption }];
}

/** The nearest line wholly above or below `box` that shares its column (overlaps it across). */
function nextLine(lines: readonly { box: Box }[], box: Box, side: "above" | "below"): Box | undefined {
  let best: Box | undefined;
  for (const { box: b } of lines) {
    if (b.right <= box.left || b.left >= box.right) continue;
    if (side === "above" ? b.bottom < box.top : b.top > box.bottom) continue;
    if (!best || (side === "above" ? b.bottom < best.bottom : b.top > best.top)) best = b;
  }
  return best;
}

function glyphUnion(geometry: PageGeometry, start: number, end: number): Box | undefined {
  let box: Box | undefined;
  const g = geometry.glyphBoxes;
  for (let i = start; i < end; i++) {
    const l = g[4 * i];
    const b = g[4 * i + 1];
    const r = g[4 * i + 2];
    const t = g[4 * i + 3];
    if (!Number.isFinite(l) || !Number.isFinite(b) || !Number.isFinite(r) || !Number.isFinite(t)) continue;
    if (r <= l || t <= b) continue;
    box = box
      ? {
          left: Math.min(box.left, l),
          bottom: Math.min(box.bottom, b),
          right: Math.max(box.right, r),
          top: Math.max(box.top, t),
        }
      : { left: l, bottom: b, right: r, top: t };
  }
  return box;
}

/**
 * Equation and figure anchors. A PASS shows each place the label is printed: the label's box and
 * the equation's line or the caption. A FAIL shows where the label was seen and not accepted,
 * with the line it sits on, so a person can judge the rejection.
 */
function anchorPlaces(result: CheckResult, source: PlaceSource): Place[] {
  const e = result.evidence;
  const what = result.kind === "equation" ? "the equation and its label" : "the caption and its label";
  const places: Place[] = [];
  for (const place of objects(e.places)) {
    const page = place.page;
    // A figure is shown with its graphics, not only its caption.
    const boxes = [place.labelBox, place.equationBox, place.captionBox, place.figureBox].filter(isBox);
    const text = typeof page === "number" ? source.page(page) : undefined;
    if (!text || typeof page !== "number" || boxes.length === 0) continue;
    places.push({
      kind: "anchor",
      page,
      // Displayed maths reaches above and below its line's box (fractions, sums): room for it.
      region: clip(growXY(unionOfBoxes(boxes), 12, 24), text.cropBox),
      marks: boxes,
      caption: what,
    });
  }
  for (const sighting of objects(e.sightings)) {
    const page = sighting.page;
    const label = sighting.labelBox;
    const text = typeof page === "number" ? source.page(page) : undefined;
    if (!text || typeof page !== "number" || !isBox(label)) continue;
    const reasons = Array.isArray(sighting.reasons) ? sighting.reasons.join(", ") : "";
    // The line the label sits on, in its own column: it overlaps the label both ways.
    const line = text.lines
      .filter((l) => l.box.top > label.bottom && l.box.bottom < label.top)
      .filter((l) => l.box.left <= label.right + 2 && l.box.right >= label.left - 2)
      .map((l) => l.box);
    places.push({
      kind: "sighting",
      page,
      region: clip(growXY(unionOfBoxes([label, ...line]), 12, 24), text.cropBox),
      marks: [label],
      caption: `the label as printed here was not accepted${reasons ? ` (${reasons})` : ""}`,
    });
  }
  return places.slice(0, MAX_PLACES);
}

function objects(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null)
    : [];
}

function isBox(value: unknown): value is Box {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return ["left", "bottom", "right", "top"].every((k) => typeof v[k] === "number" && Number.isFinite(v[k]));
}

function grow(box: Box, by: number): Box {
  return { left: box.left - by, bottom: box.bottom - by, right: box.right + by, top: box.top + by };
}

function growXY(box: Box, x: number, y: number): Box {
  return { left: box.left - x, bottom: box.bottom - y, right: box.right + x, top: box.top + y };
}

function clip(box: Box, to: Box): Box {
  return {
    left: Math.max(box.left, to.left),
    bottom: Math.max(box.bottom, to.bottom),
    right: Math.min(box.right, to.right),
    top: Math.min(box.top, to.top),
  };
}
