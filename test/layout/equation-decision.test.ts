// The decision on an equation-label candidate, predicate by predicate, on features built by hand
// (no page): each predicate refuses what it names and holds for nothing else, and each waiver keeps
// its predicate from holding.
import { describe, expect, it } from "vitest";
import { decideEquation, EQUATION_PREDICATES } from "../../src/layout/equation-decision.js";
import type { EquationFeatures } from "../../src/layout/equation-features.js";

/** A right-side label beside a centred display of mathematics: accepted. */
const display: EquationFeatures = {
  emPt: 10,
  inColumn: true,
  columnBeside: false,
  inPageMargin: false,
  superscript: false,
  named: false,
  betweenRows: false,
  atRightEdge: true,
  atLeftEdge: false,
  afterTab: false,
  side: "right",
  textJoined: false,
  textAfter: false,
  leftLabelClear: false,
  hasContent: true,
  closesBlock: false,
  contentAfter: false,
  mathChars: 12,
  mathShare: 0.8,
  fractionBars: 0,
  mathNearby: true,
  proseWords: undefined,
  gapPt: 80,
  marginProse: false,
  setAgainstLabel: false,
  alignedRow: 0,
  formulaRow: true,
  listItem: false,
  fillsAsDisplay: true,
  continuedBelow: undefined,
  continuedRow: false,
  setApart: true,
  setApartInWider: undefined,
  displayRow: false,
  tabular: false,
  graphicsBeside: false,
  crowded: undefined,
  proseRow: undefined,
  fillsColumn: undefined,
};

/** A line of running text that runs up to the label at the margin. */
const runningLine: Partial<EquationFeatures> = {
  marginProse: true,
  setAgainstLabel: true,
  fillsAsDisplay: false,
  formulaRow: false,
  mathShare: 0.1,
  gapPt: 12,
};

const cases: Record<string, { holds: Partial<EquationFeatures>; waived?: Partial<EquationFeatures> }> = {
  "outside-columns": {
    holds: {
      inColumn: false,
      atRightEdge: false,
      side: undefined,
      marginProse: undefined,
      setApart: undefined,
    },
  },
  "in-page-margin": { holds: { inPageMargin: true } },
  "raised-small": { holds: { superscript: true } },
  "text-joined": { holds: { textJoined: true } },
  "text-after": {
    holds: { textAfter: true },
    waived: { textAfter: true, side: "left", atLeftEdge: true, atRightEdge: false, leftLabelClear: true },
  },
  "off-edge": {
    holds: { atRightEdge: false, side: undefined },
    waived: { atRightEdge: false, afterTab: true },
  },
  "nothing-beside": {
    holds: {
      hasContent: false,
      mathChars: undefined,
      mathShare: undefined,
      mathNearby: true,
      marginProse: undefined,
      setApart: undefined,
      tabular: undefined,
    },
  },
  "no-math": {
    holds: { mathChars: 0, mathShare: 0, mathNearby: false },
    waived: { mathChars: 0, mathShare: 0, mathNearby: true },
  },
  "words-after-left-label": {
    holds: { side: "left", atLeftEdge: true, atRightEdge: false, proseWords: true, mathChars: 1 },
    waived: { side: "left", atLeftEdge: true, atRightEdge: false, proseWords: true, fractionBars: 1 },
  },
  "running-line": { holds: runningLine, waived: { ...runningLine, fillsAsDisplay: true } },
  "closes-running-text": {
    holds: { ...runningLine, setAgainstLabel: false, closesBlock: true },
    waived: { ...runningLine, setAgainstLabel: false, closesBlock: true, continuedRow: true },
  },
  "sentence-beside": { holds: { proseRow: true } },
  crowded: { holds: { crowded: true } },
  "not-set-apart": {
    holds: { setApart: false, setApartInWider: false },
    waived: { setApart: false, setApartInWider: false, displayRow: true },
  },
  "table-row": { holds: { tabular: true } },
  "on-graphics": { holds: { graphicsBeside: true } },
};

describe("equation decision", () => {
  it("accepts a label at its column's edge beside a centred display", () => {
    expect(decideEquation(display)).toEqual({ reasons: [], decidedBy: [] });
  });

  it("has a case for every predicate of the table", () => {
    expect(Object.keys(cases).sort()).toEqual(EQUATION_PREDICATES.map((p) => p.name).sort());
  });

  for (const p of EQUATION_PREDICATES) {
    const c = cases[p.name];
    it(`${p.name}: refuses for ${p.reasons.join(", ")} and nothing else holds`, () => {
      const decision = decideEquation({ ...display, ...c.holds });
      expect(decision.decidedBy).toEqual([p.name]);
      expect(decision.reasons).toEqual([...p.reasons].sort());
    });
    if (c.waived)
      it(`${p.name}: waived by what its features name`, () => {
        expect(decideEquation({ ...display, ...c.waived }).decidedBy).toEqual([]);
      });
  }

  it("not-set-apart: waived by a column filled as mathematics (an OCR reading's waiver)", () => {
    expect(decideEquation({ ...display, setApart: false, fillsColumn: true }).decidedBy).toEqual([]);
    // The text layer's formula row filling its line is no such waiver: it must be set apart still.
    expect(decideEquation({ ...display, setApart: false, fillsAsDisplay: true }).decidedBy).toEqual([
      "not-set-apart",
    ]);
  });

  it("refuses for no mathematics where nothing beside the label was measured as zero", () => {
    const decision = decideEquation({ ...display, hasContent: false, mathChars: 0, mathShare: 0 });
    expect(decision.decidedBy).toEqual(["nothing-beside", "no-math"]);
    expect(decision.reasons).toEqual(["no-display", "no-math"]);
  });

  it("never waives on an unknown: features not measured keep a refusal", () => {
    const unknown = {
      setApart: undefined,
      setApartInWider: undefined,
      displayRow: undefined,
      fillsColumn: undefined,
    };
    expect(decideEquation({ ...display, ...unknown }).decidedBy).toEqual(["not-set-apart"]);
    const left = { side: "left" as const, atLeftEdge: true, atRightEdge: false, textAfter: true };
    expect(decideEquation({ ...display, ...left, leftLabelClear: false }).decidedBy).toEqual(["text-after"]);
  });

  it("lists every predicate that holds, and each reason once", () => {
    const decision = decideEquation({ ...display, ...runningLine, textJoined: true, textAfter: true });
    expect(decision.decidedBy).toEqual(["text-joined", "text-after", "running-line"]);
    expect(decision.reasons).toEqual(["no-display", "text-after-label"]);
  });
});
