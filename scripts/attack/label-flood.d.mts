/** A PDF whose one page prints `labels` parenthesised labels in rows of `perRow`, each row opened by a caption token. */
export function labelFloodPdf(labels?: number, perRow?: number): Uint8Array;
