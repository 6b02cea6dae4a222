/**
 * Whether a search over every page (the token index, the printed labels of every page) can run now.
 * A caller that holds only the pages read so far says no until the rest is in, and is told through
 * `wanted` that a search asked for it too early; the search then finds nothing, and the caller takes
 * what was decided meanwhile for unfinished.
 */
export interface EveryPageReadable {
  readable(): boolean;
  wanted(): void;
}
