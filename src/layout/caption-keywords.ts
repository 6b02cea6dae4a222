/**
 * The words that open a figure's caption, one row per language, as data. Each row names where its
 * words come from: the name LaTeX's babel (or ctex, for Chinese) sets as `\figurename`, and the caption
 * category Word and LibreOffice insert in that language, with the abbreviations the language's style
 * guides print. A keyword of any language counts in every document: a German thesis may quote an
 * English figure, and the layout rules decide whether the line is a caption.
 */

export interface CaptionLanguage {
  /** BCP 47 language tag. */
  language: string;
  /** The words as printed with an initial capital (upper-case forms are derived). */
  figure: readonly string[];
  source: string;
}

export const FIGURE_CAPTION_LANGUAGES: readonly CaptionLanguage[] = [
  { language: "en", figure: ["Figure", "Fig."], source: "babel english \\figurename; Word, LibreOffice" },
  {
    language: "de",
    figure: ["Abbildung", "Abb.", "Bild"],
    source: "babel ngerman \\figurename; Word 'Abbildung'; LibreOffice 'Abbildung'; DIN 'Abb.'",
  },
  {
    language: "fr",
    figure: ["Figure", "Fig.", "Illustration"],
    source: "babel french \\figurename; Word 'Figure'; LibreOffice 'Illustration'",
  },
  {
    language: "es",
    figure: ["Figura", "Fig.", "Ilustración"],
    source: "babel spanish \\figurename; Word 'Ilustración'; LibreOffice 'Ilustración'",
  },
  {
    language: "it",
    figure: ["Figura", "Fig."],
    source: "babel italian \\figurename; Word, LibreOffice 'Figura'",
  },
  {
    language: "pt",
    figure: ["Figura", "Fig.", "Ilustração"],
    source: "babel portuguese \\figurename; Word 'Figura'; LibreOffice 'Ilustração'",
  },
  { language: "nl", figure: ["Figuur", "Fig."], source: "babel dutch \\figurename; Word 'Figuur'" },
  { language: "pl", figure: ["Rysunek", "Rys."], source: "babel polish \\figurename; Word 'Rysunek'" },
  {
    language: "ru",
    figure: ["Рисунок", "Рис."],
    source: "babel russian \\figurename 'Рис.'; Word 'Рисунок'",
  },
  { language: "zh", figure: ["图", "圖"], source: "ctex \\figurename '图'; Word '图' (traditional '圖')" },
  { language: "ja", figure: ["図"], source: "LaTeX jsarticle \\figurename '図'; Word '図'" },
];

/** Han and kana keywords run into their number ("图3"); letters of other scripts need a word end. */
function isIdeographic(word: string): boolean {
  return /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+$/u.test(word);
}

function escapedForPattern(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Every figure keyword, with its upper-case form ("FIGURE", "ABB."), longest first. */
export function figureKeywords(): string[] {
  const words = new Set<string>();
  for (const row of FIGURE_CAPTION_LANGUAGES) {
    for (const word of row.figure) {
      words.add(word);
      words.add(word.toLocaleUpperCase("und"));
    }
  }
  return [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/**
 * The alternation of the keywords for a regular expression: an abbreviation's period is optional
 * ("Fig 3" as well as "Fig. 3"), and a word of letters must not run on into more letters.
 */
export function figureKeywordPattern(): string {
  return figureKeywords()
    .map((word) => {
      if (isIdeographic(word)) return escapedForPattern(word);
      if (word.endsWith(".")) return `${escapedForPattern(word.slice(0, -1))}\\.?(?!\\p{L})`;
      return `${escapedForPattern(word)}(?!\\p{L})`;
    })
    .join("|");
}
