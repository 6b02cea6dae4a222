// One derivation key per kind of kept record: the digest of the modules that make it. A change to a
// layout module changes the anchors key and leaves the page-text key; the build writes the manifest the
// sources make, the same on every build.
import { appendFileSync, cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { derivationKey } from "../../src/util/derivation.js";
import {
  buildManifest,
  MANIFEST_FILE,
  moduleClosure,
  runtimeImports,
} from "../../src/util/derivation-graph.js";
import { tempDir } from "../helpers/fixture-files.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const src = join(root, "src");
const tmp = tempDir("citeproof-derivation-");
afterAll(() => tmp.remove());

const keys = (manifest: ReturnType<typeof buildManifest>) =>
  Object.fromEntries(Object.entries(manifest.records).map(([kind, r]) => [kind, r.digest]));

describe("the derivation manifest", () => {
  const before = buildManifest(src);

  it("changes the layout key and not the page-text key when a layout module changes", () => {
    const copy = join(tmp.dir, "layout");
    cpSync(src, copy, { recursive: true });
    expect(keys(buildManifest(copy))).toEqual(keys(before));
    // A module the anchors record imports only through another one.
    expect(before.records.anchors.modules).toContain("layout/caption-keywords");
    appendFileSync(join(copy, "layout", "caption-keywords.ts"), "\nexport const changed = 1;\n");
    const after = keys(buildManifest(copy));
    expect(after.anchors).not.toBe(before.records.anchors.digest);
    expect(after.results).not.toBe(before.records.results.digest);
    expect(after["page-text"]).toBe(before.records["page-text"].digest);
    expect(after.flow).toBe(before.records.flow.digest);
    expect(after["flow-results"]).toBe(before.records["flow-results"].digest);
    expect(after["token-index"]).toBe(before.records["token-index"].digest);
  });

  it("changes a flow source's results key, not its reader's, when a flow check module changes", () => {
    const copy = join(tmp.dir, "flow-checks");
    cpSync(src, copy, { recursive: true });
    // A module the flow checks import only through another one.
    expect(before.records["flow-results"].modules).toContain("checks/flow-scope");
    appendFileSync(join(copy, "checks", "flow-scope.ts"), "\nexport const changed = 1;\n");
    const after = keys(buildManifest(copy));
    expect(after["flow-results"]).not.toBe(before.records["flow-results"].digest);
    expect(after.flow).toBe(before.records.flow.digest);
    // A reader's change changes both: a result depends on the document it was checked against.
    appendFileSync(join(copy, "document", "flow", "markdown.ts"), "\nexport const changed = 1;\n");
    const again = keys(buildManifest(copy));
    expect(again.flow).not.toBe(before.records.flow.digest);
    expect(again["flow-results"]).not.toBe(after["flow-results"]);
  });

  it("changes every key built on the extractor when an extraction module changes", () => {
    const copy = join(tmp.dir, "extract");
    cpSync(src, copy, { recursive: true });
    appendFileSync(join(copy, "document", "pdfium", "lines.ts"), "\nexport const changed = 1;\n");
    const after = keys(buildManifest(copy));
    expect(after["page-text"]).not.toBe(before.records["page-text"].digest);
    expect(after.anchors).not.toBe(before.records.anchors.digest);
    expect(after["printed-labels"]).toBe(before.records["printed-labels"].digest);
  });

  it("follows dynamic imports and workers, and leaves out type-only imports and comments", () => {
    expect(
      runtimeImports(
        [
          'import type { A } from "./a.js";',
          'export type { B } from "./b.js";',
          'import { type C, d } from "./d.js";',
          '// import { e } from "./e.js";',
          'const f = await import("./f.js");',
          'new Worker(new URL("./g.js", import.meta.url));',
          'export { h } from "./h.js";',
        ].join("\n"),
      ),
    ).toEqual(["./d.js", "./f.js", "./g.js", "./h.js"]);
    expect(before.records["page-text"].modules).toContain("document/engine-worker");
    expect(before.records["page-text"].modules.some((m) => m.startsWith("layout/"))).toBe(false);
    expect(() => moduleClosure(src, ["no/such-module"], (f) => readFileSync(join(src, f), "utf8"))).toThrow(
      /no module no\/such-module/,
    );
  });

  it("is what the build wrote beside the built code, and what the code reads", () => {
    const built = JSON.parse(readFileSync(join(root, "dist", MANIFEST_FILE), "utf8"));
    expect(built).toEqual(before);
    expect(derivationKey("anchors")).toBe(before.records.anchors.digest);
  });
});
