/**
 * The declarations citeproof publishes never reach the PDF engine's: its types need Emscripten's
 * (`/// <reference types="emscripten" />`), so a consumer compiling with `skipLibCheck: false` would
 * get errors from a package it never imports. Walks the import graph of dist/index.d.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const DIST = resolve("dist");

function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      const spec = m[1] ?? "";
      if (!spec.startsWith(".")) {
        packages.add(spec);
        continue;
      }
      const target = join(dirname(file), spec.replace(/\.js$/, ".d.ts"));
      if (existsSync(target)) todo.push(target);
    }
    for (const m of text.matchAll(/\/\/\/\s*<reference types="([^"]+)"/g)) packages.add(`@types/${m[1]}`);
  }
  return { files, packages };
}

describe("the public types", () => {
  it("reach no declaration of the PDF engine", () => {
    const { files, packages } = reachable(join(DIST, "index.d.ts"));
    expect(files.size).toBeGreaterThan(10);
    expect([...packages].filter((p) => p.includes("embedpdf") || p.includes("emscripten"))).toEqual([]);
  });
});
