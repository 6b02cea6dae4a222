/**
 * The words a draft names a page, an equation or a figure with, one row per language, as data. Each
 * row names where its words come from: the abbreviations the language's citation styles print (DIN
 * 1505 and the Chicago, MLA and APA translations for pages), babel's `\figurename` and `\tablename`
 * forms, and the words Word and LibreOffice insert as caption categories. An abbreviation is written
 * with its period; matching is case-insensitive. A word of every language counts in every draft.
 */

export interface CitationLanguage {
  /** BCP 47 language tag. */
  language: string;
  /** Before a page number: `S. 12`, `pág. 45`. */
  page: readonly string[];
  /** Before an equation label in parentheses: `Gl. (19)`. */
  equation: readonly string[];
  /** Before a figure label in parentheses: `Abb. (6)`. */
  figure: readonly string[];
  source: string;
}

export const CITATION_LANGUAGES: readonly CitationLanguage[] = [
  {
    language: "en",
    page: ["p.", "page"],
    equation: ["eq.", "equation"],
    figure: ["fig.", "figure"],
    source: "Chicago, APA; amsmath \\eqref prose; babel english",
  },
  {
    language: "de",
    page: ["S.", "Seite"],
    equation: ["Gl.", "Gleichung"],
    figure: ["Abb.", "Abbildung"],
    source: "DIN 1505 'S.'; babel ngerman 'Abbildung'; 'Gl.' in German technical writing",
  },
  {
    language: "fr",
    page: ["p.", "page"],
    equation: ["éq.", "équation"],
    figure: ["fig.", "figure"],
    source: "Chicago français 'p.'; babel french",
  },
  {
    language: "es",
    page: ["p.", "pág.", "página"],
    equation: ["ec.", "ecuación"],
    figure: ["fig.", "figura"],
    source: "APA en español 'p.', RAE 'pág.'; babel spanish 'Figura'",
  },
  {
    language: "it",
    page: ["p.", "pag.", "pagina"],
    equation: ["eq.", "equazione"],
    figure: ["fig.", "figura"],
    source: "Italian citation usage 'p.', 'pag.'; babel italian 'Figura'",
  },
  {
    language: "pt",
    page: ["p.", "pág.", "página"],
    equation: ["eq.", "equação"],
    figure: ["fig.", "figura"],
    source: "ABNT NBR 6023 'p.'; babel portuguese 'Figura'",
  },
  {
    language: "nl",
    page: ["p.", "blz.", "pagina"],
    // Not "vgl.": German writes it for "compare" before any parenthesis.
    equation: ["vergelijking"],
    figure: ["fig.", "figuur"],
    source: "Dutch usage 'blz.'; babel dutch 'Figuur'",
  },
  {
    language: "pl",
    page: ["s.", "str.", "strona"],
    equation: ["wz.", "wzór", "wzoru"],
    figure: ["rys.", "rysunek"],
    source: "PN-ISO 690 's.'; babel polish 'Rysunek'",
  },
  {
    language: "ru",
    page: ["с.", "стр.", "страница"],
    equation: ["ур.", "уравнение", "уравнения"],
    figure: ["рис.", "рисунок"],
    source: "GOST 7.1 'с.'; babel russian 'Рис.'",
  },
  // Chinese and Japanese set the page after its number (第 7 页, 7 頁): see CJK_PAGE in citation-forms.ts.
  { language: "zh", page: [], equation: ["式"], figure: ["图", "圖"], source: "ctex '图'; GB/T 7714" },
  { language: "ja", page: [], equation: ["式"], figure: ["図"], source: "jsarticle '図'; SIST 02" },
];

export type CitationWordKind = "page" | "equation" | "figure";

function escapedForPattern(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Not after a letter, a digit or a period, so "pp." is not read as "p.", "freq." is not "eq." and
 * "U.S. 50" is not page 50. Han words have no such start: Chinese runs them into the words before them
 * (如图 (3) 所示).
 */
const WORD_START = "(?<![\\p{L}\\p{N}.])";

const IDEOGRAPHIC = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+$/u;

/**
 * The words of one kind as a pattern that takes the space after them. Before a page number, an
 * abbreviation keeps its period (`S. 12`, `S.12`) and a word needs a space (`Seite 12`); English's
 * `p 7` is read as it always was. Before a label in parentheses, the period and the space are optional
 * (`Eq(3)`, `Gl. (19)`). A Han word may stand right before its number.
 */
export function citationWordPattern(kind: CitationWordKind): string {
  const words = new Set<string>();
  for (const row of CITATION_LANGUAGES)
    for (const word of row[kind]) words.add(word.toLocaleLowerCase("und"));
  const parts = [...words]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map((word) => {
      const abbreviation = word.endsWith(".");
      const stem = escapedForPattern(abbreviation ? word.slice(0, -1) : word);
      if (IDEOGRAPHIC.test(word)) return `${stem}\\s*`;
      if (kind === "page") return `${WORD_START}${stem}${abbreviation ? "\\.\\s*" : "\\s+"}`;
      return `${WORD_START}${stem}${abbreviation ? "\\.?\\s*" : "\\s*"}`;
    });
  if (kind === "page") parts.push(`${WORD_START}p\\s+`);
  return `(?:${parts.join("|")})`;
}

/** Every abbreviation of the table, lower case, without its period: `s`, `pág`, `gl`, `рис`. */
export function citationAbbreviations(): string[] {
  const out = new Set<string>();
  for (const row of CITATION_LANGUAGES) {
    for (const word of [...row.page, ...row.equation, ...row.figure]) {
      if (word.endsWith(".")) out.add(word.slice(0, -1).toLocaleLowerCase("und"));
    }
  }
  return [...out];
}
