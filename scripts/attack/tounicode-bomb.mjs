// A PDF of one page whose font's ToUnicode map makes one glyph yield `perGlyph` characters, the page
// drawing `glyphs` of it: the content stream and the map are compressed, so 50,000 glyphs of 100
// characters each (5 million characters of text) fit in about 1.4 KB.
import { deflateSync } from "node:zlib";
import { assemblePdf } from "./pdf-writer.mjs";

export function toUnicodeBombPdf(glyphs = 50_000, perGlyph = 100) {
  const map = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Bomb def",
    "1 begincodespacerange <00> <FF> endcodespacerange",
    `1 beginbfchar <41> <${"0041".repeat(perGlyph)}> endbfchar`,
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
  const lines = ["BT /F1 1 Tf 10 780 Td"];
  const row = "A".repeat(1000);
  for (let i = 0; i < glyphs / 1000; i++) lines.push(`(${row}) Tj 0 -1.2 Td`);
  if (glyphs % 1000) lines.push(`(${"A".repeat(glyphs % 1000)}) Tj`);
  lines.push("ET");
  const stream = (text) => {
    const data = deflateSync(Buffer.from(text, "latin1"), { level: 9 });
    return Buffer.concat([
      Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, "latin1"),
      data,
      Buffer.from("\nendstream", "latin1"),
    ]);
  };
  return assemblePdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    stream(lines.join("\n")),
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
    stream(map),
  ]);
}
