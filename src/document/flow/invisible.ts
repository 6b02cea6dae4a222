/**
 * Characters a reader never sees printed: the soft hyphen (shown only where a line breaks), the
 * zero-width space and joiners' neighbour the word joiner, bidirectional marks, embeddings and isolates,
 * and a byte order mark inside the text. They are dropped so that the words read as they print.
 */
const INVISIBLE = /[\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/gu;

export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}
