/** How long a document is read before the read gives up, by default (milliseconds). */
export const DEFAULT_TIMEOUT_MS = 60_000;
