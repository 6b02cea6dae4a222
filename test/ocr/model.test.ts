// The OCR model both engines read: the package's gzip file, unpacked once for every session of a process.
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { modelFile, unpackedModel } from "../../src/ocr/model.js";

describe("the OCR model", () => {
  it("is unpacked once, to the package file's content, for every session", () => {
    const first = unpackedModel();
    expect(first.equals(gunzipSync(modelFile().bytes))).toBe(true);
    expect(unpackedModel()).toBe(first);
  });
});
