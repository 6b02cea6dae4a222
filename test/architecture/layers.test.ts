// The layer order of docs/architecture.md holds for src/: `npm run lint` runs scripts/check-layers.mjs,
// which fails on any upward import. These tests show it reads the real tree and that it fails on an
// upward import however it is written.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importsOf, LAYERS, layerOf, modulesUnder, violations } from "../../scripts/check-layers.mjs";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";

type Module = { path: string; source: string };
const script = join(repoRoot, "scripts", "check-layers.mjs");
const scratch = tempDir();
afterAll(() => scratch.remove());

describe("the layer check", () => {
  const modules: Module[] = modulesUnder(join(repoRoot, "src"));

  it("finds no upward import in src/, and every module is in a layer", () => {
    expect(modules.length).toBeGreaterThan(100);
    expect(violations(modules)).toEqual([]);
    expect(spawnSync(process.execPath, [script], { cwd: repoRoot, encoding: "utf8" }).status).toBe(0);
  });

  it("reads the imports of the real tree (the operations import the checks)", () => {
    const verify = modules.find((m) => m.path === "operations/verify.ts");
    expect(verify).toBeDefined();
    expect(importsOf(verify!.source).some((s: string) => s.startsWith("../checks/"))).toBe(true);
    expect(layerOf("cli/io.ts")).toBeGreaterThan(layerOf("operations/verify.ts") ?? 99);
    expect(layerOf("util/shown.ts")).toBe(0);
    expect(LAYERS.at(-1)).toEqual(["index.ts"]);
  });

  it.each([
    ["a static import", 'import { x } from "../cli/io.js";'],
    ["a type import", 'import type { X } from "../operations/operation.js";'],
    ["a re-export", 'export { x } from "../layout/anchors.js";'],
    ["a side-effect import", 'import "../mcp/server.js";'],
    ["a dynamic import", 'const m = await import("../checks/verify.js");'],
    ["a require", 'const m = require("../session/store.js");'],
  ])("fails on an upward import written as %s", (_label, line) => {
    const upward = modules.map((m) =>
      m.path === "document/model.ts" ? { ...m, source: `${m.source}\n${line}\n` } : m,
    );
    const found = violations(upward);
    expect(found).toHaveLength(1);
    expect(found[0].from).toBe("document/model.ts");
    expect(found[0].problem).toMatch(/a higher layer/);
  });

  it("does not count an import named in a comment, nor one within the same layer or downward", () => {
    const fine = [
      { path: "text/a.ts", source: '// see "../cli/io.js"\n/* import "../cli/io.js" */\nimport "./b.js";' },
      {
        path: "text/b.ts",
        source: 'import "../ocr/x.js";\nimport "../document/model.js";\nimport "../errors.js";',
      },
    ];
    expect(violations(fine)).toEqual([]);
  });

  it("exits 1 and names the import when a synthetic tree imports upward", () => {
    const src = join(scratch.dir, "src");
    mkdirSync(join(src, "document"), { recursive: true });
    mkdirSync(join(src, "cli"), { recursive: true });
    writeFileSync(join(src, "cli", "io.ts"), 'import { open } from "../document/open.js";\n');
    writeFileSync(join(src, "document", "open.ts"), 'import { run } from "../cli/io.js";\n');
    const run = spawnSync(process.execPath, [script, src], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "document/open.ts (document) imports cli/io.ts (cli, mcp, pi), a higher layer",
    );
  });

  it("names a folder that is in no layer", () => {
    expect(violations([{ path: "newthing/x.ts", source: "" }])[0].problem).toMatch(/in no layer/);
  });
});
