// Generated Office documents with figure captions: a flat OpenDocument text with drawn figures
// (rectangles and lines, exported as path objects) and caption paragraphs "Figure 1: ...",
// "Figure 1 : ..." (French typography) or "Figure 1. ...", below or above their figures, converted
// by LibreOffice straight to PDF or by way of .docx. Traps: table captions, paragraphs that open
// with a reference, mentions in sentences. The truth is the template's: it printed every label.
import { paragraph, sentence, xml } from "./lib/prose.mjs";

export const name = "captions-office";

const SEPARATORS = [
  { id: "colon", text: ":" },
  { id: "spacedcolon", text: " :" },
  { id: "period", text: "." },
];

export function documents({ rng }) {
  const docs = [];
  for (const sep of SEPARATORS) {
    for (const via of ["odt", "docx"]) {
      const doc = rng.fork(`${sep.id}-${via}`);
      const { fodt, cases, pages } = officeDocument(doc, sep.text);
      docs.push({
        id: `${sep.id}-${via}`,
        group: `office-${sep.id}/${via}`,
        ci: via === "odt" && sep.id === "spacedcolon",
        office: { fodt, via },
        cases,
        pages,
      });
    }
  }
  return docs;
}

function officeDocument(rng, separator) {
  const above = rng.chance(0.35);
  const body = [];
  const cases = [];
  const figures = rng.int(3, 5);
  body.push(p("Heading", "A generated report"));
  for (let n = 1; n <= figures; n++) {
    // Each figure opens a page of its own, so the template knows the page it is printed on.
    body.push(p(n === 1 ? "Body" : "BodyNewPage", paragraph(rng, [3, 5])));
    const cap = p("Caption", `Figure ${n}${separator} ${sentence(rng, 5, 12)}`);
    const drawing = `<text:p text:style-name="Center">${shape(n)}</text:p>`;
    body.push(...(above ? [cap, drawing] : [drawing, cap]));
    cases.push({ kind: "figure", label: String(n), truth: true, page: n });
    body.push(p("Body", paragraph(rng, [2, 4])));
    if (rng.chance(0.6)) {
      const t = 40 + n;
      switch (rng.pick(["table", "paragraph", "mention"])) {
        case "table":
          body.push(p("Caption", `Table ${t}${separator} ${sentence(rng, 4, 8)}`), table(rng));
          break;
        case "paragraph":
          body.push(p("Body", `Figure ${t} shows ${sentence(rng, 14, 22)} ${sentence(rng)}`));
          break;
        default:
          body.push(p("Body", `${sentence(rng, 6, 10)} As Figure ${t} shows, ${sentence(rng, 8, 14)}`));
      }
      cases.push({ kind: "figure", label: String(t), truth: false, note: "a trap the template printed" });
    }
  }
  cases.push({ kind: "figure", label: String(figures + 1), truth: false, note: "one past the last figure" });
  return { fodt: fodt(body.join("\n")), cases, pages: figures };
}

function p(style, text) {
  return `<text:p text:style-name="${style}">${xml(text)}</text:p>`;
}

/** A figure drawn as shapes: a frame and a polyline, anchored as a character of its paragraph. */
function shape(n) {
  return `<draw:g text:anchor-type="as-char" draw:z-index="${n}"><draw:rect draw:style-name="Shape" svg:width="9cm" svg:height="4cm" svg:x="0cm" svg:y="0cm"/><draw:polyline draw:style-name="Shape" svg:x="0.5cm" svg:y="0.5cm" svg:width="8cm" svg:height="3cm" svg:viewBox="0 0 8000 3000" draw:points="0,3000 2000,800 4000,2200 8000,0"/></draw:g>`;
}

function table(rng) {
  const row = (a, b) =>
    `<table:table-row><table:table-cell office:value-type="string"><text:p>${a}</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>${b}</text:p></table:table-cell></table:table-row>`;
  return `<table:table table:name="T${rng.int(1, 1e6)}"><table:table-column table:number-columns-repeated="2"/>${row("Case", "Value")}${row("A", `0.${rng.int(10, 99)}`)}${row("B", `0.${rng.int(10, 99)}`)}</table:table>`;
}

function fodt(body) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
 <style:style style:name="Body" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm" fo:text-align="justify"/><style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt"/></style:style>
 <style:style style:name="BodyNewPage" style:family="paragraph" style:parent-style-name="Body"><style:paragraph-properties fo:break-before="page" fo:margin-bottom="0.2cm" fo:text-align="justify"/><style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt"/></style:style>
 <style:style style:name="Heading" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.4cm"/><style:text-properties fo:font-size="16pt" fo:font-weight="bold"/></style:style>
 <style:style style:name="Caption" style:family="paragraph"><style:paragraph-properties fo:text-align="center" fo:margin-top="0.2cm" fo:margin-bottom="0.3cm"/><style:text-properties fo:font-size="10pt" fo:font-style="italic"/></style:style>
 <style:style style:name="Center" style:family="paragraph"><style:paragraph-properties fo:text-align="center"/></style:style>
 <style:style style:name="Shape" style:family="graphic"><style:graphic-properties draw:stroke="solid" svg:stroke-color="#000000" draw:fill="none"/></style:style>
</office:styles>
<office:body><office:text>
${body}
</office:text></office:body></office:document>
`;
}
