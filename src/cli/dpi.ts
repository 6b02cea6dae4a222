import { MAX_RENDER_DPI, MIN_RENDER_DPI } from "../document/render.js";
import { CiteproofError } from "../errors.js";

/** The --dpi flag: a plain decimal number inside the renderer's range. */
export function parseDpi(value: string): number {
  const dpi = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(dpi >= MIN_RENDER_DPI && dpi <= MAX_RENDER_DPI))
    throw new CiteproofError(
      "USAGE",
      `--dpi must be a number from ${MIN_RENDER_DPI} to ${MAX_RENDER_DPI} (got ${JSON.stringify(value)})`,
      { option: "dpi", limit: MAX_RENDER_DPI },
    );
  return dpi;
}
