/**
 * A PNG of rendered pixels in the fewest channels they need: 8-bit gray when every pixel is opaque
 * and neutral (red, green and blue equal, as a gray or black-and-white scan renders), RGB when every
 * pixel is opaque, RGBA otherwise; rows unfiltered, deflated by Node's zlib. The pixels are the
 * same as the engine's own encoder gives; an OCR engine turns colour into gray anyway, so a gray
 * page is read alike and a third or a quarter of the bytes are deflated, written and decoded.
 */
import { crc32, deflateSync } from "node:zlib";

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const COLOR_GRAY = 0;
const COLOR_RGB = 2;
const COLOR_RGBA = 6;

/** How many channels the pixels need: 1 (opaque and neutral), 3 (opaque) or 4. */
export function channelsNeeded(rgba: Uint8Array, width: number, height: number, stride: number): 1 | 3 | 4 {
  let neutral = true;
  for (let y = 0; y < height; y++) {
    let at = y * stride;
    const end = at + width * 4;
    for (; at < end; at += 4) {
      if (rgba[at + 3] !== 255) return 4;
      if (neutral && (rgba[at] !== rgba[at + 1] || rgba[at] !== rgba[at + 2])) neutral = false;
    }
  }
  return neutral ? 1 : 3;
}

/** Encodes RGBA pixels (rows `stride` bytes apart) as a PNG in the fewest channels, at a zlib level. */
export function encodePngFewestChannels(
  rgba: Uint8Array,
  width: number,
  height: number,
  stride: number,
  level: number,
): Uint8Array {
  const channels = channelsNeeded(rgba, width, height, stride);
  const row = width * channels + 1;
  const raw = new Uint8Array(row * height);
  for (let y = 0; y < height; y++) {
    const from = y * stride;
    let to = y * row + 1; // The row's filter byte stays 0: none.
    if (channels === 4) raw.set(rgba.subarray(from, from + width * 4), to);
    else if (channels === 3)
      for (let at = from, end = from + width * 4; at < end; at += 4) {
        raw[to++] = rgba[at];
        raw[to++] = rgba[at + 1];
        raw[to++] = rgba[at + 2];
      }
    else for (let at = from, end = from + width * 4; at < end; at += 4) raw[to++] = rgba[at];
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 8;
  header[9] = channels === 1 ? COLOR_GRAY : channels === 3 ? COLOR_RGB : COLOR_RGBA;
  const data = deflateSync(raw, { level });
  const chunks = [chunk("IHDR", header), chunk("IDAT", data), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(SIGNATURE.length + chunks.reduce((n, c) => n + c.length, 0));
  out.set(SIGNATURE, 0);
  let at = SIGNATURE.length;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + 12);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
