import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXTRACTION_SCHEMA_VERSION } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { ANCHORS_SCHEMA_VERSION, documentAnchors, isAnchorsRecord } from "../../src/layout/anchors.js";
import { openForChecks } from "../../src/reading/open-for-checks.js";
import { derivationKey } from "../../src/util/derivation.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";

const cache = tempDir("citeproof-anchors-");
afterAll(() => cache.remove());

describe("the anchors record", () => {
  it("names its schema (the extraction schema that holds anchors) and the rules that made it", async () => {
    const doc = await openDocument(fixture("eq-leqno"), { noCache: true });
    const record = await documentAnchors(doc);
    expect(record.schemaVersion).toBe(EXTRACTION_SCHEMA_VERSION);
    expect(ANCHORS_SCHEMA_VERSION).toBe(2);
    expect(record.layoutVersion).toBe(derivationKey("anchors"));
    expect(record.sha256).toBe(doc.sha256);
    expect(record.pageCount).toBe(2);
    expect(record.pagesWithoutText).toEqual([]);
    expect(isAnchorsRecord(record)).toBe(true);
    expect(isAnchorsRecord(JSON.parse(JSON.stringify(record)))).toBe(true);
    expect(isAnchorsRecord({ ...record, equations: [{ page: 1 }] })).toBe(false);
    expect(isAnchorsRecord({ schemaVersion: 1 })).toBe(false);
  });

  it("is cached beside the extraction and read back, equal, without the geometry", async () => {
    const first = await openDocument(fixture("eq-sections"), { cacheDir: cache.dir });
    const made = await documentAnchors(first);
    const files = readdirSync(first.cache!.dir);
    expect(files).toContain("rec-anchors.bin");
    const again = await openDocument(fixture("eq-sections"), { cacheDir: cache.dir });
    expect(again.extractedPages).toBe(0);
    expect(again.geometry.size).toBe(0);
    expect(await documentAnchors(again)).toEqual(made);
  });

  it("is computed for a document opened for some pages only", async () => {
    const whole = await documentAnchors(await openDocument(fixture("eq-sections"), { noCache: true }));
    const part = await openDocument(fixture("eq-sections"), { noCache: true, pages: [2] });
    expect(await documentAnchors(part)).toEqual(whole);
  });

  it("is recomputed when the cached record was made by other rules", async () => {
    const doc = await openDocument(fixture("eq-twocolumn"), { cacheDir: cache.dir });
    const made = await documentAnchors(doc);
    doc.cache!.writeRecord("anchors", { ...made, layoutVersion: "0", equations: [] });
    expect((await documentAnchors(doc)).equations).toEqual(made.equations);
    expect(join(doc.cache!.dir, "rec-anchors.bin")).toBeTruthy();
  });

  it("is decided from geometry held during the one extraction when checks need it", async () => {
    const dir = tempDir("citeproof-checks-");
    try {
      const text = await openForChecks(fixture("eq-sections"), { cacheDir: dir.dir }, false);
      expect([text.extractedPages, text.geometry.size]).toEqual([text.pageCount, 0]);
      const other = tempDir("citeproof-checks-");
      try {
        const held = await openForChecks(fixture("eq-sections"), { cacheDir: other.dir }, true);
        expect([held.extractedPages, held.geometry.size]).toEqual([held.pageCount, held.pageCount]);
        expect(await documentAnchors(held)).toEqual(await documentAnchors(text));
        // Cached now: a later open for checks needs no geometry at all.
        const later = await openForChecks(fixture("eq-sections"), { cacheDir: other.dir }, true);
        expect([later.extractedPages, later.geometry.size]).toEqual([0, 0]);
      } finally {
        other.remove();
      }
    } finally {
      dir.remove();
    }
  });
});
