// Pages of a document text file read in this process are served again from memory while the file
// stands unchanged (a resident server's calls on one paper), and read afresh once it is replaced.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExtractionCache } from "../../src/document/cache.js";
import { tempDir } from "../helpers/fixture-files.js";
import { textPage } from "../helpers/page-text.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
const SHA = "a".repeat(64);

describe("pages read from a document text file", () => {
  it("are served from memory while the file stands, and read again once it is replaced", () => {
    const root = join(tmp.dir, "cache");
    const pages = [textPage(1, "first page\nof words"), textPage(2, "second page")];
    new ExtractionCache(root, SHA).writeDocumentText(pages);
    // Each run opens the cache anew, as each call of a server does.
    const first = new ExtractionCache(root, SHA).readPageText(2);
    expect(first).toEqual(pages[1]);
    const again = new ExtractionCache(root, SHA).readPageText(2);
    expect(again).toBe(first);
    // Another process stores the document's text again: the file is read afresh.
    const changed = [pages[0], textPage(2, "second page, stored again")];
    new ExtractionCache(root, SHA).writeDocumentText(changed);
    const after = new ExtractionCache(root, SHA).readPageText(2);
    expect(after).toEqual(changed[1]);
    expect(after).not.toBe(first);
  });
});
