/**
 * Subfigure panels: the letters of a figure's panels, "(a)", "(b)", read where a person sees them.
 * A panel counts when its label is printed inside the figure's area (between the figure's graphics
 * and its caption included) or when the caption enumerates it ("(a) the original data; (b) ..."),
 * and the panels run in order from (a).
 */
import type { Box, PageText } from "../document/model.js";
import type { CaptionCandidate } from "./figure-captions.js";

/** A line of the page's text that opens with a panel label "(a)". */
export interface PanelMark {
  letter: string;
  box: Box;
}

export interface SubfigurePanel {
  /** The panel's letter, as printed: "a". */
  letter: string;
  /** Where it was read: printed in the figure's area, or enumerated by the caption. */
  source: "figure-area" | "caption";
  /** The line that prints it, for a panel read in the figure's area. */
  box?: Box;
}

/** "(a)" opening the line or after a space, followed by the panel's words (a capital) or nothing. */
const PANEL_TOKEN = /(?:^|\s)\(([a-z])\)(?=\s+\p{Lu}|\s*\(|\s*$)/gu;
const ENUMERATED = /(?:^|[\s:;,.])\(([a-z])\)(?=[\s,;:.])/g;
/** Lines read at most per page for panel marks (bounds the work on a page of many lines). */
const MAX_LINES = 5000;

/** The lines of a page that open with a panel label. */
export function panelMarks(text: PageText): PanelMark[] {
  const out: PanelMark[] = [];
  const lines = text.lines;
  for (let i = 0; i < lines.length && i < MAX_LINES; i++) {
    const l = lines[i];
    if (l.endUtf16 - l.startUtf16 > 200) continue;
    const line = text.text.slice(l.startUtf16, l.endUtf16);
    // A row of panel labels only ("(a) (b)", the panels side by side) names each of them.
    // Panels side by side share a text line: "(a) Morning run (b) Evening run", "(a) (b)".
    for (const m of line.matchAll(PANEL_TOKEN)) out.push({ letter: m[1], box: l.box });
  }
  return out;
}

/** The panels of an accepted caption whose figure box is known, or that its text enumerates. */
export function subfigurePanels(
  c: CaptionCandidate & { figureBox?: Box },
  marks: readonly PanelMark[],
): SubfigurePanel[] {
  const out: SubfigurePanel[] = [];
  const seen = new Set<string>();
  if (c.figureBox) {
    const area = figureArea(c.figureBox, c.captionBox, c.labelSize > 0 ? c.labelSize : 10);
    for (const m of marks) {
      if (seen.has(m.letter) || !inside(m.box, area) || overlapsBox(m.box, c.captionBox)) continue;
      seen.add(m.letter);
      out.push({ letter: m.letter, source: "figure-area", box: m.box });
    }
  }
  const rest = c.fullText.slice(c.fullText.search(/\s/) + 1);
  for (const m of rest.matchAll(ENUMERATED)) {
    if (seen.has(m[1])) continue;
    seen.add(m[1]);
    out.push({ letter: m[1], source: "caption" });
  }
  out.sort((a, b) => (a.letter < b.letter ? -1 : a.letter > b.letter ? 1 : 0));
  // Panels are lettered in order from (a): a lone "(s)" of a unit, a "(c)" with no (b), are no panels.
  const panels: SubfigurePanel[] = [];
  for (const p of out) {
    if (p.letter.charCodeAt(0) !== 97 + panels.length) break;
    panels.push(p);
  }
  return panels;
}

/**
 * The figure's graphics, the space between them and the caption, and two lines beyond their far
 * side (where subcaptions stand under a figure whose caption is set above it), across both widths.
 */
function figureArea(figure: Box, caption: Box, em: number): Box {
  const above = figure.bottom >= caption.top - 1;
  return {
    left: Math.min(figure.left, caption.left),
    right: Math.max(figure.right, caption.right),
    bottom: above ? Math.min(figure.bottom, caption.top) : figure.bottom - em * FAR_SIDE_LINES,
    top: above ? figure.top + em * FAR_SIDE_LINES : Math.max(figure.top, caption.bottom),
  };
}

/** Lines (in em) beyond the figure's far side that can hold its subcaptions. */
const FAR_SIDE_LINES = 2.5;

function inside(b: Box, area: Box): boolean {
  const cx = (b.left + b.right) / 2;
  const cy = (b.bottom + b.top) / 2;
  return cx >= area.left && cx <= area.right && cy >= area.bottom && cy <= area.top;
}

function overlapsBox(a: Box, b: Box): boolean {
  return a.left < b.right && a.right > b.left && a.bottom < b.top && a.top > b.bottom;
}
