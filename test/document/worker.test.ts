// Extraction in a worker thread under a deadline, and opening only some pages.
import { describe, expect, it } from "vitest";
import { openDocument } from "../../src/document/open.js";
import { CiteproofError } from "../../src/errors.js";
import { sha256Hex } from "../../src/source/file.js";
import { syntheticLine, syntheticPdf } from "../helpers/synthetic-pdf.js";

function source(bytes: Uint8Array, origin: string) {
  return { bytes, sha256: sha256Hex(bytes), origin };
}

describe("the extraction worker", () => {
  it("reads a generated PDF line by line", async () => {
    const doc = await openDocument(source(syntheticPdf(3, 5), "small.pdf"), { noCache: true });
    expect(doc.pageCount).toBe(3);
    expect(doc.pages[1]!.text.split("\n")).toEqual(Array.from({ length: 5 }, (_, l) => syntheticLine(2, l)));
  });

  it("extracts only the pages asked for, ignoring pages beyond the count", async () => {
    const doc = await openDocument(source(syntheticPdf(6, 3), "six.pdf"), {
      noCache: true,
      pages: [5, 2, 2, 9],
    });
    expect(doc.pageCount).toBe(6);
    expect(doc.extractedPages).toBe(2);
    expect(doc.pages.map((p) => p?.page)).toEqual([undefined, 2, undefined, undefined, 5, undefined]);
  });

  it("stops a long extraction at the deadline with EXTRACTION_TIMEOUT, and recovers", async () => {
    const big = source(syntheticPdf(2000), "big.pdf");
    const started = Date.now();
    const error = await openDocument(big, { noCache: true, timeoutMs: 300 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(CiteproofError);
    expect((error as CiteproofError).code).toBe("EXTRACTION_TIMEOUT");
    expect((error as CiteproofError).message).toBe("extraction did not finish within 300 ms and was stopped");
    // The deadline holds: the call returns soon after it, not when extraction would have ended.
    expect(elapsed).toBeLessThan(300 + 3000);
    // The same PDF, a few pages of it, opens fine right after.
    const some = await openDocument(big, { noCache: true, pages: [1, 2000] });
    expect(some.pages[1999]!.text.split("\n")[0]).toBe(syntheticLine(2000, 0));
  });
});
