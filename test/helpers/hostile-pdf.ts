// Hostile PDFs written in code: a small file whose content inflates to a chosen size (a flate bomb),
// and forms that draw forms that draw forms (fan-out), each with ordinary pages beside it so a test
// can see the engine carry on after the hostile page.
import { constants, deflateRawSync, deflateSync } from "node:zlib";
import { assemblePdf, syntheticLine } from "./synthetic-pdf.js";

const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";

function stream(dict: string, data: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.byteLength} >>\nstream\n`),
    data,
    Buffer.from("\nendstream"),
  ]);
}

function textContent(page: number): Buffer {
  const lines = ["BT", "/F1 10 Tf", "12 TL", "72 740 Td"];
  for (let l = 0; l < 10; l++) lines.push(`(${syntheticLine(page, l)}) '`);
  lines.push("ET");
  return Buffer.from(lines.join("\n"));
}

/**
 * A zlib stream of `head` then `mib` MiB of spaces, written without deflating the whole: one MiB
 * deflated on its own (its blocks refer only to themselves) is repeated, then an empty final block
 * and the Adler-32 of everything, worked out arithmetically for the run of spaces.
 */
function bombStream(head: string, mib: number): Uint8Array {
  const headBytes = Buffer.from(head, "latin1");
  const opening = deflateSync(headBytes, { finishFlush: constants.Z_FULL_FLUSH });
  const piece = deflateRawSync(Buffer.alloc(2 ** 20, 0x20), { finishFlush: constants.Z_FULL_FLUSH });
  const closing = deflateRawSync(Buffer.alloc(0));
  const mod = 65521n;
  let a = 1n;
  let b = 0n;
  for (const byte of headBytes) {
    a = (a + BigInt(byte)) % mod;
    b = (b + a) % mod;
  }
  const n = BigInt(mib) * 2n ** 20n;
  const v = 0x20n;
  b = (b + n * a + (v * n * (n + 1n)) / 2n) % mod;
  a = (a + n * v) % mod;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([opening, ...Array.from({ length: mib }, () => piece), closing, adler]);
}

/**
 * Pages 1..pages, each of plain text lines, except page `hostile`, whose content is `mib` MiB of
 * spaces after a line of text, deflated to about a thousandth of that.
 */
export function flateBombPdf(mib: number, pages = 2, hostile = 1): Uint8Array {
  const bodies: Uint8Array[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from(
      `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(" ")}] /Count ${pages} >>`,
    ),
    Buffer.from(FONT),
  ];
  for (let p = 1; p <= pages; p++) {
    bodies.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + (p - 1) * 2} 0 R >>`,
      ),
    );
    bodies.push(
      p === hostile
        ? stream("/Filter /FlateDecode", bombStream("BT /F1 10 Tf 72 740 Td (The hostile page) Tj ET\n", mib))
        : stream("", textContent(p)),
    );
  }
  return assemblePdf(bodies);
}

/**
 * Pages 1..pages of plain text, except page `hostile`, which draws form 1 `fan` times; form k draws
 * form k + 1 `fan` times, down to form `depth`, which draws a small square: fan^depth squares.
 */
export function formFanOutPdf(fan: number, depth: number, pages = 2, hostile = 1): Uint8Array {
  const firstForm = 4 + pages * 2;
  const bodies: Uint8Array[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from(
      `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(" ")}] /Count ${pages} >>`,
    ),
    Buffer.from(FONT),
  ];
  const draws = (name: string) =>
    Buffer.from(Array.from({ length: fan }, () => `q /${name} Do Q`).join("\n"));
  for (let p = 1; p <= pages; p++) {
    const resources =
      p === hostile
        ? `<< /Font << /F1 3 0 R >> /XObject << /X1 ${firstForm} 0 R >> >>`
        : "<< /Font << /F1 3 0 R >> >>";
    bodies.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources ${resources} /Contents ${5 + (p - 1) * 2} 0 R >>`,
      ),
    );
    bodies.push(stream("", p === hostile ? draws("X1") : textContent(p)));
  }
  for (let k = 1; k <= depth; k++) {
    const leaf = k === depth;
    const resources = leaf ? "<< >>" : `<< /XObject << /X${k + 1} ${firstForm + k} 0 R >> >>`;
    bodies.push(
      stream(
        `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources ${resources}`,
        leaf ? Buffer.from("10 10 5 5 re f") : draws(`X${k + 1}`),
      ),
    );
  }
  return assemblePdf(bodies);
}
