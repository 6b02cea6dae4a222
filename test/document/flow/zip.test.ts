// The bounded zip reader: parts read by name, damaged or hostile archives a coded error naming the part,
// bombs stopped at their cap while inflating.
import { crc32, createDeflateRaw } from "node:zlib";
import { describe, expect, it } from "vitest";
import { safeEntryName, ZIP_LIMITS, ZipArchive } from "../../../src/document/flow/zip.js";
import { CiteproofError } from "../../../src/errors.js";
import { zipFile } from "../../helpers/zip-file.js";

/** `mib` MiB of zeros deflated a chunk at a time, never held whole. */
async function zeros(mib: number): Promise<{ deflated: Uint8Array; size: number; crc: number }> {
  const chunk = Buffer.alloc(1024 * 1024);
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  let crc = 0;
  for (let i = 0; i < mib; i++) {
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await done;
  return { deflated: Buffer.concat(out), size: mib * 1024 * 1024, crc };
}

function codeOf(run: () => unknown): { code: string; message: string; part?: unknown } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof CiteproofError)) throw error;
    return { code: error.code, message: error.message, part: error.details?.part };
  }
  throw new Error("no error");
}

describe("ZipArchive", () => {
  it("reads stored and deflated parts by name, in the directory's order", () => {
    const zip = ZipArchive.open(
      zipFile([
        { name: "mimetype", data: "application/epub+zip" },
        { name: "OEBPS/ch1.xhtml", data: "<p>“Office” efficient</p>".repeat(50), deflate: true },
      ]),
      "book.epub",
    );
    expect(zip.names()).toEqual(["mimetype", "OEBPS/ch1.xhtml"]);
    expect(Buffer.from(zip.read("mimetype")).toString()).toBe("application/epub+zip");
    expect(Buffer.from(zip.read("OEBPS/ch1.xhtml")).toString()).toBe("<p>“Office” efficient</p>".repeat(50));
  });

  it("a missing part is CONTENT_INVALID naming it", () => {
    const zip = ZipArchive.open(zipFile([{ name: "a.txt", data: "a" }]), "x.docx");
    expect(codeOf(() => zip.read("word/document.xml"))).toMatchObject({
      code: "CONTENT_INVALID",
      part: "word/document.xml",
    });
  });

  it("names that climb out of the archive are never reachable", () => {
    for (const name of ["../etc/passwd", "/abs", "a\\b", "a/../../b", "C:/x", "./a", "a\0b"])
      expect(safeEntryName(name), name).toBe(false);
    expect(safeEntryName("OEBPS/Text/ch 1.xhtml")).toBe(true);
    const zip = ZipArchive.open(
      zipFile([
        { name: "../evil.xml", data: "x" },
        { name: "ok.xml", data: "y" },
      ]),
      "z",
    );
    expect(zip.names()).toEqual(["ok.xml"]);
  });

  it("two entries of one name are CONTENT_INVALID", () => {
    const bytes = zipFile([
      { name: "word/document.xml", data: "a" },
      { name: "word/document.xml", data: "b" },
    ]);
    expect(codeOf(() => ZipArchive.open(bytes, "twin.docx")).code).toBe("CONTENT_INVALID");
  });

  it("a part whose bytes fail its CRC is CONTENT_INVALID naming it", () => {
    const bytes = zipFile([{ name: "content.xml", data: "<office:document/>" }]);
    bytes[30 + "content.xml".length + 2] ^= 0xff;
    expect(codeOf(() => ZipArchive.open(bytes, "x.odt").read("content.xml"))).toMatchObject({
      code: "CONTENT_INVALID",
      part: "content.xml",
    });
  });

  it("truncated, empty and non-zip bytes are CONTENT_INVALID", () => {
    const whole = zipFile([{ name: "a", data: "hello" }]);
    for (const bytes of [new Uint8Array(0), whole.subarray(0, whole.length - 10), Buffer.from("%PDF-1.7")])
      expect(codeOf(() => ZipArchive.open(bytes, "cut.epub")).code).toBe("CONTENT_INVALID");
  });

  it("a ratio bomb (zeros at ~1000:1) stops at the ratio cap while inflating", async () => {
    const bomb = await zeros(16);
    const zip = ZipArchive.open(zipFile([{ name: "word/document.xml", raw: bomb }]), "bomb.docx");
    const error = codeOf(() => zip.read("word/document.xml"));
    expect(error).toMatchObject({ code: "CONTENT_INVALID", part: "word/document.xml" });
    expect(error.message).toContain(`${ZIP_LIMITS.ratio} times its compressed size`);
  });

  it("a zip bomb claiming a tiny size stops at the part cap, memory bounded", async () => {
    const bomb = await zeros(40);
    const limits = { ...ZIP_LIMITS, ratio: 10_000, entryBytes: 4 * 1024 * 1024 };
    const zip = ZipArchive.open(
      zipFile([{ name: "content.xml", raw: { ...bomb, size: 10 } }]),
      "bomb.odt",
      limits,
    );
    const before = process.memoryUsage().arrayBuffers;
    const error = codeOf(() => zip.read("content.xml"));
    expect(error.message).toContain(`the ${limits.entryBytes} bytes a part may hold`);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 * limits.entryBytes);
  });

  it("parts within their caps stop once the archive's total is spent", () => {
    const part = "x".repeat(1000);
    const bytes = zipFile([0, 1, 2].map((i) => ({ name: `p${i}`, data: part, deflate: true })));
    const zip = ZipArchive.open(bytes, "many.epub", { ...ZIP_LIMITS, totalBytes: 2500 });
    zip.read("p0");
    zip.read("p1");
    expect(codeOf(() => zip.read("p2")).message).toContain("the 2500 bytes an archive may hold");
  });

  it("a part in an unknown compression method is CONTENT_NOT_SUPPORTED", () => {
    const bytes = zipFile([{ name: "a", data: "x" }]);
    const central = bytes.length - 22 - 46 - 1;
    bytes[central + 10] = 12; // bzip2
    expect(codeOf(() => ZipArchive.open(bytes, "b.epub").read("a")).code).toBe("CONTENT_NOT_SUPPORTED");
  });
});
