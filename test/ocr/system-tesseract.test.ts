// The system's tesseract program as OCR's engine: its TSV read into words per image, and a run that
// passes its deadline killed and reported as EXTRACTION_TIMEOUT (a cut, never a failure).
import { crc32, deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { findSystemTesseract } from "../../src/ocr/system-tesseract.js";
import { OcrSession } from "../../src/ocr/tesseract.js";
import { wordsFromTsv } from "../../src/ocr/tsv.js";

const system = findSystemTesseract(process.env.PATH);

describe("the TSV of a batch", () => {
  it("gives each image its words, boxes as edges, lines numbered per image in order", () => {
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      "1\t1\t0\t0\t0\t0\t0\t0\t100\t50\t-1\t",
      "4\t1\t1\t1\t1\t0\t10\t10\t80\t12\t-1\t",
      "5\t1\t1\t1\t1\t1\t10\t10\t30\t12\t96.5\t(2.1)",
      "5\t1\t1\t1\t1\t2\t50\t10\t40\t12\t91\t ",
      "4\t1\t1\t1\t2\t0\t10\t30\t80\t12\t-1\t",
      "5\t1\t1\t1\t2\t1\t10\t30\t20\t12\t88\tx",
      "4\t2\t1\t1\t1\t0\t5\t5\t10\t10\t-1\t",
      "5\t2\t1\t1\t1\t1\t5\t5\t10\t10\t70\t(3)",
      "5\t3\t1\t1\t1\t1\t5\t5\t10\t10\t70\tbeyond",
    ].join("\n");
    expect(wordsFromTsv(tsv, 2)).toEqual([
      [
        { text: "(2.1)", x0: 10, y0: 10, x1: 40, y1: 22, confidence: 96.5, line: 0 },
        { text: "x", x0: 10, y0: 30, x1: 30, y1: 42, confidence: 88, line: 1 },
      ],
      [{ text: "(3)", x0: 5, y0: 5, x1: 15, y1: 15, confidence: 70, line: 0 }],
    ]);
  });
});

// A white PNG of 2000 x 2000 pixels: the program starts, the deadline passes before it is done.
function whitePng(): Uint8Array {
  const side = 2000;
  const rows = Buffer.alloc((side + 1) * side, 0xff);
  for (let y = 0; y < side; y++) rows[y * (side + 1)] = 0;
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), body])) >>> 0, 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("the system's tesseract under a deadline", () => {
  it.skipIf(!system)(
    "is killed when the deadline passes, an EXTRACTION_TIMEOUT (skipped when no tesseract program is on the PATH)",
    async () => {
      const session = new OcrSession({ kind: "page" }, { engine: "tesseract" });
      const png = whitePng();
      const started = Date.now();
      await expect(session.recognizeAll([png, png, png, png], 5)).rejects.toMatchObject({
        code: "EXTRACTION_TIMEOUT",
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      // The session still reads after a kill.
      await expect(session.recognize(png, 60_000)).resolves.toEqual([]);
      await session.close();
    },
    120_000,
  );
});
