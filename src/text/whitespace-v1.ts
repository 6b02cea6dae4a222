/**
 * The `whitespace_v1` normalisation profile, with a map from every normalised UTF-16 unit back to
 * the original: each run of Unicode whitespace (the White_Space property) becomes one ASCII space
 * and whitespace at either end is dropped. Nothing else changes: case, punctuation, ligatures,
 * hyphens and spelling stay as they are.
 */

export interface WhitespaceV1Text {
  /** The normalised string. */
  text: string;
  /** For each normalised UTF-16 unit, the UTF-16 offset in the original where it starts. */
  startUtf16: Int32Array;
  /** For each normalised UTF-16 unit, the UTF-16 offset in the original one past where it ends. */
  endUtf16: Int32Array;
}

/** Unicode White_Space; every such character is in the BMP, so one UTF-16 unit decides. */
export function isUnicodeWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function whitespaceV1(original: string): WhitespaceV1Text {
  const n = original.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  const parts: string[] = [];
  let out = 0;
  let runStart = -1;
  let i = 0;
  while (i < n) {
    const code = original.charCodeAt(i);
    if (isUnicodeWhitespace(code)) {
      if (runStart < 0) runStart = i;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && !isUnicodeWhitespace(original.charCodeAt(j))) j++;
    if (runStart >= 0 && out > 0) {
      parts.push(" ");
      starts[out] = runStart;
      ends[out] = i;
      out++;
    }
    runStart = -1;
    parts.push(original.slice(i, j));
    for (let k = i; k < j; k++) {
      starts[out] = k;
      ends[out] = k + 1;
      out++;
    }
    i = j;
  }
  return { text: parts.join(""), startUtf16: starts.slice(0, out), endUtf16: ends.slice(0, out) };
}
