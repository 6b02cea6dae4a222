/**
 * Why a line that begins like a caption is not one, and why a caption's figure box is left out:
 * the closed lists and what each entry means. Apart from the caption rules so that reporting a
 * verdict does not load them.
 */
export const CAPTION_REJECTIONS = [
  "inside-paragraph",
  "not-line-start",
  "runs-into-paragraph",
  "no-caption-text",
  "no-figure",
  "label-like-body-text",
] as const;
export type CaptionRejection = (typeof CAPTION_REJECTIONS)[number];

export const CAPTION_REJECTION_MEANINGS: Record<CaptionRejection, string> = {
  "inside-paragraph":
    "the line continues a paragraph of running text (a sentence that starts a line), or opens the next paragraph right under it",
  "not-line-start":
    "text stands before it on its line (other than a column of running text that ends at an edge the rows above and below share)",
  "runs-into-paragraph":
    "its lines run on at the running text's leading into the next paragraph, with no space between, as running text does and a caption does not",
  "no-caption-text": "no caption text follows the label",
  "no-figure":
    "no figure graphics beside it, and it does not share the formatting of the document's captions",
  "label-like-body-text":
    "no separator follows its number and it is set in the running text's font and size, as the words after it are and as a sentence that opens with a reference is, with no figure graphics on the side where this document's figures stand, or in a document whose captions are marked (a separator, or a label set apart) as this line is not",
};

/** Why an accepted caption's record leaves out the box of its figure's graphics. */
export const FIGURE_BOX_OMISSIONS = ["no-graphics", "both-sides", "unexpected-side"] as const;
export type FigureBoxOmission = (typeof FIGURE_BOX_OMISSIONS)[number];

export const FIGURE_BOX_OMISSION_MEANINGS: Record<FigureBoxOmission, string> = {
  "no-graphics":
    "no image or path objects stand next to the caption (a figure of text only, or one drawn as text)",
  "both-sides":
    "graphics stand both above and below the caption, and the document's other captions do not show on which side their figures stand",
  "unexpected-side":
    "the only graphics next to the caption are on the side opposite to where this document's other captions have their figures",
};
