/**
 * Rendering a page or a region of it to PNG through the engine's renderer and PNG encoder, in the
 * engine worker under a deadline: a hostile page stops the worker, never the caller.
 */
import { CiteproofError } from "../errors.js";
import type { PdfBytes } from "../source/file.js";
import { closeEngine, engine } from "./engine-client.js";
import type { Box } from "./model.js";
import type { Outline } from "./outlines.js";
import type { RenderTransform } from "./render-transform.js";

export {
  deviceBoxToUser,
  deviceToUser,
  type RenderTransform,
  userBoxToDevice,
  userToDevice,
} from "./render-transform.js";

export const DEFAULT_RENDER_DPI = 150;
export const MIN_RENDER_DPI = 18;
export const MAX_RENDER_DPI = 1200;
export const DEFAULT_RENDER_TIMEOUT_MS = 30_000;

export interface RenderOptions {
  password?: string;
  /** Deadline for this render in milliseconds (the first render also loads the engine). */
  timeoutMs?: number;
  /**
   * The PNG's zlib level, 0 to 9 (default 6): an image read at once by OCR and thrown away gains
   * nothing from a smaller file, and level 1 encodes several times faster; the pixels are the same.
   */
  pngCompression?: number;
  /**
   * Encoded in the fewest channels the pixels need (8-bit gray for a gray page) by Node's zlib, not
   * as RGBA by the engine's encoder: the same pixels, for a reader that turns colour into gray anyway.
   */
  fewestChannels?: boolean;
  /** Boxes outlined into the image before it is encoded (`crop --explain`). */
  outlines?: readonly Outline[];
}

export interface RenderedRegion {
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
  /** Maps the image's pixels to default user space and back (deviceToUser, userToDevice). */
  transform: RenderTransform;
}

/**
 * Renders `region` (a box in default user space, or the whole visible page) of a 1-based page.
 * A box reaching past the page is clipped to it; the transform says what the image shows.
 */
export async function renderRegion(
  source: PdfBytes,
  page: number,
  region: Box | "page",
  dpi: number,
  opts: RenderOptions = {},
): Promise<RenderedRegion> {
  const box = region === "page" ? undefined : { ...region };
  checkRequest(page, dpi, box);
  const result = await engine().call(
    "render",
    source,
    { page, box, dpi, ...compression(opts), ...(opts.outlines ? { outlines: [...opts.outlines] } : {}) },
    callOptions(page, opts),
  );
  return plain(result);
}

/**
 * Renders several regions of one page, the page loaded once (its images decoded once for them all),
 * each as renderRegion would; one deadline for them all.
 */
export async function renderRegions(
  source: PdfBytes,
  page: number,
  regions: readonly { box: Box; dpi: number }[],
  opts: RenderOptions = {},
): Promise<RenderedRegion[]> {
  for (const r of regions) checkRequest(page, r.dpi, r.box);
  if (regions.length === 0) return [];
  const result = await engine().call(
    "renderMany",
    source,
    { page, regions: regions.map((r) => ({ box: { ...r.box }, dpi: r.dpi })), ...compression(opts) },
    callOptions(page, opts),
  );
  return result.map(plain);
}

function checkRequest(page: number, dpi: number, box: Box | undefined): void {
  if (!Number.isFinite(dpi) || dpi < MIN_RENDER_DPI || dpi > MAX_RENDER_DPI) {
    throw new CiteproofError(
      "USAGE",
      `dpi must be a number from ${MIN_RENDER_DPI} to ${MAX_RENDER_DPI} (got ${dpi})`,
    );
  }
  if (!Number.isInteger(page) || page < 1) {
    throw new CiteproofError("PAGE_OUT_OF_RANGE", `page ${page} does not exist (pages count from 1)`);
  }
  if (box) {
    const values = [box.left, box.bottom, box.right, box.top];
    if (!values.every((v) => typeof v === "number" && Number.isFinite(v))) {
      throw new CiteproofError("BOX_INVALID", `the box ${values.join(",")} is not made of finite numbers`);
    }
  }
}

function compression(opts: RenderOptions): { pngCompression?: number; fewestChannels?: boolean } {
  return {
    ...(opts.pngCompression !== undefined ? { pngCompression: opts.pngCompression } : {}),
    ...(opts.fewestChannels ? { fewestChannels: true } : {}),
  };
}

function callOptions(page: number, opts: RenderOptions) {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  return {
    password: opts.password,
    timeoutMs,
    timeoutError: () =>
      new CiteproofError(
        "RENDER_TIMEOUT",
        `rendering page ${page} did not finish within ${timeoutMs} ms and was stopped`,
        { option: "timeout_ms", limit: timeoutMs },
      ),
    fallbackCode: "INTERNAL" as const,
  };
}

function plain(r: RenderedRegion): RenderedRegion {
  return { png: r.png, widthPx: r.widthPx, heightPx: r.heightPx, transform: r.transform };
}

/**
 * Keeps the engine worker between renders until the function returned is called: a run of large
 * renders (a page at 300 dpi grows the engine's memory past what is kept idle) starts one worker.
 */
export function holdRenderer(): () => void {
  return engine().hold();
}

/** Ends the engine worker, which renders and extracts (it otherwise idles without holding the process open). */
export const closeRenderer = closeEngine;
