/**
 * Rendering a region of a loaded page to PNG with the engine's renderer and its PNG encoder
 * (zlib level 6; for OCR, png-encode.ts), the page's /Rotate applied, so the image looks as a viewer shows the page.
 */
import { CiteproofError } from "../../errors.js";
import type { Box, Rotation } from "../model.js";
import { drawOutlines, type Outline } from "../outlines.js";
import { encodePngFewestChannels } from "../png-encode.js";
import type { EngineRender } from "../render-result.js";
import { displaySize, type RenderTransform, userBoxToDevice } from "../render-transform.js";
import { clipRegion } from "./boxes.js";
import type { Engine } from "./engine.js";

const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const PNG_COMPRESSION = 6;
/** Largest image a render may produce: 8000 x 8000 pixels. */
export const MAX_RENDER_PIXELS = 64_000_000;

export type { EngineRender } from "../render-result.js";

/**
 * How the image is encoded: the zlib level, and whether in the fewest channels its pixels need by
 * Node's zlib (png-encode.ts) rather than as RGBA by the engine's encoder.
 */
export interface PngEncoding {
  compression?: number;
  fewestChannels?: boolean;
}

/**
 * Renders `box` (default user space; undefined: the whole visible page) of a loaded page, 0-based
 * `index`. A box reaching past the page is clipped to it; one wholly outside is refused.
 */
export function renderPage(
  engine: Engine,
  page: number,
  index: number,
  frame: { cropBox: Box; rotation: Rotation },
  box: Box | undefined,
  dpi: number,
  encoding: PngEncoding = {},
  outlines: readonly Outline[] = [],
): EngineRender {
  const raw = engine.raw;
  const { cropBox, rotation } = frame;
  const region = box ? clipRegion(box, cropBox, index + 1) : cropBox;
  const display = displaySize(cropBox, rotation);
  const scale = dpi / 72;
  const pageW = Math.max(1, Math.round(display.width * scale));
  const pageH = Math.max(1, Math.round(display.height * scale));
  const t: RenderTransform = {
    page: index + 1,
    rotation,
    cropBox,
    dpi,
    scaleX: pageW / display.width,
    scaleY: pageH / display.height,
    offsetXPx: 0,
    offsetYPx: 0,
  };
  const r = userBoxToDevice(region, t);
  const x0 = Math.max(0, Math.floor(r.x0 + 1e-6));
  const y0 = Math.max(0, Math.floor(r.y0 + 1e-6));
  const x1 = Math.min(pageW, Math.ceil(r.x1 - 1e-6));
  const y1 = Math.min(pageH, Math.ceil(r.y1 - 1e-6));
  const width = Math.max(1, x1 - x0);
  const height = Math.max(1, y1 - y0);
  if (width * height > MAX_RENDER_PIXELS) {
    throw new CiteproofError(
      "BOX_INVALID",
      `the region would be ${width} x ${height} pixels at ${dpi} dpi, more than the ${MAX_RENDER_PIXELS} allowed; use a smaller box or a lower dpi`,
    );
  }
  const bitmap = raw.FPDFBitmap_Create(width, height, 1);
  if (!bitmap) throw new CiteproofError("BOX_INVALID", "the region is too large to render");
  try {
    raw.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    // The page's own /Rotate is applied by the engine; rotate = 0 adds nothing to it.
    raw.FPDF_RenderPageBitmap(bitmap, page, -x0, -y0, pageW, pageH, 0, FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER);
    const stride = raw.FPDFBitmap_GetStride(bitmap);
    const buffer = raw.FPDFBitmap_GetBuffer(bitmap);
    const transform = { ...t, offsetXPx: x0, offsetYPx: y0 };
    if (outlines.length > 0) {
      const pixels = engine.heapU8().subarray(buffer, buffer + stride * height);
      const drawn = outlines.map((o) => {
        const d = userBoxToDevice(o.box, transform);
        return { ...d, rgb: o.rgb, lineWidthPx: o.lineWidthPx };
      });
      drawOutlines(pixels, width, height, stride, drawn);
    }
    const level = encoding.compression ?? PNG_COMPRESSION;
    const png = encoding.fewestChannels
      ? encodePngFewestChannels(
          engine.heapU8().subarray(buffer, buffer + stride * height),
          width,
          height,
          stride,
          level,
        )
      : encodePng(engine, buffer, width, height, stride, level);
    return { png, widthPx: width, heightPx: height, transform };
  } finally {
    raw.FPDFBitmap_Destroy(bitmap);
  }
}

function encodePng(
  engine: Engine,
  buffer: number,
  width: number,
  height: number,
  stride: number,
  compression: number,
): Uint8Array {
  const raw = engine.raw;
  const outPtrPtr = raw.malloc(4);
  try {
    const size = engine.module.EPDF_PNG_EncodeRGBA(
      buffer,
      width,
      height,
      stride,
      compression,
      outPtrPtr,
    ) as number;
    if (!size) throw new CiteproofError("INTERNAL", "the PNG encoder failed");
    const u8 = engine.heapU8();
    const outPtr = new Uint32Array(u8.buffer)[outPtrPtr >> 2];
    const png = u8.slice(outPtr, outPtr + size);
    raw.free(outPtr);
    return png;
  } finally {
    raw.free(outPtrPtr);
  }
}

/** Page count and boxes without extracting text. */
