/** A page's label from the document's /PageLabels (the number the file declares printed on it). */
import type { Engine } from "./engine.js";

const UTF16 = new TextDecoder("utf-16le");

/** The label of a page (0-based index), when the document has /PageLabels and the label is not empty. */
export function pageLabel(engine: Engine, handle: number, index: number): { pageLabel?: string } {
  const raw = engine.raw;
  // The first call gives the length in bytes of the UTF-16LE label with its terminator.
  const bytes = raw.FPDF_GetPageLabel(handle, index, 0, 0) | 0;
  if (bytes <= 2) return {};
  const ptr = raw.malloc(bytes);
  if (!ptr) return {};
  try {
    raw.FPDF_GetPageLabel(handle, index, ptr, bytes);
    const units = engine.heapU16().subarray(ptr >> 1, (ptr >> 1) + (bytes >> 1) - 1);
    const label = UTF16.decode(units).trim();
    return label ? { pageLabel: label } : {};
  } finally {
    raw.free(ptr);
  }
}
