// Turns a built PDF into a scan of itself: every page rendered to a grey image (pdftoppm), then a PDF
// rebuilt from the images alone (`none`: no text layer, as a scanner without OCR leaves it) or from
// the images under an invisible OCR text layer that Tesseract made of them (`ocr`: `tesseract ... pdf`,
// the words in render mode 3 over the image, as OCR software leaves a scan). Nothing here reads the
// ground truth; the pages keep their order and number, so the truth of the source applies.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { assemblePdf } from "../../attack/pdf-writer.mjs";

export const SCAN_LAYERS = ["none", "ocr"];

/** Whether the programs a scan needs are installed (tesseract only for the OCR layer). */
export function scanTools(layer) {
  const tools = layer === "ocr" ? ["pdftoppm", "tesseract", "qpdf"] : ["pdftoppm"];
  return tools.every((t) => {
    try {
      execFileSync("sh", ["-c", `command -v ${t}`], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });
}

/** The scan of `pdf` (bytes) at `dpi`, with the text layer `layer`. */
export function scanPdf(pdf, { dpi, layer }) {
  const work = mkdtempSync(join(tmpdir(), "citeproof-scan-"));
  try {
    writeFileSync(join(work, "src.pdf"), pdf);
    execFileSync("pdftoppm", ["-r", String(dpi), "-gray", "-png", "src.pdf", "page"], { cwd: work });
    const pages = readdirSync(work)
      .filter((f) => /^page-\d+\.png$/.test(f))
      .sort((a, b) => Number(a.match(/\d+/)[0]) - Number(b.match(/\d+/)[0]));
    if (layer === "none")
      return imagePdf(
        pages.map((p) => readFileSync(join(work, p))),
        dpi,
      );
    const parts = pages.map((p) => {
      const base = p.replace(/\.png$/, "");
      execFileSync("tesseract", [p, base, "--dpi", String(dpi), "-l", "eng", "pdf"], {
        cwd: work,
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, OMP_THREAD_LIMIT: "1" },
      });
      return `${base}.pdf`;
    });
    execFileSync("qpdf", ["--empty", "--deterministic-id", "--pages", ...parts, "--", "scan.pdf"], {
      cwd: work,
    });
    return readFileSync(join(work, "scan.pdf"));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A PNG's size, colour and compressed pixel rows (IDAT): PDF's Flate filter with PNG predictors reads them as they are. */
function readPng(png) {
  let at = 8;
  let header;
  const data = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR")
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8],
        colour: body[9],
        interlace: body[12],
      };
    else if (type === "IDAT") data.push(body);
    at += 12 + length;
  }
  if (header?.interlace !== 0 || (header.colour !== 0 && header.colour !== 2))
    throw new Error("scan: a page image is not a plain grey or RGB PNG");
  const idat = Buffer.concat(data);
  inflateSync(idat); // a damaged stream fails here, not in a reader
  return { ...header, idat, colours: header.colour === 0 ? 1 : 3 };
}

/** A PDF of one image a page, each page the image's size at `dpi`. */
function imagePdf(pngs, dpi) {
  const objects = [];
  const add = (body) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add(null);
  const pagesObj = add(null);
  const kids = [];
  for (const png of pngs) {
    const img = readPng(png);
    const w = (img.width * 72) / dpi;
    const h = (img.height * 72) / dpi;
    const image = add(
      Buffer.concat([
        Buffer.from(
          `<< /Type /XObject /Subtype /Image /Width ${img.width} /Height ${img.height} /ColorSpace /${img.colours === 1 ? "DeviceGray" : "DeviceRGB"} /BitsPerComponent ${img.depth} /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors ${img.colours} /BitsPerComponent ${img.depth} /Columns ${img.width} >> /Length ${img.idat.length} >>\nstream\n`,
          "latin1",
        ),
        img.idat,
        Buffer.from("\nendstream", "latin1"),
      ]),
    );
    const draw = `q ${w.toFixed(2)} 0 0 ${h.toFixed(2)} 0 0 cm /Im0 Do Q`;
    const content = add(Buffer.from(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`, "latin1"));
    kids.push(
      add(
        Buffer.from(
          `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${w.toFixed(2)} ${h.toFixed(2)}] /Resources << /XObject << /Im0 ${image} 0 R >> >> /Contents ${content} 0 R >>`,
          "latin1",
        ),
      ),
    );
  }
  objects[catalog - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pagesObj} 0 R >>`, "latin1");
  objects[pagesObj - 1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`,
    "latin1",
  );
  return assemblePdf(objects, catalog);
}
