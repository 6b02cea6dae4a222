/** Naming an unknown field of an input object, with the known field one edit away when there is one. */

/** The known field one edit (or only a change of case) away from `key`, if exactly one is. */
export function likelyField(key: string, known: Iterable<string>): string | undefined {
  const near = [...known].filter((k) => k.toLowerCase() === key.toLowerCase() || withinOneEdit(k, key));
  return near.length === 1 ? near[0] : undefined;
}

/** ` (did you mean "page"?)` for `Page`, or "" when no known field is near. */
export function didYouMean(key: string, known: Iterable<string>): string {
  const likely = likelyField(key, known);
  return likely ? ` (did you mean ${JSON.stringify(likely)}?)` : "";
}

/** The first key of `value` not in `known`, if any. */
export function firstUnknownField(value: object, known: ReadonlySet<string>): string | undefined {
  for (const key of Object.keys(value)) if (!known.has(key)) return key;
  return undefined;
}

/** Levenshtein distance at most one: one letter replaced, inserted or deleted. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (short.length === long.length) return short.slice(i + 1) === long.slice(i + 1);
  return short.slice(i) === long.slice(i + 1);
}
