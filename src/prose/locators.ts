/**
 * The locator a bibliographic citation gives (`p. 7`, `pp. 7-8`, a bare `7`, `sec. 2`, `eq. (3)`,
 * `fig. 2`), read from its postnote or suffix. Anything else is kept as written and not read.
 */
import { anchorName, type ProseAnchor, pageAnchor } from "./citation-forms.js";

export type Locator =
  | ProseAnchor
  /** A page range, both ends as the draft writes them. */
  | { kind: "pages"; from: ProseAnchor & { kind: "page" }; to: ProseAnchor & { kind: "page" } }
  /** A section or chapter, by its number or title. */
  | { kind: "section"; label: string };

const DASH = "\\s*(?:-{1,3}|[\\u2010-\\u2015])\\s*";
const LABEL = "(\\d+(?:\\.\\d+)*[a-z]?)";
const FORMS: [RegExp, (m: RegExpMatchArray) => Locator][] = [
  [new RegExp(`^(?:pp?\\.?|pages?)?\\s*(\\d+)${DASH}(\\d+)$`, "iu"), (m) => range(m[1], m[2])],
  [/^(?:p\.?|page)?\s*(\d+)$/iu, (m) => pageAnchor(m[1])],
  [
    /^(?:sec(?:t(?:ion)?)?s?\.?|§+|ch(?:ap(?:ter)?)?s?\.?)\s*([\p{L}\p{N}][^;]*)$/iu,
    (m) => ({ kind: "section", label: m[1].trim() }),
  ],
  [new RegExp(`^(?:eqn?s?\\.?|equations?)\\s*\\(?\\s*${LABEL}\\s*\\)?$`, "iu"), (m) => equation(m[1])],
  [new RegExp(`^(?:figs?\\.?|figures?)\\s*\\(?\\s*${LABEL}\\s*\\)?$`, "iu"), (m) => figure(m[1])],
];

function range(from: string, to: string): Locator {
  const a = pageAnchor(from);
  const b = pageAnchor(to);
  return a.digits === b.digits ? a : { kind: "pages", from: a, to: b };
}

function equation(label: string): Locator {
  return { kind: "equation", label };
}

function figure(label: string): Locator {
  return { kind: "figure", label };
}

/**
 * The locator a note names, read the way LaTeX and pandoc write it (`p.~7`, `pp.~7--8`, `\S 2`), or
 * undefined when the note names none this reads. A trailing period or comma is not part of it.
 */
export function readLocator(note: string): Locator | undefined {
  const text = note
    .replace(/~|\\,|\\ /gu, " ")
    .replace(/\\S\s*/gu, "§")
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/[.,;:]$/u, "")
    .trim();
  if (text === "") return undefined;
  for (const [re, make] of FORMS) {
    const m = text.match(re);
    if (m) return make(m);
  }
  return undefined;
}

/** How a report names a locator: `p. 7`, `pp. 7-8`, `sec. 2`, `Eq. (3)`, `Fig. (2)`. */
export function locatorName(locator: Locator): string {
  if (locator.kind === "pages") return `pp. ${locator.from.digits}-${locator.to.digits}`;
  if (locator.kind === "section") return `sec. ${locator.label}`;
  return anchorName(locator);
}
