/**
 * Where a typed excerpt first parts from the stored text, told so a writer sees both: the code point
 * offset of the first difference and a short stretch of each side from a little before it, written as
 * JSON strings so line breaks, tabs and other invisible characters show.
 */

/** Code points shown before the first difference and in all. */
const BEFORE = 12;
const SHOWN = 48;

export function describeFirstDifference(stored: string, typed: string): string {
  const a = [...stored];
  const b = [...typed];
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const from = Math.max(0, at - BEFORE);
  const side = (cps: string[]) => {
    const text = cps.slice(from, from + SHOWN).join("");
    return `${from > 0 ? "…" : ""}${JSON.stringify(text)}${from + SHOWN < cps.length ? "…" : ""}`;
  };
  return `first difference at code point ${at} of the excerpt: the snapshot has ${side(a)}, the excerpt has ${side(b)}`;
}
