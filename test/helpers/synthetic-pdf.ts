// Writes small, valid PDFs in code (standard Helvetica, uncompressed, a classic xref table), for
// tests that need a PDF of a chosen size without a typesetter: a long document for the extraction
// deadline, and seeds for the fuzz test.

const WORDS = [
  "survey",
  "estimate",
  "variance",
  "region",
  "sample",
  "weight",
  "panel",
  "bootstrap",
  "interval",
  "coverage",
  "stratum",
  "total",
];

/** The line `line` (0-based) of page `page` (1-based): deterministic words. */
export function syntheticLine(page: number, line: number): string {
  const words: string[] = [`Page ${page} line ${line + 1}:`];
  for (let k = 0; k < 9; k++) words.push(WORDS[(page * 7 + line * 5 + k * 3) % WORDS.length]);
  return words.join(" ");
}

export function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

export function syntheticPdf(pageCount: number, linesPerPage = 40): Uint8Array {
  const streams: string[] = [];
  for (let p = 1; p <= pageCount; p++) {
    const lines = ["BT", "/F1 10 Tf", "12 TL", "72 740 Td"];
    for (let l = 0; l < linesPerPage; l++) lines.push(`(${escapePdfString(syntheticLine(p, l))}) '`);
    lines.push("ET");
    streams.push(lines.join("\n"));
  }
  return pdfOfContents(streams);
}

/** A PDF whose pages (letter size) draw the given content streams, with Helvetica as /F1. */
export function pdfOfContents(streams: readonly string[]): Uint8Array {
  const pageCount = streams.length;
  const objects: string[] = [];
  // 1: catalog, 2: page tree, 3: font, then a page and its content per page.
  const kids = Array.from({ length: pageCount }, (_, i) => `${4 + i * 2} 0 R`).join(" ");
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pageCount} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  streams.forEach((stream, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${
        5 + i * 2
      } 0 R >>`,
    );
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  return assemblePdf(objects.map((body) => Buffer.from(body, "latin1")));
}

/** A PDF of the given object bodies (object i + 1 is bodies[i], object 1 the catalog), with a classic xref table. */
export function assemblePdf(bodies: Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from("%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n", "latin1")];
  let offset = parts[0].byteLength;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(offset);
    for (const part of [Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]) {
      parts.push(part);
      offset += part.byteLength;
    }
  });
  const xref = [`xref\n0 ${bodies.length + 1}\n`, "0000000000 65535 f \n"];
  for (const o of offsets) xref.push(`${String(o).padStart(10, "0")} 00000 n \n`);
  parts.push(Buffer.from(xref.join("")));
  parts.push(
    Buffer.from(`trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`),
  );
  return new Uint8Array(Buffer.concat(parts));
}
