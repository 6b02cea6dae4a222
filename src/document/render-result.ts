/**
 * What the engine's renderer gives back, as plain data. It lives apart from the engine adapter so
 * that the types citeproof publishes never reach the engine's own (whose declarations need
 * Emscripten's types, which a consumer compiling with skipLibCheck off does not have).
 */
import type { RenderTransform } from "./render-transform.js";

export interface EngineRender {
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
  transform: RenderTransform;
}
