import { afterEach, describe, expect, it } from "vitest";
import { OcrSession } from "../../src/ocr/tesseract.js";

// A one-pixel white PNG: OCR of it is never reached, the deadline passes while the engine starts.
const PNG = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEANl9ngAAAAABJRU5ErkJggg==",
    "base64",
  ),
);

describe("an OCR session cut by its deadline while the engine starts", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  afterEach(() => {
    process.off("unhandledRejection", onUnhandled);
  });

  it("rejects with EXTRACTION_TIMEOUT and sends nothing to the terminated worker afterwards", async () => {
    process.on("unhandledRejection", onUnhandled);
    const session = new OcrSession();
    await expect(session.recognize(PNG, 1)).rejects.toMatchObject({ code: "EXTRACTION_TIMEOUT" });
    // Long enough for the engine to finish starting and be terminated, and for a stray job to fail.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await session.close();
    expect(unhandled.map(String)).toEqual([]);
  }, 30_000);
});
