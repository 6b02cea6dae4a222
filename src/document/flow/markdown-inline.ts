/**
 * Markdown's inline syntax read as the words it renders: emphasis marks, link targets, footnote
 * marks, inline HTML tags and backslash escapes dropped, entities decoded, and punctuation made
 * typographic as pandoc renders it (`--` an en dash, `---` an em dash). Code spans
 * keep their characters as written.
 */

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  shy: "\u00ad",
  ndash: "\u2013",
  mdash: "\u2014",
  hellip: "\u2026",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
};

/**
 * Inline Markdown to its rendered words. `references` are the document's link reference labels (folded
 * by referenceLabel): a bracketed `[label]` naming one is a link and renders as its text.
 */
export function renderInline(source: string, references: ReadonlySet<string> = new Set()): string {
  // Code spans are cut out first: nothing inside them is syntax.
  const pieces = source.split(/(?<!`)(`{1,1000})(?!`)([\s\S]{0,1000}?[^`])\1(?!`)/u);
  const out: string[] = [];
  for (let i = 0; i < pieces.length; i += 3) {
    out.push(renderProse(pieces[i], references));
    if (i + 2 < pieces.length) out.push(pieces[i + 2].trim());
  }
  return out.join("");
}

/** Escaped characters are held as private-use stand-ins while the syntax is read, then put back. */
const ESCAPE_BASE = 0xf0000;

/** A link reference's label as Markdown matches it: case and inner whitespace folded. */
export function referenceLabel(label: string): string {
  return label.trim().replace(/\s+/gu, " ").toLowerCase();
}

function renderProse(text: string, references: ReadonlySet<string>): string {
  let s = text.replace(/\\([!-/:-@[-`{-~])/gu, (_, ch: string) =>
    String.fromCodePoint(ESCAPE_BASE + ch.charCodeAt(0)),
  );
  s = s
    .replace(/\[\^[^[\]\s]{1,200}\]/gu, "")
    .replace(/!\[([^[\]]{0,1000})\]\([^)]{0,2000}\)/gu, "$1")
    .replace(
      /\[([^[\]]{1,1000})\]\((?:[^()\s]|\([^()]{0,2000}\)){0,2000}(?:\s{1,20}"[^"]{0,1000}")?\)/gu,
      "$1",
    )
    .replace(/\[([^[\]]{1,1000})\]\[[^[\]]{0,1000}\]/gu, "$1")
    .replace(/\[([^[\]]{1,1000})\](?![[(:])/gu, (whole, label: string) =>
      references.has(referenceLabel(label)) ? label : whole,
    )
    .replace(/<((?:https?|mailto):[^>\s]{1,2000})>/gu, "$1")
    // An email autolink renders as the address.
    .replace(/<([^\s<>@]{1,200}@[^\s<>@]{1,200}\.[^\s<>@]{1,50})>/gu, "$1")
    .replace(/<\/?[A-Za-z][\w-]{0,100}(?:\s[^<>]{0,2000})?\/?>/gu, "")
    .replace(/\{[#.][^{}]{0,1000}\}/gu, "");
  s = stripEmphasis(s);
  s = s
    .replace(/---/gu, "\u2014")
    .replace(/--/gu, "\u2013")
    .replace(/&(#x[0-9a-f]{1,8}|#\d{1,8}|[a-z]{1,32});/giu, (whole, name: string) => entity(name) ?? whole);
  return s.replace(/[\u{f0000}-\u{f007f}]/gu, (ch) =>
    String.fromCharCode((ch.codePointAt(0) ?? ESCAPE_BASE) - ESCAPE_BASE),
  );
}

function stripEmphasis(text: string): string {
  let s = text;
  for (let pass = 0; pass < 3; pass++) {
    const before = s;
    s = s
      .replace(/(\*\*|__)(?=\S)([\s\S]{0,1000}?\S)\1/gu, "$2")
      .replace(/\*(?=[^\s*])([\s\S]{0,1000}?[^\s*])\*/gu, "$1")
      .replace(/(?<![\p{L}\p{N}_])_(?=[^\s_])([\s\S]{0,1000}?[^\s_])_(?![\p{L}\p{N}_])/gu, "$1")
      .replace(/~~(?=\S)([\s\S]{0,1000}?\S)~~/gu, "$1");
    if (s === before) break;
  }
  return s;
}

function entity(name: string): string | undefined {
  if (name.startsWith("#")) {
    const code =
      name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return ENTITIES[name.toLowerCase()];
}
