/**
 * The figure check: does a figure caption carry exactly this label? It reads the anchors record's
 * captions; the figure's content is never checked.
 */
import type { AnchorsRecord } from "../layout/anchors.js";
import { CAPTION_REJECTION_MEANINGS } from "../layout/caption-rejections.js";
import { pageList } from "./equation.js";
import type { CheckResult } from "./result.js";
import { unfoundOrUnreadable } from "./unreadable-label.js";

export function checkFigure(
  anchors: AnchorsRecord | undefined,
  record: { id?: string; label: string },
): CheckResult {
  const base = { id: record.id, kind: "figure" as const };
  const label = record.label;
  if (!anchors) {
    return {
      ...base,
      verdict: "FAIL",
      // The record that lacks equation anchors lacks caption anchors too: the same remedy applies.
      reason: "equation-evidence-unavailable",
      message: `figure ${label} cannot be checked: the stored extraction record predates figure caption records; start a new session on the PDF`,
      evidence: { label },
    };
  }
  const found = anchors.figures.filter((f) => f.label === label);
  if (found.length > 0) {
    const pages = [...new Set(found.map((f) => f.page))];
    return {
      ...base,
      verdict: "PASS",
      reason: "found",
      message: `a figure caption carries the label ${label} on ${pageList(pages)} ("${clip(found[0].text)}")`,
      evidence: {
        label,
        pages,
        places: found.map((f) => ({
          page: f.page,
          caption: f.text,
          labelBox: f.labelBox,
          captionBox: f.captionBox,
          ...(f.figureBox ? { figureBox: f.figureBox } : {}),
        })),
      },
    };
  }
  const panel = subfigureOf(anchors, label);
  if (panel?.found) {
    const { figure, letter, found: p } = panel;
    return {
      ...base,
      verdict: "PASS",
      reason: "found",
      message: `figure ${figure.label}'s caption is on page ${figure.page} ("${clip(figure.text)}") and its panel (${letter}) is ${p.source === "caption" ? "enumerated by the caption" : "printed in the figure's area"}`,
      evidence: {
        label,
        pages: [figure.page],
        places: [
          {
            page: figure.page,
            caption: figure.text,
            labelBox: figure.labelBox,
            captionBox: figure.captionBox,
            ...(figure.figureBox ? { figureBox: figure.figureBox } : {}),
            panel: { letter, source: p.source, ...(p.box ? { box: p.box } : {}) },
          },
        ],
      },
    };
  }
  const seen = anchors.rejectedCaptions.filter((c) => c.label === label);
  const labels = [...new Set(anchors.figures.map((f) => f.label))];
  const parts = [`no figure caption carries the label ${label}`];
  if (panel) {
    const letters = (panel.figure.panels ?? []).map((p) => `(${p.letter})`);
    parts.push(
      `figure ${panel.figure.label}'s caption is on page ${panel.figure.page}, but no panel (${panel.letter}) is printed in its area or enumerated by its caption (${letters.length > 0 ? `its panels are ${letters.join(", ")}` : "no panels were read"})`,
    );
  }
  for (const s of seen.slice(0, 3)) {
    parts.push(
      `"${clip(s.text, 40)}" on page ${s.page} is not a caption: ${s.reasons.map((r) => CAPTION_REJECTION_MEANINGS[r]).join("; ")}`,
    );
  }
  parts.push(
    labels.length === 0
      ? "no figure caption was found in this document"
      : `the document's figure captions carry ${labels.length <= 8 ? labels.join(", ") : `${labels.slice(0, 4).join(", ")}, ... ${labels.slice(-2).join(", ")} (${labels.length} in all)`}`,
  );
  if (anchors.pagesWithoutText.length > 0)
    parts.push(`${anchors.pagesWithoutText.length} page(s) gave no text to read`);
  return unfoundOrUnreadable(anchors, `figure ${label}`, {
    ...base,
    verdict: "FAIL",
    reason: "absent",
    message: `${parts.join("; ")}; this is no evidence that the paper lacks the figure`,
    evidence: {
      label,
      sightings: seen.map((s) => ({ page: s.page, text: s.text, labelBox: s.labelBox, reasons: s.reasons })),
      captionLabels: labels,
    },
  });
}

/**
 * A subfigure label "5a": the caption of figure 5 and its panel (a), when such a caption exists
 * (`found` is the panel, when the figure has it).
 */
function subfigureOf(anchors: AnchorsRecord, label: string) {
  const m = /^(.*\d)([a-z])$/.exec(label);
  if (!m) return undefined;
  const figures = anchors.figures.filter((f) => f.label === m[1]);
  if (figures.length === 0) return undefined;
  for (const figure of figures) {
    const found = figure.panels?.find((p) => p.letter === m[2]);
    if (found) return { figure, letter: m[2], found };
  }
  return { figure: figures[0], letter: m[2], found: undefined };
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
