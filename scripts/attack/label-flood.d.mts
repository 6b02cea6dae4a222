/** A PDF whose one page prints `labels` parenthesised labels in rows of `perRow`, each row opened by a caption token. */
export function labelFloodPdf(labels?: number, perRow?: number): Uint8Array;
/** A PDF of `pages` pages that all draw one content stream of rows of words. */
export function repeatedPagesPdf(pages?: number): Uint8Array;
