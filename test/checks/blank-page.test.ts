// A blank page is not an image (issue 37 item 3): a page with no text and nothing drawn (the empty
// page between chapters, fixtures/src/blank-page.tex: page 2 of 3) has the text layer `blank`, and a
// quotation cited there is judged by where its words are, never FLAG no-text-layer ("its words are an
// image", which is false). A scanned page with no text is still `none`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDocument } from "../../src/document/open.js";
import { hasUsableText, TEXT_LAYER_MEANINGS } from "../../src/document/text-layer-kind.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const PDF = fixture("blank-page");
const tmp = tempDir();
afterAll(() => tmp.remove());
const env = { CITEPROOF_CACHE_DIR: join(tmp.dir, "cache") };

describe("a blank page", () => {
  it("has the text layer blank, and a page scanned without text stays none", async () => {
    const doc = await openDocument(PDF, { noCache: true });
    expect(doc.pages.map((p) => p!.textLayer)).toEqual(["native", "blank", "native"]);
    const scan = await openDocument(fixture("eq-scan"), { noCache: true });
    expect(scan.pages[0]!.textLayer).toBe("none");
    expect(hasUsableText("blank")).toBe(true);
    expect(TEXT_LAYER_MEANINGS.blank).toMatch(/no text, no image, no drawing/);
  });

  it("FAILs wrong-page a quotation whose words are elsewhere, and absent one that is nowhere", async () => {
    const records = [
      { id: "elsewhere", kind: "quotation", page: 2, text: "the keeper counting the boats at dawn" },
      { id: "nowhere", kind: "quotation", page: 2, text: "the keeper counting the cows at dawn" },
    ];
    const path = join(tmp.dir, "blank.json");
    writeFileSync(path, JSON.stringify(records));
    const run = await runCliInProcess(["verify", PDF, "--evidence", path, "--json"], { env });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const results = (
      run.json as {
        results: { verdict: string; reason: string; message: string; evidence: Record<string, unknown> }[];
      }
    ).results;
    expect(results.map((r) => [r.verdict, r.reason])).toEqual([
      ["FAIL", "wrong-page"],
      ["FAIL", "absent"],
    ]);
    expect(results[0].evidence).toMatchObject({ layer: "blank", foundOnPages: [3] });
    for (const r of results) expect(r.message).not.toMatch(/image/);
  });

  it("is not_found for cite-check, never no_text_layer", async () => {
    const citations = join(tmp.dir, "citations.json");
    writeFileSync(
      citations,
      JSON.stringify([
        {
          id: "c",
          quote: "the keeper counting the boats at dawn",
          page: 2,
          bounding_box: { left: 0, bottom: 0, right: 612, top: 792 },
        },
      ]),
    );
    const run = await runCliInProcess(["cite-check", PDF, "--citations", citations, "--json"], { env });
    expect(run.stderr).toBe("");
    const result = (run.json as { results: { reason: string }[] }).results[0];
    expect(result.reason).toBe("not_on_page");
  });
});
