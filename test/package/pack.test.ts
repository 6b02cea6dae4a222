// The packed package: what `npm pack` puts in the tarball is what an install from it can run.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [relative(root, join(dir, e.name))],
  );
}

describe("npm pack", () => {
  it("packs the CLI, the library entry, the pi extension and every built module and worker", () => {
    // --ignore-scripts: list what is built now, without building again (prepare builds on a real pack).
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: root,
      encoding: "utf8",
    });
    const packed = new Set((JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((f) => f.path));
    for (const needed of [
      "dist/cli/main.cjs",
      "dist/cli/main.js",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/pi/extension.js",
      "dist/derivation-manifest.json",
    ])
      expect(packed, needed).toContain(needed);
    const built = files(join(root, "dist")).filter((f) => /\.c?js$/.test(f));
    expect(built.filter((f) => /worker/.test(f)).length).toBeGreaterThan(0);
    expect(built.filter((f) => !packed.has(f))).toEqual([]);
    expect(packed).toContain("package.json");
    expect([...packed].filter((f) => f.startsWith("src/") || f.startsWith("test/"))).toEqual([]);
  });
});
