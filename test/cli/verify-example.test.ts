// The bundled example of the README's Quick start: `npm run example` runs exactly this command.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

describe("examples/paper.pdf with examples/evidence.json", () => {
  it("is the paper fixture, built from its committed LaTeX source", () => {
    expect(readFileSync(join(repoRoot, "examples", "paper.pdf"))).toEqual(readFileSync(fixture("paper")));
  });

  it("shows PASS, FLAG, each FAIL reason and UNANCHORED, and exits 1", () => {
    const cache = tempDir();
    try {
      const run = runCli(["verify", "examples/paper.pdf", "--evidence", "examples/evidence.json", "--json"], {
        env: { CITEPROOF_CACHE_DIR: cache.dir },
      });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(1);
      const results = (run.json as { results: { id: string; verdict: string; reason: string }[] }).results;
      expect(results.map((r) => `${r.id}: ${r.verdict} ${r.reason}`)).toEqual([
        "calibration: PASS found",
        "reviewers: PASS found",
        "abstract: PASS found",
        "printed-page: FAIL wrong-page",
        "adjustment: FAIL form-differs",
        "gain: FAIL absent",
        "appendix: FAIL no-such-page",
        "short: FLAG no-quotation",
        "preface: FLAG no-quotation",
        "unanchored: UNANCHORED no-page",
      ]);
    } finally {
      cache.remove();
    }
  });

  it("is what `npm run example` checks", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.example).toContain("node scripts/example.mjs");
    const script = readFileSync(join(repoRoot, "scripts", "example.mjs"), "utf8").replace(/\s+/g, "");
    expect(script).toContain('"verify","examples/paper.pdf","--evidence","examples/evidence.json"');
  });
});
