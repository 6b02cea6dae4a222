/**
 * Why a line that begins like a caption is not one: the closed list and what each reason means.
 * Apart from the caption rules so that reporting a verdict does not load them.
 */
export const CAPTION_REJECTIONS = [
  "inside-paragraph",
  "not-line-start",
  "no-caption-text",
  "no-figure",
] as const;
export type CaptionRejection = (typeof CAPTION_REJECTIONS)[number];

export const CAPTION_REJECTION_MEANINGS: Record<CaptionRejection, string> = {
  "inside-paragraph": "the line continues a paragraph of running text (a sentence that starts a line)",
  "not-line-start": "text stands before it on its line",
  "no-caption-text": "no caption text follows the label",
  "no-figure":
    "no figure graphics beside it, and it does not share the formatting of the document's captions",
};
