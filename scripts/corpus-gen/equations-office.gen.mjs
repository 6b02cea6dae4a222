// Office documents with numbered equations: a formula line set in a math font (what a word
// processor's equation editor leaves in a PDF: text in Cambria Math or the like), its label after a
// right tab, the formula centred on a centre tab or flush left; labels "(N)" or "Equation (N)"; and
// the traps of office prose (enumerations "(1) ...; (2) ..." in running text, numbered list
// paragraphs, table cells). One section per page, so the template knows every label's page.
// Converted by LibreOffice to PDF directly (.odt route) or through .docx (Word's format).
import { paragraph, sentence, xml } from "./lib/prose.mjs";

export const name = "equations-office";

const MATH_FONTS = ["DejaVu Math TeX Gyre", "STIX Math", "Latin Modern Math"];
const TEXT_FONTS = ["DejaVu Serif", "Liberation Serif", "DejaVu Sans"];

/** Mathematical italic letters, as equation editors print variables. */
const italic = (s) =>
  [...s]
    .map((c) => {
      if (c === "h") return "\u210e";
      if (c >= "a" && c <= "z") return String.fromCodePoint(0x1d44e + c.charCodeAt(0) - 97);
      if (c >= "A" && c <= "Z") return String.fromCodePoint(0x1d434 + c.charCodeAt(0) - 65);
      return c;
    })
    .join("");
const FORMULAS = [
  `${italic("f")}(${italic("x")}) = \u2211 ${italic("w")}\u1d62${italic("x")}\u1d62 + ${italic("b")}`,
  `${italic("E")} = ${italic("m")}${italic("c")}\u00b2`,
  `${italic("y")}\u209c = \u03b1 + \u03b2${italic("x")}\u209c + \u03b5\u209c`,
  `${italic("L")}(\u03b8) = \u2212\u2211 ${italic("y")} log ${italic("p")}`,
  `${italic("P")}(${italic("A")} \u2223 ${italic("B")}) = ${italic("P")}(${italic("B")} \u2223 ${italic("A")}) ${italic("P")}(${italic("A")}) / ${italic("P")}(${italic("B")})`,
  `${italic("u")}\u209c = ${italic("D")} \u2207\u00b2${italic("u")} \u2212 ${italic("k")}${italic("u")}`,
  `\u03c3\u00b2 = (1/${italic("n")}) \u2211 (${italic("x")}\u1d62 \u2212 \u03bc)\u00b2`,
  `${italic("V")} = \u222b ${italic("q")}(${italic("t")}) ${italic("d")}${italic("t")} \u2264 ${italic("C")}`,
];

const VARIANTS = [
  { id: "centred", align: "centre", label: "paren" },
  { id: "left", align: "left", label: "paren" },
  { id: "equation-word", align: "centre", label: "word" },
  { id: "chapter", align: "centre", label: "paren", numbering: "chapter" },
  // Numbered on the left (the label at the margin, a tab to the formula), beside a figure the text
  // wraps around on the right.
  { id: "left-wrapped", align: "leftlabel", label: "paren", wrapped: true },
];

export function documents({ rng }) {
  const docs = [];
  for (const via of ["odt", "docx"]) {
    for (const variant of VARIANTS) {
      const r = rng.fork(`${via}-${variant.id}`);
      const { fodt, cases, pages } = officeDocument(r, variant);
      docs.push({
        id: `${via}-${variant.id}`,
        group: `office-${via}/${variant.id}`,
        ci: via === "odt" && (variant.id === "centred" || variant.id === "left-wrapped"),
        office: { fodt, via },
        pages,
        cases,
      });
    }
  }
  return docs;
}

