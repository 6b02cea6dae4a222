/**
 * The benchmark's plain baseline (docs/benchmark.md) scores a gold file as the corpus runner does: a
 * regular expression over pdftotext's output, so it finds FIGURE 3 but misses a Russian Рис. 9.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, repoRoot } from "../helpers/fixture-files.js";

const dir = mkdtempSync(join(tmpdir(), "citeproof-baseline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hasPdftotext = spawnSync("pdftotext", ["-v"]).error === undefined;

describe.skipIf(!hasPdftotext)("the plain baseline", () => {
  it("scores true and false figure labels of a gold file by category", () => {
    copyFileSync(fixture("caption-languages"), join(dir, "doc.pdf"));
    const figure = (id: string, category: string, label: string, verdict: string) => ({
      id,
      category,
      tool: "verify",
      evidence: { kind: "figure", label },
      expect: { verdict },
    });
    writeFileSync(
      join(dir, "doc.gold.json"),
      JSON.stringify({
        pdf: { file: "doc.pdf" },
        group: "babel/mixed",
        cases: [
          figure("a", "fig-true", "3", "PASS"),
          figure("b", "fig-true", "9", "PASS"),
          figure("c", "fig-false", "10", "FAIL"),
        ],
      }),
    );
    const out = execFileSync(
      process.execPath,
      [join(repoRoot, "scripts", "benchmark", "baseline.mjs"), dir, "--groups"],
      { encoding: "utf8" },
    );
    const rows = new Map(
      out
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => [l.split(/\s+/)[0], l.split(/\s+/).slice(1)]),
    );
    expect(rows.get("all")).toEqual(["-", "-", "1/2", "-", "1/1"]);
    expect(rows.get("babel/mixed")).toEqual(["-", "-", "1/2", "-", "1/1"]);
  });
});
