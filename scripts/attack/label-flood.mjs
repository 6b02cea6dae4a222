// A PDF whose one page prints `labels` parenthesised equation labels, "(1)" to "(N)", in rows of
// tiny type, and every row opened by "Figure k." (a caption token): the layout rules see a label
// candidate at every token. Used to check that layout work honours the operation's deadline.
import { assemblePdf } from "./pdf-writer.mjs";

export function labelFloodPdf(labels = 120_000, perRow = 200) {
  const rows = Math.ceil(labels / perRow);
  const size = 1;
  const lines = ["BT", `/F1 ${size} Tf`, `${size * 1.2} TL`, `10 ${rows * size * 1.2 + 10} Td`];
  let n = 1;
  for (let r = 0; r < rows; r++) {
    const row = [`Figure ${r + 1}.`];
    for (let k = 0; k < perRow && n <= labels; k++) row.push(`\\(${n++}\\)`);
    lines.push(`(${row.join(" ")}) '`);
  }
  lines.push("ET");
  const content = Buffer.from(lines.join("\n"), "latin1");
  const width = perRow * 6 * size + 40;
  const height = rows * size * 1.2 + 40;
  return assemblePdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`,
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`, "latin1"),
      content,
      Buffer.from("\nendstream", "latin1"),
    ]),
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ]);
}

/**
 * A PDF of `pages` pages that all draw one content stream of rows of words: a long extraction from a
 * small file (each page is read on its own).
 */
export function repeatedPagesPdf(pages = 250) {
  const lines = ["BT", "/F1 4 Tf", "5 TL", "10 790 Td"];
  for (let r = 0; r < 150; r++)
    lines.push(`(${Array.from({ length: 30 }, (_, k) => `word${r}x${k}`).join(" ")}) '`);
  lines.push("ET");
  const content = Buffer.from(lines.join("\n"), "latin1");
  const page =
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 3 0 R >>";
  return assemblePdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(" ")}] /Count ${pages} >>`,
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`, "latin1"),
      content,
      Buffer.from("\nendstream", "latin1"),
    ]),
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ...Array(pages).fill(page),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [out, count] = process.argv.slice(2);
  const { writeFileSync } = await import("node:fs");
  writeFileSync(out, labelFloodPdf(count ? Number(count) : undefined));
}
