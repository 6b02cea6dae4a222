/**
 * The numbers Word prints before numbered paragraphs (word/numbering.xml): each list's levels with
 * their format, start and text (`%1.%2`), counted as the paragraphs come, deeper levels restarting
 * when a shallower one advances. Lists sharing an abstract definition share their counters, as in Word.
 */
import { wAttr, wChild, wChildren, wVal } from "./ooxml.js";
import type { XmlElement } from "./xml.js";

interface Level {
  format: string;
  text: string;
  start: number;
}

const ROMAN: [number, string][] = [
  [1000, "m"],
  [900, "cm"],
  [500, "d"],
  [400, "cd"],
  [100, "c"],
  [90, "xc"],
  [50, "l"],
  [40, "xl"],
  [10, "x"],
  [9, "ix"],
  [5, "v"],
  [4, "iv"],
  [1, "i"],
];

function roman(n: number): string {
  let out = "";
  let rest = n;
  for (const [value, digits] of ROMAN)
    while (rest >= value) {
      out += digits;
      rest -= value;
    }
  return out;
}

function letters(n: number): string {
  const letter = String.fromCharCode(97 + ((n - 1) % 26));
  return letter.repeat(Math.floor((n - 1) / 26) + 1);
}

function formatted(n: number, format: string): string {
  switch (format) {
    case "upperLetter":
      return letters(n).toUpperCase();
    case "lowerLetter":
      return letters(n);
    case "upperRoman":
      return roman(n).toUpperCase();
    case "lowerRoman":
      return roman(n);
    case "decimalZero":
      return n < 10 ? `0${n}` : String(n);
    default:
      return String(n);
  }
}

export class DocxNumbering {
  private readonly abstracts = new Map<string, Level[]>();
  private readonly nums = new Map<string, string>();
  /** A list's restarts (`w:lvlOverride/w:startOverride`), applied when the list is first used. */
  private readonly restarts = new Map<string, Map<number, number>>();
  private readonly counters = new Map<string, number[]>();

  constructor(root: XmlElement | undefined) {
    if (root === undefined) return;
    for (const abstract of wChildren(root, "abstractNum")) {
      const levels: Level[] = [];
      for (const lvl of wChildren(abstract, "lvl")) {
        const ilvl = Number.parseInt(wAttr(lvl, "ilvl") ?? "", 10);
        if (!(ilvl >= 0 && ilvl <= 8)) continue;
        levels[ilvl] = {
          format: wVal(lvl, "numFmt") ?? "decimal",
          text: wVal(lvl, "lvlText") ?? "",
          start: Number.parseInt(wVal(lvl, "start") ?? "1", 10) || 0,
        };
      }
      const id = wAttr(abstract, "abstractNumId");
      if (id !== undefined) this.abstracts.set(id, levels);
    }
    for (const num of wChildren(root, "num")) {
      const id = wAttr(num, "numId");
      const abstract = wVal(num, "abstractNumId");
      if (id === undefined || abstract === undefined) continue;
      this.nums.set(id, abstract);
      const restarts = new Map<number, number>();
      for (const override of wChildren(num, "lvlOverride")) {
        const start = Number.parseInt(wVal(override, "startOverride") ?? "", 10);
        const ilvl = Number.parseInt(wAttr(override, "ilvl") ?? "", 10);
        if (Number.isFinite(start) && ilvl >= 0 && ilvl <= 8) restarts.set(ilvl, start);
      }
      if (restarts.size > 0) this.restarts.set(id, restarts);
    }
  }

  /**
   * Counts a paragraph of list `numId` at level `ilvl` and returns the number it prints, or undefined
   * for a bullet, an unnumbered level or an unknown list.
   */
  next(numId: string, ilvl: number): string | undefined {
    const abstract = this.nums.get(numId);
    const levels = abstract === undefined ? undefined : this.abstracts.get(abstract);
    const level = levels?.[ilvl];
    if (abstract === undefined || levels === undefined || level === undefined) return undefined;
    const counts = this.counters.get(abstract) ?? [];
    this.counters.set(abstract, counts);
    const restarts = this.restarts.get(numId);
    if (restarts !== undefined) {
      this.restarts.delete(numId);
      for (const [at, start] of restarts) {
        counts[at] = start - 1;
        counts.length = Math.min(counts.length, at + 1);
      }
    }
    counts[ilvl] = (counts[ilvl] ?? (levels[ilvl]?.start ?? 1) - 1) + 1;
    counts.length = ilvl + 1;
    if (level.format === "bullet" || level.format === "none") return undefined;
    const printed = level.text.replace(/%([1-9])/gu, (_, k: string) => {
      const at = Number(k) - 1;
      const count = counts[at] ?? levels[at]?.start ?? 1;
      return formatted(count, levels[at]?.format ?? "decimal");
    });
    const number = printed.trim().replace(/[.)]$/u, "");
    return number === "" ? undefined : number;
  }
}

/** A paragraph's own numbering (`w:numPr` in its properties), when it has one; numId 0 removes it. */
export function paragraphNumbering(pPr: XmlElement | undefined): { numId: string; ilvl: number } | undefined {
  const numPr = pPr && wChild(pPr, "numPr");
  const numId = wVal(numPr, "numId");
  if (numId === undefined) return undefined;
  return { numId, ilvl: Number.parseInt(wVal(numPr, "ilvl") ?? "0", 10) || 0 };
}
