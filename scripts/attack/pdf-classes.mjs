// Seeded structural variants of hostile PDFs, one maker per class, each drawing its sizes, depths and
// values from the seed: the same seed, the same files. Used by hostile-pdfs.mjs beside the fixed
// cases and the byte-level mutations of a real PDF.
import { deflateSync } from "node:zlib";
import { assemblePdf as pdf } from "./pdf-writer.mjs";
import { toUnicodeBombPdf } from "./tounicode-bomb.mjs";

const catalog = "<< /Type /Catalog /Pages 2 0 R >>";
const pages = (kids, count = kids.length) => `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${count} >>`;
const stream = (data, dict = "") => {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, "latin1");
  return Buffer.concat([
    Buffer.from(`<< /Length ${bytes.length} ${dict} >>\nstream\n`, "latin1"),
    bytes,
    Buffer.from("\nendstream", "latin1"),
  ]);
};
const helvetica = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
const words = (random, n) =>
  Array.from(
    { length: n },
    () => ["hostile", "words", "here", "page", "figure", "(1)", "Eq."][Math.floor(random() * 7)],
  ).join(" ");

/** The classes: name and maker (random → bytes). */
export const PDF_CLASSES = {
  "page-tree loop": (random) => {
    const depth = 1 + Math.floor(random() * 6);
    const objects = [catalog];
    for (let d = 0; d < depth; d++) objects.push(`<< /Type /Pages /Kids [${d + 3} 0 R] /Count 1 >>`);
    // The last node points back at the root or at any node above it.
    objects.push(`<< /Type /Pages /Kids [${2 + Math.floor(random() * depth)} 0 R 2 0 R] /Count 2 >>`);
    return pdf(objects);
  },
  "page-tree Count lies": (random) => {
    const count = [0, -1, 2 ** 31, 1e9, 3][Math.floor(random() * 5)];
    return pdf([catalog, pages(["3 0 R"], count), "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"]);
  },
  "odd MediaBox and Rotate": (random) => {
    const v = () => [0, -1e30, 1e30, 3.4e38, "NaN", -612, 1e-30, "/Name", "(x)"][Math.floor(random() * 9)];
    const rotate = [0, 45, -90, 270, 1e9, 7][Math.floor(random() * 6)];
    return pdf([
      catalog,
      pages(["3 0 R"]),
      `<< /Type /Page /Parent 2 0 R /MediaBox [${v()} ${v()} ${v()} ${v()}] /CropBox [${v()} ${v()} 10 10] /Rotate ${rotate} /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
      stream(`BT /F1 12 Tf 72 700 Td (${words(random, 6)}) Tj ET`),
      helvetica,
    ]);
  },
  "deep nesting": (random) => {
    const depth = 1000 + Math.floor(random() * 200_000);
    const [open, close] = random() < 0.5 ? ["[", "]"] : ["<< /A ", " >>"];
    return pdf([
      catalog,
      pages(["3 0 R"]),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Deep ${open.repeat(depth)}1${close.repeat(depth)} >>`,
    ]);
  },
  "flate bomb": (random) => {
    const mib = 8 << Math.floor(random() * 4);
    return pdf([
      catalog,
      pages(["3 0 R"]),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
      stream(
        deflateSync(Buffer.alloc(mib << 20, random() < 0.5 ? 0x20 : 0x41), { level: 9 }),
        "/Filter /FlateDecode",
      ),
    ]);
  },
  "wrong stream lengths": (random) => {
    const content = Buffer.from(`BT /F1 12 Tf 72 700 Td (${words(random, 8)}) Tj ET`, "latin1");
    const length = [-5, 0, 1e12, content.length * 10, "99 0 R", "/Nope"][Math.floor(random() * 6)];
    return pdf([
      catalog,
      pages(["3 0 R"]),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      Buffer.concat([
        Buffer.from(`<< /Length ${length} >>\nstream\n`, "latin1"),
        content,
        Buffer.from("\nendstream", "latin1"),
      ]),
      helvetica,
    ]);
  },
  "broken xref and trailer": (random) => {
    const good = pdf([
      catalog,
      pages(["3 0 R"]),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      stream(`BT /F1 12 Tf 72 700 Td (${words(random, 8)}) Tj ET`),
      helvetica,
    ]).toString("latin1");
    const cut = good.lastIndexOf("xref");
    const tails = [
      `xref\n0 6\n${"0000000000 65535 f \n".repeat(6)}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${cut}\n%%EOF\n`,
      `trailer\n<< /Size 6 /Root 1 0 R /Prev ${cut} >>\nstartxref\n${cut}\n%%EOF\n`,
      `xref\n0 99999999\ntrailer\n<< /Size 99999999 /Root 1 0 R >>\nstartxref\n${cut}\n%%EOF\n`,
      `startxref\n${Math.floor(random() * 1e9)}\n%%EOF\n`,
      `xref\n0 6\n0000000000 65535 f \ntrailer\n<< /Size 6 /Root 7 0 R /Prev ${cut} >>\nstartxref\n${cut}\n%%EOF\n`,
    ];
    return Buffer.from(good.slice(0, cut) + tails[Math.floor(random() * tails.length)], "latin1");
  },
  "hostile content stream": (random) => {
    const n = 1000 + Math.floor(random() * 50_000);
    const ops = [
      () => "q ".repeat(n),
      () => "Q ".repeat(n),
      () => `BT ${"BT ".repeat(n)} (x) Tj ET`,
      () => `BT /F1 12 Tf ${Math.floor(random() * 1e6)} Tz 1e30 Tc 72 700 Td (${words(random, 20)}) Tj ET`,
      () =>
        `BT /F1 ${[0, -12, 1e30, 1e-30][Math.floor(random() * 4)]} Tf 72 700 Td (${words(random, 20)}) Tj ET`,
      () =>
        Array.from(
          { length: n },
          () =>
            `${Math.floor(random() * 600)} ${Math.floor(random() * 800)} m ${Math.floor(random() * 600)} 0 l S`,
        ).join("\n"),
      () => `BT /F1 12 Tf [${Array.from({ length: n }, () => `(${words(random, 1)}) -1e9`).join(" ")}] TJ ET`,
      () => `${Math.floor(random() * 1e9)} 0 0 0 0 0 cm BT /F1 12 Tf (${words(random, 5)}) Tj ET`,
    ];
    return pdf([
      catalog,
      pages(["3 0 R"]),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      stream(ops[Math.floor(random() * ops.length)]()),
      helvetica,
    ]);
  },
  "recursive form XObject": (random) => {
    const forms = 1 + Math.floor(random() * 4);
    const objects = [
      catalog,
      pages(["3 0 R"]),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /X0 5 0 R >> >> >>",
      stream("/X0 Do"),
    ];
    for (let k = 0; k < forms; k++) {
      const next = 5 + ((k + 1) % forms);
      objects.push(
        stream(
          `q /X0 Do /X0 Do Q`,
          `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X0 ${next} 0 R >> >>`,
        ),
      );
    }
    return pdf(objects);
  },
  "hostile fonts": (random) => {
    const fonts = [
      "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [1e30 0 0 1e30 0 0] /CharProcs << /a 6 0 R >> /Encoding << /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1e30] /Resources << /Font << /F1 5 0 R >> >> >>",
      "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [5 0 R] >>",
      "<< /Type /Font /Subtype /TrueType /BaseFont /X /FirstChar 4294967295 /LastChar 0 /Widths 5 0 R /FontDescriptor << /FontFile2 6 0 R >> >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [0 /a /b /c -5 /d 1e30 /e] >> >>",
    ];
    return pdf([
      catalog,
      pages(["3 0 R"]),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      stream(`BT /F1 12 Tf 72 700 Td (aaa ${words(random, 6)}) Tj ET`),
      fonts[Math.floor(random() * fonts.length)],
      stream("/F1 12 Tf (a) Tj 0 0 d0", ""),
    ]);
  },
  "ToUnicode bomb": (random) => {
    const glyphs = [2000, 10_000, 40_000][Math.floor(random() * 3)];
    const perGlyph = [20, 64, 65, 100, 300][Math.floor(random() * 5)];
    return toUnicodeBombPdf(glyphs, perGlyph);
  },
  "garbage ToUnicode": (random) => {
    const bytes = Buffer.alloc(200 + Math.floor(random() * 2000));
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    const head = "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfrange ";
    return pdf([
      catalog,
      pages(["3 0 R"]),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      stream(`BT /F1 12 Tf 72 700 Td (${words(random, 10)}) Tj ET`),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
      stream(Buffer.concat([Buffer.from(head, "latin1"), bytes])),
    ]);
  },
  "many pages sharing one stream": (random) => {
    const n = 500 + Math.floor(random() * 5000);
    const kids = Array.from({ length: n }, (_, i) => `${i + 5} 0 R`);
    return pdf([
      catalog,
      pages(kids),
      stream(
        `BT /F1 6 Tf 20 780 Td 8 TL ${Array.from({ length: 60 }, () => `(${words(random, 12)}) '`).join(" ")} ET`,
      ),
      helvetica,
      ...Array(n).fill(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>",
      ),
    ]);
  },
  "page labels and names gone wrong": (random) => {
    const labels = [
      "<< /Nums [0 << /S /D /St -5 >> 0 << /S /R >>] >>",
      `<< /Nums [${Array.from({ length: 20_000 }, (_, i) => `${i} << /P (${"x".repeat(50)}) >>`).join(" ")}] >>`,
      "<< /Kids [6 0 R] >>",
      "<< /Nums [4294967295 << /S /A /St 1e30 >>] >>",
    ];
    return pdf([
      `<< /Type /Catalog /Pages 2 0 R /PageLabels ${labels[Math.floor(random() * labels.length)]} >>`,
      pages(["3 0 R"]),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      stream(`BT /F1 12 Tf 72 700 Td (${words(random, 8)}) Tj ET`),
      helvetica,
      "<< /Kids [6 0 R] /Nums [0 << /S /D >>] >>",
    ]);
  },
};

/** `count` variants, the classes taken in turn, each drawn from `random`. */
export function structuralVariants(count, random) {
  const names = Object.keys(PDF_CLASSES);
  const out = {};
  for (let i = 0; i < count; i++) {
    const name = names[i % names.length];
    out[`${name} ${i}`] = PDF_CLASSES[name](random);
  }
  return out;
}
