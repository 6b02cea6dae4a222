/** The input limits of the located quote check; anything outside them is a usage error. */
export const CITE_CHECK_LIMITS = {
  minCitations: 1,
  maxCitations: 100,
  /** UTF-16 units; an astral character takes two. */
  maxQuoteUtf16: 4096,
  maxTotalQuoteUtf16: 64_000,
  maxDistinctPages: 20,
  minTimeoutMs: 1_000,
  maxTimeoutMs: 300_000,
  defaultTimeoutMs: 60_000,
  minOutputChars: 1_000,
  maxOutputChars: 1_000_000,
  defaultOutputChars: 200_000,
  maxSourceBytes: 256 * 1024 * 1024,
  maxRedirects: 5,
  /** Supporting locations reported per citation. */
  maxLocations: 8,
  /** The only containment tolerance, in PDF points, for coordinate rounding. */
  containmentTolerance: 0.0001,
} as const;
