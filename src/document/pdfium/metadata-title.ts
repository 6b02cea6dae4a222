/** The document's title from its Info dictionary (`/Title`), as the engine reads it. */
import type { Engine } from "./engine.js";

const UTF16 = new TextDecoder("utf-16le");
/** Longer metadata is no title: it is not read. */
const MAX_TITLE_BYTES = 4096;
const TAG = new TextEncoder().encode("Title");

/** `{metadataTitle}` when the document's Info dictionary names a title that is not blank, else `{}`. */
export function metadataTitle(engine: Engine, handle: number): { metadataTitle?: string } {
  const raw = engine.raw;
  // The raw export takes the tag as a C string in the engine's memory.
  const tag = raw.malloc(TAG.length + 1);
  if (!tag) return {};
  try {
    const heap = engine.heapU8();
    heap.set(TAG, tag);
    heap[tag + TAG.length] = 0;
    // The first call gives the length in bytes of the UTF-16LE text with its terminator.
    const bytes = raw.FPDF_GetMetaText(handle, tag, 0, 0) | 0;
    if (bytes <= 2 || bytes > MAX_TITLE_BYTES) return {};
    const ptr = raw.malloc(bytes);
    if (!ptr) return {};
    try {
      raw.FPDF_GetMetaText(handle, tag, ptr, bytes);
      const units = engine.heapU16().subarray(ptr >> 1, (ptr >> 1) + (bytes >> 1) - 1);
      const title = UTF16.decode(units).replace(/\s+/gu, " ").trim();
      return title ? { metadataTitle: title } : {};
    } finally {
      raw.free(ptr);
    }
  } finally {
    raw.free(tag);
  }
}
