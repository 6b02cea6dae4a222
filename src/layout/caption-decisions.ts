/**
 * The document-wide step of the caption rules. A candidate with no figure graphics beside it is
 * still a caption when it shares its formatting with a caption that has them; a candidate with no
 * separator after its number must be set apart from the running text, or stand by a figure on the
 * side where this document's figures stand (a label in the words' own font and size, as a sentence
 * opening with a reference sets it, is not set apart). Which side of its caption a figure stands on is read
 * from the captions that have graphics on one side only, and decides each caption's figure box.
 */
import type { Box } from "../document/model.js";
import { decideCaption } from "./caption-decision.js";
import { type CaptionFeatures, plainLabel } from "./caption-features.js";
import type { FigureBoxOmission } from "./caption-rejections.js";
import type { CaptionCandidate } from "./figure-captions.js";
import { type PanelMark, type SubfigurePanel, subfigurePanels } from "./subfigure-panels.js";

/** The running text's font and printed size, as read from the document's body lines. */
export interface BodyStyle {
  font: string;
  size: number;
}

export interface DecidedCaption extends CaptionCandidate {
  /** The figure's graphics, when the caption's figure is known for sure. */
  figureBox?: Box;
  /** Why figureBox is left out of an accepted caption. */
  figureBoxOmitted?: FigureBoxOmission;
  /** Subfigure panels of an accepted caption. */
  panels: SubfigurePanel[];
}

type Side = "above" | "below";

/** Captions marked as such that show a document marks its captions (more than one could be a stray). */
const MARKED_CAPTIONS = 2;

export function decideCaptions(
  candidates: CaptionCandidate[],
  body: BodyStyle | undefined,
  marks: (page: number) => readonly PanelMark[] = () => [],
): DecidedCaption[] {
  // The label's font against the running text's: a document feature, known once every page is read.
  const withBody = candidates.map((c) => ({
    ...c,
    features: { ...c.features, likeBody: likeBody(c, body) },
  }));
  const plain = (c: CaptionCandidate) => plainLabel(c.features);
  const side = figureSide(withBody.filter((c) => !plain(c)));
  // Without captions marked as such, plain ones that stand by graphics on one side (most of them
  // the same side) show it: a paragraph that opens with a reference stands by no figure, or not so.
  const placement: Side = side.side ?? figureSide(withBody.filter(plain)).side ?? "above";
  // A document that marks its captions (a separator, a label set apart) marks them all alike: a plain
  // line there is a sentence opening with a reference, even under a table's rule or beside a drawing.
  const marked = withBody.filter((c) => c.rejections.length === 0 && !plain(c)).length;
  const decided = withBody.map((c): DecidedCaption => {
    const features: CaptionFeatures = {
      ...c.features,
      documentMarksCaptions: marked >= MARKED_CAPTIONS,
      graphicsOnDocumentSide: c.graphics[placement] !== undefined,
    };
    const decision = decideCaption(features, "formatting");
    return { ...c, features, rejections: decision.reasons, decidedBy: decision.decidedBy, panels: [] };
  });
  const anchored = new Set(
    decided.filter((c) => c.rejections.length === 0 && hasGraphics(c)).map((c) => c.style),
  );
  for (const c of decided) {
    if (c.rejections.length > 0) continue;
    c.features.sharesAnchoredStyle = anchored.has(c.style);
    const decision = decideCaption(c.features);
    c.rejections = decision.reasons;
    c.decidedBy = decision.decidedBy;
    if (c.rejections.length > 0) continue;
    const box = figureBox(c, side);
    if ("box" in box) c.figureBox = box.box;
    else c.figureBoxOmitted = box.omitted;
    c.panels = subfigurePanels(c, marks(c.page));
  }
  return decided;
}

function hasGraphics(c: CaptionCandidate): boolean {
  return c.graphics.above !== undefined || c.graphics.below !== undefined;
}

/** Same font and printed size as the running text. */
function likeBody(c: CaptionCandidate, body: BodyStyle | undefined): boolean {
  if (!body) return true;
  return c.labelFont === body.font && Math.abs(c.labelSize - body.size) <= body.size * 0.1;
}

/**
 * The side of their captions this document's figures stand on: the side that the captions marked
 * as captions (a separator, or a label set apart from the running text) with graphics on one side
 * only show most often (undefined on a tie or with none), and how many show it.
 */
function figureSide(candidates: CaptionCandidate[]): { side?: Side; count: number } {
  let above = 0;
  let below = 0;
  for (const c of candidates) {
    if (c.rejections.length > 0) continue;
    if (c.graphics.above && !c.graphics.below) above++;
    else if (c.graphics.below && !c.graphics.above) below++;
  }
  if (above > below) return { side: "above", count: above };
  if (below > above) return { side: "below", count: below };
  return { count: above };
}

function figureBox(
  c: CaptionCandidate,
  side: { side?: Side; count: number },
): { box: Box } | { omitted: FigureBoxOmission } {
  const { above, below } = c.graphics;
  if (above && below) {
    if (side.side) return { box: (side.side === "above" ? above : below).box };
    // The rule (a figure above its caption) holds when the page agrees: its figure stands closer.
    if (above.gap <= below.gap) return { box: above.box };
    return { omitted: "both-sides" };
  }
  const only = above ? "above" : below ? "below" : undefined;
  if (!only) return { omitted: "no-graphics" };
  if (side.side && side.side !== only && side.count >= 2) return { omitted: "unexpected-side" };
  return { box: (only === "above" ? above : below)!.box };
}
