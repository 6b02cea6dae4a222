/**
 * `report --ocr` reads a cited page whose words are an image as `verify --ocr` does: without it the
 * quotation is FLAG no-text-layer, with it the page's OCR reading decides it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../helpers/fixture-files.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const work = mkdtempSync(join(tmpdir(), "citeproof-report-ocr-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("report --ocr", () => {
  it("decides a quotation on a scanned page from its OCR reading", async () => {
    const evidence = join(work, "e.json");
    writeFileSync(
      evidence,
      JSON.stringify([
        { kind: "quotation", page: 1, text: "The learner receives examples whose labels were flipped" },
      ]),
    );
    const run = async (extra: string[]) => {
      const r = await runCliInProcess([
        "report",
        fixture("scan-layers"),
        "--evidence",
        evidence,
        "--out",
        join(work, `r${extra.length}.html`),
        "--no-cache",
        "--json",
        ...extra,
      ]);
      return (r.json as { results: { verdict: string; reason: string }[] }).results[0];
    };
    expect(await run([])).toMatchObject({ verdict: "FLAG", reason: "no-text-layer" });
    expect(await run(["--ocr", "auto"])).toMatchObject({ verdict: "PASS", reason: "found" });
  }, 240_000);
});
