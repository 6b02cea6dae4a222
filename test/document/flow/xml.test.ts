// Safe XML reading: DTD entities never expanded, external ones never fetched, deep nesting refused with
// a coded error, encodings from the byte order mark or the declaration.
import { describe, expect, it } from "vitest";
import { attr, descendants, MAX_DEPTH, parseXml, textContent } from "../../../src/document/flow/xml.js";
import { CiteproofError } from "../../../src/errors.js";

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CiteproofError) return `${error.code} ${String(error.details?.part)}`;
    throw error;
  }
  return "no error";
}

const LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY trick "<p>]>">
]>
<lolz>&lol9;</lolz>`;

describe("parseXml", () => {
  it("resolves namespaces of elements and attributes, prefixes as declared", () => {
    const { root } = parseXml(
      '<doc xmlns="urn:d" xmlns:q="urn:q"><q:p q:val="Heading1" plain="1"><r>a</r></q:p></doc>',
      "t.xml",
    );
    const p = descendants(root, "urn:q", "p")[0]!;
    expect([root.ns, root.local, attr(p, "val", "urn:q"), attr(p, "plain")]).toEqual([
      "urn:d",
      "doc",
      "Heading1",
      "1",
    ]);
    expect(descendants(root, "urn:d", "r")).toHaveLength(1);
  });

  it("decodes predefined and numeric references once, CDATA as written", () => {
    const { root } = parseXml("<a>&amp;amp; &#x201C;q&#8221; <![CDATA[x &amp; <y>]]> &lt;</a>", "t.xml");
    expect(textContent(root)).toBe("&amp; “q” x &amp; <y> <");
  });

  it("refuses what is not well-formed, naming the part, the fault and the line", () => {
    const fault = (xml: string) => {
      try {
        parseXml(xml, "p.xml");
      } catch (error) {
        if (error instanceof CiteproofError && error.details?.part === "p.xml") return error.message;
        throw error;
      }
      return "read";
    };
    expect(fault("<a><b>x</a>")).toBe("p.xml is not well-formed XML: <b> is not closed (line 1)");
    expect(fault("<a>\n<b>x</b>")).toBe("p.xml is not well-formed XML: <a> is not closed (line 2)");
    expect(fault("<a>\n\nx</b></a>")).toBe(
      "p.xml is not well-formed XML: an end tag closes no open element (line 3)",
    );
    expect(fault("<a/><b/>")).toMatch(/a second root element <b>/u);
    expect(fault("<a/>tail")).toMatch(/text outside the root element/u);
    expect(fault("<a>x < y</a>")).toMatch(/a bare < in text/u);
    expect(fault("<a>R&D</a>")).toMatch(/a bare & in text/u);
    expect(fault("<a b=c/>")).toMatch(/attribute b has no quoted value/u);
    expect(fault("<a b/>")).toMatch(/attribute b has no quoted value/u);
    expect(fault('<a b="x&y"/>')).toMatch(/attribute b holds a bare &/u);
    expect(
      fault(
        "<?xml version='1.0'?>\n<!-- c --><!DOCTYPE a>\n<a>&amp; &#1; &nbsp; <b/><![CDATA[ < & ]]></a>\n",
      ),
    ).toBe("read");
  });

  it("never expands a DTD's entities (billion laughs)", () => {
    const doc = parseXml(LAUGHS, "laughs.xml");
    expect(doc.root.local).toBe("lolz");
    expect(textContent(doc.root)).toBe("&lol9;");
    expect(doc.doctype).toBe("lolz");
  });

  it("never reads an external entity", () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>`;
    const text = textContent(parseXml(xxe, "xxe.xml").root);
    expect(text).toBe("&xxe;");
    expect(text).not.toContain("root:");
  });

  it("keeps the doctype's public identifier for kind checks", () => {
    const jats = `<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1-mathml3.dtd"><article/>`;
    expect(parseXml(jats, "a.nxml").doctype).toContain("-//NLM//DTD JATS");
  });

  it("nesting 100,000 deep is CONTENT_INVALID naming the part, not a crash", () => {
    expect(codeOf(() => parseXml(`${"<a>".repeat(100_000)}x${"</a>".repeat(100_000)}`, "deep.xml"))).toBe(
      "CONTENT_INVALID deep.xml",
    );
    expect(() => parseXml(`${"<a>".repeat(MAX_DEPTH)}${"</a>".repeat(MAX_DEPTH)}`, "ok.xml")).not.toThrow();
  });

  it("reads UTF-16 with either byte order mark, and UTF-16 declared without one", () => {
    const xml = '<?xml version="1.0" encoding="UTF-16"?><r>naïve “quote” ﬁ</r>';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, "utf16le")]);
    const be = Buffer.from(le).swap16();
    const bare = Buffer.from(xml, "utf16le");
    for (const bytes of [le, be, bare])
      expect(textContent(parseXml(bytes, "u16.xml").root)).toBe("naïve “quote” ﬁ");
  });

  it("honours a declared single-byte encoding; invalid UTF-8 is CONTENT_INVALID naming the part", () => {
    const latin = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><r>caf\xe9</r>', "latin1");
    expect(textContent(parseXml(latin, "l.xml").root)).toBe("café");
    const bad = Buffer.from([...Buffer.from("<r>"), 0xc3, 0x28, ...Buffer.from("</r>")]);
    expect(codeOf(() => parseXml(bad, "word/document.xml"))).toBe("CONTENT_INVALID word/document.xml");
  });

  it("XHTML's named references decode when asked, and only then", () => {
    const xhtml = "<p>a&nbsp;b&shy;c &amp;nbsp;</p>";
    expect(textContent(parseXml(xhtml, "c.xhtml", { htmlEntities: true }).root)).toBe(
      "a\u00a0b\u00adc &nbsp;",
    );
    expect(textContent(parseXml(xhtml, "c.xml").root)).toBe("a&nbsp;b&shy;c &nbsp;");
  });

  it("text with no element is CONTENT_INVALID", () => {
    expect(codeOf(() => parseXml("just words", "x.xml"))).toBe("CONTENT_INVALID x.xml");
    expect(codeOf(() => parseXml(new Uint8Array(0), "empty.xml"))).toBe("CONTENT_INVALID empty.xml");
  });
});
