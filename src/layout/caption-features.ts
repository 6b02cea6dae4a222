/**
 * What the page and the document show about one figure-caption candidate: a flat record of
 * measured facts, computed once (figure-captions.ts on the page, caption-decisions.ts across the
 * document) and read by the decision's predicates (caption-decision.ts). A feature a rule reads only
 * in some cases is measured only then (`undefined` where it was not); the document's features are
 * `undefined` until the document step has read every page. A waiver is read as `=== true`: an
 * unknown never waives a refusal.
 */
import { FIGURE_CAPTION_LANGUAGES } from "./caption-keywords.js";

export interface CaptionFeatures {
  /** The label's font size, in points: what the tolerances' em is. */
  emPt: number;
  /** The keyword as printed ("Figure", "FIG.", "Abb.", "图"). */
  keyword: string;
  /** The languages whose caption tables hold the keyword (caption-keywords.ts); any of them counts. */
  languages: string[];
  /** The number after the keyword. */
  label: string;
  /** What follows the number: ".", ":", "|", a dash, or "" when the caption's words follow directly. */
  separator: string;
  /** A space stands between the number and its separator ("Figure 1 :", French typography). */
  spacedSeparator: boolean;
  /** Characters stand before the label on its row. */
  textBefore: boolean;
  /** Waiver: what stands before is a column of running text ending at an edge its rows share (measured where there is text before). */
  columnBeside: boolean | undefined;
  /** Waiver: what stands before is the row of another caption set beside this one (measured where no column is). */
  captionBeside: boolean | undefined;
  /** A line of running text stands just above the label's row, at the body's leading. */
  bodyLineAbove: boolean;
  /** A row of a paragraph stands just above (measured where no body line does and the row is not centred). */
  paragraphRowAbove: boolean | undefined;
  /** Waiver: the row is centred in its column, indented alike on both sides, as running text is not. */
  centredInColumn: boolean;
  /** The caption's rows run on at the running text's leading into the next paragraph (measured where no paragraph holds it). */
  runsIntoParagraph: boolean | undefined;
  /** Letters follow the label on its line or the next. */
  captionText: boolean;
  /** The label is set apart from the words after it: another font or size, or a wider space. */
  labelSetApart: boolean;
  /** Graphics stand above the caption, and below it. */
  graphicsAbove: boolean;
  graphicsBelow: boolean;
  /** Document: the label's font and printed size are the running text's (true where the body is unknown). */
  likeBody: boolean | undefined;
  /** Document: two captions or more are marked as such (a separator, a label set apart). */
  documentMarksCaptions: boolean | undefined;
  /** Document: graphics stand on the side of this caption where the document's figures stand. */
  graphicsOnDocumentSide: boolean | undefined;
  /** Document, waiver: the caption's formatting is that of an accepted caption with graphics. */
  sharesAnchoredStyle: boolean | undefined;
}

/** Each printed form of a keyword (either case, an abbreviation with or without its period) to its languages. */
let languagesByForm: Map<string, string[]> | undefined;

/**
 * The languages whose caption tables hold a keyword, in either of its printed cases, an
 * abbreviation with or without its period ("Fig 3" as well as "Fig. 3").
 */
export function keywordLanguages(keyword: string): string[] {
  if (!languagesByForm) {
    const map = new Map<string, string[]>();
    for (const row of FIGURE_CAPTION_LANGUAGES)
      for (const word of row.figure)
        for (const cased of new Set([word, word.toLocaleUpperCase("und")]))
          for (const form of cased.endsWith(".") ? [cased, cased.slice(0, -1)] : [cased]) {
            const list = map.get(form) ?? [];
            if (!list.includes(row.language)) list.push(row.language);
            map.set(form, list);
          }
    languagesByForm = map;
  }
  return [...(languagesByForm.get(keyword) ?? [])];
}

/** The caption's label has no mark of a caption: no separator, set as the words after it. */
export function plainLabel(f: CaptionFeatures): boolean {
  return f.separator === "" && !f.labelSetApart && f.likeBody === true;
}
