import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeEngine } from "../../src/document/engine-client.js";
import { openDocument } from "../../src/document/open.js";
import { readPdfFile } from "../../src/source/file.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";

afterAll(() => closeEngine());

describe("the extraction worker", () => {
  it("serves many extractions in one process, one after another and at once", async () => {
    const names = ["paper", "twocolumn", "typography", "layout"];
    const expected = new Map<string, string>();
    for (const name of names) {
      const doc = await openDocument(fixture(name), { noCache: true });
      expected.set(name, doc.pages.map((p) => p?.text).join("\f"));
    }
    for (let round = 0; round < 40; round++) {
      const name = names[round % names.length];
      const doc = await openDocument(fixture(name), { noCache: true, pages: [1] });
      expect(doc.pages[0]?.text).toBe(expected.get(name)!.split("\f")[0]);
    }
    const together = await Promise.all(
      names.flatMap((name) => [name, name]).map((name) => openDocument(fixture(name), { noCache: true })),
    );
    together.forEach((doc, i) => {
      expect(doc.pages.map((p) => p?.text).join("\f")).toBe(expected.get(names[Math.floor(i / 2)]));
    });
  });

  it("gives every request for a damaged PDF the same coded error, and goes on serving", async () => {
    const scratch = tempDir();
    try {
      const good = await readPdfFile(fixture("paper"));
      const damagedPath = join(scratch.dir, "damaged.pdf");
      writeFileSync(damagedPath, Buffer.concat([Buffer.from("%PDF-1.5\n"), Buffer.alloc(2000, 0x41)]));
      const damaged = await readPdfFile(damagedPath);
      const outcomes = await Promise.allSettled([
        openDocument(damaged, { noCache: true }),
        openDocument(damaged, { noCache: true }),
      ]);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe("rejected");
        expect((outcome as PromiseRejectedResult).reason.code).toBe("DAMAGED_PDF");
      }
      const after = await openDocument(good, { noCache: true });
      expect(after.pageCount).toBeGreaterThan(0);
    } finally {
      scratch.remove();
    }
  });

  it("ends gracefully when closed, and starts again on the next extraction", async () => {
    await closeEngine();
    const doc = await openDocument(fixture("paper"), { noCache: true, pages: [1] });
    expect(doc.pages[0]?.hasTextLayer).toBe(true);
  });
});
