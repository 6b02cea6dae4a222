import { describe, expect, it } from "vitest";
import { detectKind } from "../../../src/document/flow/detect.js";
import { storedZip } from "../../helpers/stored-zip.js";

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));
const kind = (bytes: Uint8Array) => detectKind(bytes, "src").kind;
const codeOf = (bytes: Uint8Array) => {
  try {
    detectKind(bytes, "src");
  } catch (error) {
    return (error as { code: string }).code;
  }
  return "none";
};

describe("source kind by content", () => {
  it("PDF, HTML, XHTML, JATS, Markdown, text", () => {
    expect(kind(utf8("%PDF-1.7\n..."))).toBe("pdf");
    expect(kind(utf8("<!DOCTYPE html><title>x</title><p>Hi"))).toBe("html");
    expect(kind(utf8("\n  <div><p>Hello</p></div>"))).toBe("html");
    expect(
      kind(utf8('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>')),
    ).toBe("xhtml");
    expect(
      kind(
        utf8(
          '<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">\n<article><front/></article>',
        ),
      ),
    ).toBe("jats");
    expect(kind(utf8("# Title\n\nSome words.\n"))).toBe("markdown");
    expect(kind(utf8("Title\n=====\n\nSome words.\n"))).toBe("markdown");
    expect(kind(utf8("See [the site](https://example.org) for more.\n"))).toBe("markdown");
    expect(kind(utf8("1.  Introduction\r\n\r\n   This memo defines a protocol.\r\n"))).toBe("text");
    expect(kind(utf8("Plain words, < and > as text.\n"))).toBe("text");
  });

  it("UTF-16 with a byte-order mark is text of its encoding", () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("# Heading\n\nWords.", "utf16le")]);
    expect(detectKind(new Uint8Array(le), "src")).toEqual({
      kind: "markdown",
      encoding: "utf-16le",
      bomBytes: 2,
    });
    const be = Buffer.from("<html><body><p>x</p></body></html>", "utf16le").swap16();
    const withBom = Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
    expect(detectKind(new Uint8Array(withBom), "src")).toEqual({
      kind: "html",
      encoding: "utf-16be",
      bomBytes: 2,
    });
  });

  it("zip containers by their entries", () => {
    expect(
      kind(
        storedZip([
          { name: "mimetype", data: "application/epub+zip" },
          { name: "a.xhtml", data: "" },
        ]),
      ),
    ).toBe("epub");
    expect(kind(storedZip([{ name: "mimetype", data: "application/vnd.oasis.opendocument.text" }]))).toBe(
      "odt",
    );
    expect(
      kind(
        storedZip([
          { name: "[Content_Types].xml", data: "<Types/>" },
          { name: "word/document.xml", data: "<w/>" },
        ]),
      ),
    ).toBe("docx");
  });

  it("a zip of something else, a spreadsheet, a damaged zip", () => {
    expect(codeOf(storedZip([{ name: "notes.txt", data: "hello" }]))).toBe("CONTENT_NOT_SUPPORTED");
    expect(
      codeOf(storedZip([{ name: "mimetype", data: "application/vnd.oasis.opendocument.spreadsheet" }])),
    ).toBe("CONTENT_NOT_SUPPORTED");
    const cut = storedZip([{ name: "word/document.xml", data: "<w/>" }]);
    const damaged = cut.slice();
    // The central directory's signature (its one entry: 46 bytes and the name's 17).
    damaged.set([0, 0, 0, 0], damaged.length - 22 - 46 - 17);
    expect(codeOf(damaged)).toBe("CONTENT_INVALID");
    expect(codeOf(utf8("PK\u0003\u0004 no directory"))).toBe("CONTENT_INVALID");
  });

  it("0 bytes, binary and unknown XML are not supported", () => {
    expect(codeOf(new Uint8Array(0))).toBe("CONTENT_NOT_SUPPORTED");
    expect(codeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe(
      "CONTENT_NOT_SUPPORTED",
    );
    const noise = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256 || 1);
    expect(codeOf(noise)).toBe("CONTENT_NOT_SUPPORTED");
    expect(codeOf(utf8('<?xml version="1.0"?><rss><channel/></rss>'))).toBe("CONTENT_NOT_SUPPORTED");
  });

  it("a README opening with a comment or a centred logo and carrying Markdown headings is Markdown", () => {
    expect(kind(utf8("<!-- generated -->\n\n# Pandoc\n\nA universal converter.\n"))).toBe("markdown");
    expect(kind(utf8('<p align="center"><img src="logo.png"></p>\n\n## Benchmarks\n\nFast.\n'))).toBe(
      "markdown",
    );
    expect(kind(utf8('<p align="center"><img src="logo.png"></p>\n\n```sh\nmake\n```\n'))).toBe("markdown");
    // A page with <body> stays HTML whatever its lines look like; a fragment without Markdown too.
    expect(kind(utf8("<body>\n# not a heading\n<p>x</p></body>"))).toBe("html");
    expect(kind(utf8("<div>\n<p>Hello</p>\n</div>"))).toBe("html");
  });
});
