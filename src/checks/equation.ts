/**
 * The equation check: is this exact label printed beside a displayed equation? It reads the
 * anchors record; it never says the paper lacks the equation, only what extraction saw.
 */
import type { AnchorsRecord } from "../layout/anchors.js";
import { unsupportedEquationLabel } from "../layout/labels.js";
import type { RejectionReason } from "../layout/rejection-reasons.js";
import type { CheckResult } from "./result.js";
import { unfoundOrUnreadable } from "./unreadable-label.js";

const NO_EVIDENCE_OF_ABSENCE = "this is no evidence that the paper lacks it";

export function checkEquation(
  anchors: AnchorsRecord | undefined,
  record: { id?: string; label: string },
): CheckResult {
  const base = { id: record.id, kind: "equation" as const };
  const label = record.label;
  const shown = `equation (${label})`;
  const unsupported = unsupportedEquationLabel(label);
  if (unsupported) {
    return {
      ...base,
      verdict: "FAIL",
      reason: "unsupported-equation-label",
      message: `${shown} cannot be checked: ${unsupported}`,
      evidence: { label },
    };
  }
  if (!anchors) {
    return {
      ...base,
      verdict: "FAIL",
      reason: "equation-evidence-unavailable",
      message: `${shown} cannot be checked: the stored extraction record predates equation records; start a new session on the PDF`,
      evidence: { label },
    };
  }
  const found = anchors.equations.filter((e) => e.label === label);
  if (found.length > 0) {
    const pages = unique(found.map((e) => e.page));
    return {
      ...base,
      verdict: "PASS",
      reason: "found",
      message: `${shown} is printed beside a displayed equation on ${pageList(pages)}`,
      evidence: {
        label,
        pages,
        places: found.map((e) => ({
          page: e.page,
          labelBox: e.labelBox,
          equationBox: e.equationBox,
          side: e.side,
        })),
      },
    };
  }
  const sightings = anchors.rejectedEquationCandidates.filter((c) => c.label === label);
  const accepted = unique(anchors.equations.map((e) => e.label));
  let why: string;
  if (sightings.length > 0) {
    const reasons = unique(sightings.flatMap((s) => s.reasons)).sort() as RejectionReason[];
    why = `the label was seen on ${pageList(unique(sightings.map((s) => s.page)))} but extraction did not accept it as a displayed equation's label (${reasons.join(", ")})`;
  } else {
    why = `extraction found no candidate with this label, and ${
      accepted.length === 0
        ? "no equation label in this document is supported"
        : `the document's accepted equation labels are ${labelList(accepted)}`
    }`;
  }
  const children = accepted.filter((l) => new RegExp(`^${escapeRegExp(label)}[a-z]$`).test(l));
  if (children.length > 0) why += `; it prints ${children.map((l) => `(${l})`).join(", ")}, not (${label})`;
  const unreadable = anchors.pagesWithoutText.length;
  if (unreadable > 0) why += `; ${unreadable} page(s) gave no text to read`;
  return unfoundOrUnreadable(anchors, shown, {
    ...base,
    verdict: "FAIL",
    reason: "equation-unresolved",
    message: `${shown} is unresolved: ${why}; ${NO_EVIDENCE_OF_ABSENCE}`,
    evidence: {
      label,
      sightings: sightings.map((s) => ({
        page: s.page,
        printed: s.printed,
        labelBox: s.labelBox,
        reasons: s.reasons,
      })),
      acceptedLabels: accepted.length,
      ...(unreadable > 0 ? { pagesWithoutText: anchors.pagesWithoutText } : {}),
    },
  });
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

export function pageList(pages: number[]): string {
  if (pages.length === 1) return `page ${pages[0]}`;
  return `pages ${pages.slice(0, -1).join(", ")} and ${pages[pages.length - 1]}`;
}

/** A short list of labels: all of a few, or the first and last of many. */
export function labelList(labels: string[]): string {
  const shown = labels.map((l) => `(${l})`);
  if (shown.length <= 6) return shown.join(", ");
  return `${shown.slice(0, 3).join(", ")}, ... ${shown.slice(-2).join(", ")} (${shown.length} in all)`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
