// Hostile and broken DOCX, ODT, EPUB and JATS sources: each a coded error naming the part (or read
// safely), fast, with memory bounded; never a crash, a hang, an expanded entity or a file read.
import { crc32, deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { detectKind } from "../../../src/document/flow/detect.js";
import { DEFAULT_FLOW_LIMITS, type FlowKind } from "../../../src/document/flow/model.js";
import { readerOf } from "../../../src/document/flow/readers.js";
import { ZipArchive } from "../../../src/document/flow/zip.js";
import { CiteproofError } from "../../../src/errors.js";
import { docx, epub, odt, wp, xhtml } from "../../helpers/container-sources.js";
import { zipFile } from "../../helpers/zip-file.js";

async function read(kind: FlowKind, bytes: Uint8Array | string, deadline?: number) {
  const data = typeof bytes === "string" ? new Uint8Array(Buffer.from(bytes)) : bytes;
  const reader = await readerOf(kind, `x.${kind}`);
  return reader.read(
    { bytes: data, sha256: "0".repeat(64), origin: `x.${kind}` },
    { ...DEFAULT_FLOW_LIMITS, deadline },
  );
}

async function failure(kind: FlowKind, bytes: Uint8Array | string, deadline?: number): Promise<string> {
  try {
    await read(kind, bytes, deadline);
  } catch (error) {
    if (!(error instanceof CiteproofError)) throw error;
    return `${error.code} ${String(error.details?.part ?? "")}`.trim();
  }
  return "read";
}

/** `mib` MiB of one letter, deflated (about 1000 to 1). */
function bomb(mib: number): { deflated: Uint8Array; size: number; crc: number } {
  const plain = Buffer.alloc(mib * 1024 * 1024, 0x41);
  return { deflated: deflateRawSync(plain, { level: 9 }), size: plain.length, crc: crc32(plain) };
}

const LAUGHS = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>`;

describe("hostile containers", () => {
  it("a zip bomb in a DOCX's main part stops at the ratio cap, naming the part", async () => {
    const started = Date.now();
    const bytes = zipFile([
      {
        name: "[Content_Types].xml",
        data: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
      },
      { name: "word/document.xml", raw: bomb(48) },
    ]);
    expect(await failure("docx", bytes)).toBe("CONTENT_INVALID word/document.xml");
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("a chapter of an EPUB inflating past the archive's cap is CONTENT_INVALID naming it", async () => {
    const book = epub({
      spine: ["c1"],
      documents: { c1: xhtml("<p>Words of the chapter.</p>".repeat(200)) },
    });
    const limits = { ...DEFAULT_FLOW_LIMITS, maxInflatedBytes: 3000 };
    const reader = await readerOf("epub", "x.epub");
    const error = await reader.read({ bytes: book, sha256: "0", origin: "x.epub" }, limits).catch((e) => e);
    expect(`${error.code} ${error.details?.part}`).toBe("CONTENT_INVALID OPS/c1.xhtml");
    expect(error.message).toContain("the 3000 bytes an archive may hold");
  });

  it("billion laughs in a DOCX is never expanded", async () => {
    const bytes = docx("", [], []);
    const doc = await read(
      "docx",
      zipFile([
        ...["[Content_Types].xml", "_rels/.rels"].map((name) => ({ name, data: partOf(bytes, name) })),
        {
          name: "word/document.xml",
          data: `${LAUGHS}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${wp("Before &lol9; after the laughter ends.")}</w:body></w:document>`,
        },
      ]),
    );
    expect(doc.text).toBe("Before &lol9; after the laughter ends.");
  });

  it("an external entity in a JATS article is never read", async () => {
    const article = `<?xml version="1.0"?><!DOCTYPE article [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><article><body><p>Read &xxe; here.</p></body></article>`;
    const doc = await read("jats", article);
    expect(doc.text).toBe("Read &xxe; here.");
    expect(doc.text).not.toMatch(/root:/u);
  });

  it("JATS nested 100,000 deep is CONTENT_INVALID, not a crash", async () => {
    const deep = `<article><body>${"<sec>".repeat(100_000)}<p>x</p>${"</sec>".repeat(100_000)}</body></article>`;
    expect(await failure("jats", deep)).toBe("CONTENT_INVALID x.jats");
  });

  it("an EPUB whose spine names a missing file, an unknown item, or one file twice is CONTENT_INVALID naming it", async () => {
    const doc = xhtml("<p>Words of the chapter.</p>");
    const missing = epub({
      spine: ["c1", "c2"],
      documents: { c1: doc },
      manifest: `<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="gone.xhtml" media-type="application/xhtml+xml"/>`,
    });
    expect(await failure("epub", missing)).toBe("CONTENT_INVALID OPS/gone.xhtml");
    expect(await failure("epub", epub({ spine: ["c1", "nope"], documents: { c1: doc } }))).toBe(
      "CONTENT_INVALID OPS/book.opf",
    );
    const looping = epub({
      spine: ["c1", "again"],
      documents: { c1: doc },
      manifest: `<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="again" href="./c1.xhtml" media-type="application/xhtml+xml"/>`,
    });
    expect(await failure("epub", looping)).toBe("CONTENT_INVALID OPS/c1.xhtml");
    const climbing = epub({
      spine: ["c1"],
      documents: {},
      manifest: `<item id="c1" href="../../etc/passwd" media-type="application/xhtml+xml"/>`,
    });
    expect(await failure("epub", climbing)).toBe("CONTENT_INVALID OPS/book.opf");
  });

  it("an EPUB whose chapters are encrypted (DRM) is CONTENT_NOT_SUPPORTED naming the part; obfuscated fonts are not", async () => {
    const enc = (uri: string) =>
      `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const book = (uri: string) =>
      epub({
        spine: ["c1"],
        documents: { c1: xhtml("<p>Words of the chapter here.</p>") },
        extra: [{ name: "META-INF/encryption.xml", data: enc(uri) }],
      });
    expect(await failure("epub", book("OPS/c1.xhtml"))).toBe("CONTENT_NOT_SUPPORTED OPS/c1.xhtml");
    expect(await failure("epub", book("OPS/fonts/serif.otf"))).toBe("read");
  });

  it("a DOCX that is a renamed zip of something else is not read as Word", async () => {
    const sheet = zipFile([
      {
        name: "[Content_Types].xml",
        data: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
      },
      {
        name: "_rels/.rels",
        data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      },
      { name: "xl/workbook.xml", data: "<workbook/>" },
    ]);
    expect(() => detectKind(sheet, "report.docx")).toThrow(/not an EPUB, DOCX or ODT/u);
    expect(await failure("docx", sheet)).toBe("CONTENT_INVALID xl/workbook.xml");
    const photos = zipFile([{ name: "holiday.jpg", data: "\xff\xd8\xff\xe0" }]);
    expect(await failure("docx", photos)).toBe("CONTENT_INVALID [Content_Types].xml");
    expect(await failure("odt", photos)).toBe("CONTENT_INVALID content.xml");
    expect(await failure("epub", photos)).toBe("CONTENT_INVALID META-INF/container.xml");
  });

  it("a container declaring another media type is CONTENT_INVALID naming mimetype", async () => {
    const spreadsheet = zipFile([
      { name: "mimetype", data: "application/vnd.oasis.opendocument.spreadsheet" },
    ]);
    expect(await failure("odt", spreadsheet)).toBe("CONTENT_INVALID mimetype");
    expect(await failure("epub", spreadsheet)).toBe("CONTENT_INVALID mimetype");
  });

  it("0 bytes, and bytes that are no zip, are CONTENT_INVALID for every container kind", async () => {
    for (const kind of ["docx", "odt", "epub"] as const) {
      expect(await failure(kind, new Uint8Array(0))).toMatch(/^CONTENT_INVALID/u);
      expect(await failure(kind, "%PDF-1.7 not a zip")).toMatch(/^CONTENT_INVALID/u);
    }
    expect(await failure("jats", new Uint8Array(0))).toBe("CONTENT_INVALID x.jats");
  });

  it("invalid UTF-8 in a part is CONTENT_INVALID naming it", async () => {
    const bad = Buffer.concat([Buffer.from("<office:document-content>"), Buffer.from([0xc3, 0x28])]);
    const bytes = zipFile([
      { name: "mimetype", data: "application/vnd.oasis.opendocument.text" },
      { name: "content.xml", data: bad },
    ]);
    expect(await failure("odt", bytes)).toBe("CONTENT_INVALID content.xml");
  });

  it("malformed XML in a DOCX, ODT, EPUB or JATS part is CONTENT_INVALID naming the part", async () => {
    // Each would read leniently as words moved between elements: a quotation checked against a text the
    // producer never wrote.
    expect(await failure("docx", docx("<w:p><w:r><w:t>Words</w:r></w:t></w:p>"))).toBe(
      "CONTENT_INVALID word/document.xml",
    );
    expect(await failure("odt", odt("<text:p>Tom & Jerry</text:p>"))).toBe("CONTENT_INVALID content.xml");
    const chapter = epub({ documents: { c1: xhtml("<p>Open <em>and never closed</p>") }, spine: ["c1"] });
    expect(await failure("epub", chapter)).toBe("CONTENT_INVALID OPS/c1.xhtml");
    expect(await failure("jats", "<article><body><p>a < b</p></body></article>")).toBe(
      "CONTENT_INVALID x.jats",
    );
    expect(await failure("jats", "<article><body><p>x</p></body></article><article/>")).toBe(
      "CONTENT_INVALID x.jats",
    );
    expect(await failure("odt", odt("<text:p>Well formed &amp; fine.</text:p>"))).toBe("read");
  });

  it("a passed deadline is EXTRACTION_TIMEOUT", async () => {
    expect(await failure("odt", odt("<text:p>Words.</text:p>"), Date.now() - 1)).toBe("EXTRACTION_TIMEOUT");
  });
});

/** A part's text from a zip. */
function partOf(zip: Uint8Array, name: string): string {
  return Buffer.from(ZipArchive.open(zip, "part.zip").read(name)).toString("utf8");
}