function officeDocument(rng, variant) {
  const mathFont = rng.pick(MATH_FONTS);
  const textFont = rng.pick(TEXT_FONTS);
  const cases = [];
  const body = [];
  let n = 0;
  let trap = 60;
  const pages = rng.int(3, 4);
  for (let page = 1; page <= pages; page++) {
    const style = page === 1 ? "H" : "HB";
    body.push(`<text:p text:style-name="${style}">${page}. Section ${page}</text:p>`);
    // A figure anchored to the paragraph before the equations, the text wrapped on its left.
    const figure = variant.wrapped
      ? `<draw:rect draw:style-name="fr1" text:anchor-type="paragraph" draw:z-index="0" svg:x="10.5cm" svg:y="0.3cm" svg:width="5.5cm" svg:height="${rng.int(7, 10)}cm"/>`
      : "";
    body.push(
      `<text:p text:style-name="P">${figure}${xml(paragraph(rng, variant.wrapped ? [1, 2] : [3, 5]))}</text:p>`,
    );
    const equations = rng.int(2, 3);
    for (let e = 0; e < equations; e++) {
      n++;
      const label = variant.numbering === "chapter" ? `${page}.${e + 1}` : String(n);
      const printed = variant.label === "word" ? `Equation (${label})` : `(${label})`;
      const formula = `<text:span text:style-name="M">${xml(rng.pick(FORMULAS))}</text:span>`;
      if (variant.align === "leftlabel")
        body.push(`<text:p text:style-name="EqN">${printed}<text:tab/>${formula}</text:p>`);
      else {
        const tabs = variant.align === "left" ? "EqL" : "EqC";
        const lead = variant.align === "left" ? "" : "<text:tab/>";
        body.push(`<text:p text:style-name="${tabs}">${lead}${formula}<text:tab/>${printed}</text:p>`);
      }
      cases.push({ kind: "equation", label, truth: true, page });
      body.push(`<text:p text:style-name="P">${xml(paragraph(rng, [1, 3]))}</text:p>`);
      if (rng.chance(0.6)) {
        const t = ++trap;
        const kind = rng.pick(["inline", "list", "table"]);
        if (kind === "inline") {
          trap++;
          body.push(
            `<text:p text:style-name="P">${xml(`${sentence(rng, 6, 10)} The steps are (${t}) ${sentence(rng, 4, 7).toLowerCase()}; (${t + 1}) ${sentence(rng, 4, 7).toLowerCase()}`)}</text:p>`,
          );
          cases.push({
            kind: "equation",
            label: String(t + 1),
            truth: false,
            page,
            note: "enumeration in prose",
          });
        } else if (kind === "list") {
          body.push(`<text:p text:style-name="P">(${t}) ${xml(sentence(rng, 10, 16))}</text:p>`);
        } else {
          body.push(table(rng, t));
        }
        cases.push({ kind: "equation", label: String(t), truth: false, page, note: kind });
      }
    }
  }
  const plain = cases.filter((c) => c.truth && /^\d+$/.test(c.label)).map((c) => Number(c.label));
  if (plain.length > 0)
    cases.push({
      kind: "equation",
      label: String(Math.max(...plain) + 1),
      truth: false,
      page: pages,
      note: "one past the last",
    });
  return { fodt: fodt(body.join("\n"), mathFont, textFont), cases, pages };
}

function table(rng, t) {
  const cell = (s) => `<table:table-cell><text:p text:style-name="P">${xml(s)}</text:p></table:table-cell>`;
  const rows = [
    ["Variable", "Estimate", "Model"],
    ["Age", `0.${rng.int(100, 999)}`, `(${t})`],
    ["Income", `(0.0${rng.int(10, 99)})`, "(ii)"],
  ];
  return `<table:table table:name="T${t}"><table:table-column table:number-columns-repeated="3"/>${rows
    .map((r) => `<table:table-row>${r.map(cell).join("")}</table:table-row>`)
    .join("")}</table:table>`;
}

function fodt(body, mathFont, textFont) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>
<style:font-face style:name="${mathFont}" svg:font-family="'${mathFont}'" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"/>
<style:font-face style:name="${textFont}" svg:font-family="'${textFont}'" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"/>
</office:font-face-decls>
<office:styles>
<style:default-style style:family="paragraph"><style:text-properties style:font-name="${textFont}" fo:font-size="11pt"/></style:default-style>
</office:styles>
<office:automatic-styles>
<style:page-layout style:name="PL"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-left="2.5cm" fo:margin-right="2.5cm" fo:margin-top="2.5cm" fo:margin-bottom="2.5cm"/></style:page-layout>
<style:style style:name="P" style:family="paragraph"><style:paragraph-properties fo:text-align="justify" fo:margin-bottom="0.2cm"/></style:style>
<style:style style:name="H" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.3cm"/><style:text-properties fo:font-size="14pt" fo:font-weight="bold"/></style:style>
<style:style style:name="HB" style:family="paragraph"><style:paragraph-properties fo:break-before="page" fo:margin-bottom="0.3cm"/><style:text-properties fo:font-size="14pt" fo:font-weight="bold"/></style:style>
<style:style style:name="EqC" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.2cm" fo:margin-bottom="0.2cm"><style:tab-stops><style:tab-stop style:position="8cm" style:type="center"/><style:tab-stop style:position="16cm" style:type="right"/></style:tab-stops></style:paragraph-properties></style:style>
<style:style style:name="EqL" style:family="paragraph"><style:paragraph-properties fo:margin-left="1.25cm" fo:margin-top="0.2cm" fo:margin-bottom="0.2cm"><style:tab-stops><style:tab-stop style:position="14.75cm" style:type="right"/></style:tab-stops></style:paragraph-properties></style:style>
<style:style style:name="EqN" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.2cm" fo:margin-bottom="0.2cm"><style:tab-stops><style:tab-stop style:position="4.5cm" style:type="center"/></style:tab-stops></style:paragraph-properties></style:style>
<style:style style:name="fr1" style:family="graphic"><style:graphic-properties style:wrap="left" style:horizontal-pos="from-left" style:horizontal-rel="paragraph" style:vertical-pos="from-top" style:vertical-rel="paragraph" draw:fill="solid" draw:fill-color="#cfd8e3" svg:stroke-color="#445566" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"/></style:style>
<style:style style:name="M" style:family="text"><style:text-properties style:font-name="${mathFont}" fo:font-size="11pt"/></style:style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="PL"/></office:master-styles>
<office:body><office:text>
${body}
</office:text></office:body></office:document>
`;
}
