import { describe, expect, it } from "vitest";
import { validFlowDocument } from "../../../src/document/flow/valid.js";
import { readFlow } from "../../helpers/flow-source.js";

describe("a flow document read back from the cache", () => {
  it("is trusted only with its hash, its reader's version and every offset in range", async () => {
    const doc = await readFlow("markdown", "# 1 A\n\nWords here.\n\n## 1.1 B\n\nMore words.\n");
    const copy = () => structuredClone(doc);
    expect(validFlowDocument(copy(), doc.sha256)).toBe(true);
    expect(validFlowDocument(copy(), "0".repeat(64))).toBe(false);
    const stale = copy();
    stale.readerVersion = "0";
    expect(validFlowDocument(stale, doc.sha256)).toBe(false);
    const past = copy();
    past.blocks[1].endCp = past.lengthCp + 1;
    expect(validFlowDocument(past, doc.sha256)).toBe(false);
    // A heading whose parent stands after it would make walking up its chain loop.
    const loop = copy();
    loop.headings[0].parent = 1;
    expect(validFlowDocument(loop, doc.sha256)).toBe(false);
    const text = copy();
    text.text += "x";
    expect(validFlowDocument(text, doc.sha256)).toBe(false);
    expect(validFlowDocument({ ...copy(), kind: "pdf" }, doc.sha256)).toBe(false);
  });
});
