import { afterAll, beforeAll } from "vitest";
import { closeRenderer } from "../../src/document/render.js";
import { tempDir } from "./fixture-files.js";

/** A cache folder for a suite that renders or OCRs pages: removed, and the renderer closed, after it. */
export function renderingSuiteCache(): { readonly dir: string } {
  let cache: ReturnType<typeof tempDir> | undefined;
  beforeAll(() => {
    cache = tempDir();
  });
  afterAll(async () => {
    cache?.remove();
    await closeRenderer();
  });
  return {
    get dir() {
      if (!cache) throw new Error("the suite's cache exists once the suite has begun");
      return cache.dir;
    },
  };
}
