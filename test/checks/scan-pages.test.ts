// The quotation check on scanned pages (fixtures/src/scan-layers.tex): words that are an image are
// never found absent. A page whose text layer is only a stamp or a page number gives FLAG
// no-text-layer; a page read from the PDF's own OCR layer is checked, and says so.
import { beforeAll, describe, expect, it } from "vitest";
import { type CheckContext, checkContext, checkRecord } from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";
import { fixture } from "../helpers/fixture-files.js";

let context: CheckContext;
beforeAll(async () => {
  context = checkContext(await openDocument(fixture("scan-layers"), { noCache: true }));
});

const quote = (page: number, text: string) => checkRecord(context, { kind: "quotation", page, text });

describe("quotations on scanned pages", () => {
  it("flags a true quotation on a scan whose text is a stamp: no-text-layer, never FAIL absent", () => {
    const r = quote(1, "The learner receives examples whose labels were flipped");
    expect(r).toMatchObject({ verdict: "FLAG", reason: "no-text-layer" });
    expect(r.evidence.layer).toBe("sparse-over-image");
    expect(r.message).toBe(
      "page 1 exists, but its words are an image (its text layer holds only a stamp, header or page number); the wording was not checked: OCR it (ocr auto) or read it yourself",
    );
  });

  it("flags a quotation on a scan whose only text is its page number, and a false one alike", () => {
    expect(quote(3, "Every run used the same seed")).toMatchObject({
      verdict: "FLAG",
      reason: "no-text-layer",
    });
    expect(quote(3, "words the page never held at all")).toMatchObject({
      verdict: "FLAG",
      reason: "no-text-layer",
    });
  });

  it("still runs the wrong-page search over pages with text, and names their layers", () => {
    const r = quote(1, "the labels carry almost no information");
    expect(r).toMatchObject({ verdict: "FLAG", reason: "no-text-layer" });
    expect(r.evidence).toMatchObject({ foundOnPages: [2], foundOnLayers: ["ocr-layer"] });
    expect(r.message).toContain("the words do stand on page 2");
  });

  it("checks a page read from the PDF's own OCR layer, saying that reading can misread", () => {
    const pass = quote(2, "the labels carry almost no information");
    expect(pass).toMatchObject({ verdict: "PASS", reason: "found" });
    expect(pass.evidence.layer).toBe("ocr-layer");
    expect(pass.message).toBe("found on page 2 (in the PDF's own OCR layer, which can misread)");
    expect(quote(2, "the labels carry a great deal of information")).toMatchObject({
      verdict: "FAIL",
      reason: "absent",
    });
    // Text an image paints over is an OCR layer too.
    expect(quote(4, "whose mistakes are rarely systematic")).toMatchObject({
      verdict: "PASS",
      evidence: { layer: "ocr-layer" },
    });
  });
});
