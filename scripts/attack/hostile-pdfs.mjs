// Hostile PDFs, seeded: truncations, byte flips, cut, repeated and spliced chunks of real PDFs; the
// structural classes of pdf-classes.mjs, each variant drawn from the seed; page-tree cycles, a huge
// MediaBox, deep nesting, a flate bomb, a broken ToUnicode, a 100,000-page tree, 120,000 equation
// labels on one page, and (with qpdf) encrypted and object-stream variants. Each goes through `citeproof
// verify` (an equation record too, so the layout rules run) under a 5 s deadline; the answer must be
// a verdict or a coded error, within the deadline + 5 s, without a stack trace or a signal, with the
// process's peak memory under the cap.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";
import { classify, inPool, runCli } from "./child-run.mjs";
import { labelFloodPdf } from "./label-flood.mjs";
import { structuralVariants } from "./pdf-classes.mjs";
import { assemblePdf as pdf } from "./pdf-writer.mjs";
import { rng } from "./seeded.mjs";

const fixture = (name) => fileURLToPath(new URL(`../../test/fixtures/${name}.pdf`, import.meta.url));
const DEADLINE_MS = 5000;

const page = (parent, extra = "") =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] ${extra} >>`;
const stream = (data, dict = "") =>
  Buffer.concat([
    Buffer.from(`<< /Length ${data.length} ${dict} >>\nstream\n`, "latin1"),
    data,
    Buffer.from("\nendstream", "latin1"),
  ]);

function generated(bombBytes, labels) {
  const text = Buffer.from("BT /F1 12 Tf 72 700 Td (Hello hostile world) Tj ET");
  const font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  const kids = (n, first) => Array.from({ length: n }, (_, i) => `${first + i} 0 R`).join(" ");
  const bigTree = 100_000;
  return {
    "page-tree cycle": pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 2 >>",
    ]),
    "huge MediaBox": pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1e30 1e30] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      stream(text),
      font,
    ]),
    "nested arrays 100,000 deep": pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      page(2, `/Deep ${"[".repeat(100_000)}${"]".repeat(100_000)}`),
    ]),
    "flate bomb": pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      page(2, "/Contents 4 0 R"),
      stream(deflateSync(Buffer.alloc(bombBytes, 0x20), { level: 9 }), "/Filter /FlateDecode"),
    ]),
    "broken ToUnicode": pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      page(2, "/Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>"),
      stream(text),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
      stream(Buffer.from("begincmap 1 beginbfrange <00> <FF> [<D800> <DFFF>] endbfrange <<<<< endcmap")),
    ]),
    [`${labels.toLocaleString("en")} labels on a page`]: labelFloodPdf(labels),
    "100,000-page tree": pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${kids(bigTree, 3)}] /Count ${bigTree} >>`,
      ...Array.from({ length: bigTree }, () => page(2)),
    ]),
  };
}

const MUTATIONS = ["truncation", "byte flips", "chunk cut", "chunk repeated", "splice"];

function mutations(bases, count, random) {
  const out = {};
  const span = (n) => {
    const at = Math.floor(random() * n);
    return [at, Math.min(n, at + 1 + Math.floor(random() * Math.min(4096, n)))];
  };
  for (let i = 0; i < count; i++) {
    const kind = MUTATIONS[i % MUTATIONS.length];
    const base = bases[Math.floor(random() * bases.length)];
    const bytes = Buffer.from(base);
    if (kind === "truncation")
      out[`${kind} ${i}`] = bytes.subarray(0, Math.max(8, Math.floor(random() * bytes.length)));
    else if (kind === "byte flips") {
      for (let f = 0; f < 1 + Math.floor(random() * 20); f++)
        bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
      out[`${kind} ${i}`] = bytes;
    } else if (kind === "chunk cut") {
      const [a, b] = span(bytes.length);
      out[`${kind} ${i}`] = Buffer.concat([bytes.subarray(0, a), bytes.subarray(b)]);
    } else if (kind === "chunk repeated") {
      const [a, b] = span(bytes.length);
      const times = 1 + Math.floor(random() * 50);
      out[`${kind} ${i}`] = Buffer.concat([
        bytes.subarray(0, b),
        ...Array(times).fill(bytes.subarray(a, b)),
        bytes.subarray(b),
      ]);
    } else {
      const other = bases[Math.floor(random() * bases.length)];
      const cut = Math.floor(random() * bytes.length);
      out[`${kind} ${i}`] = Buffer.concat([
        bytes.subarray(0, cut),
        other.subarray(Math.floor(random() * other.length)),
      ]);
    }
  }
  return out;
}

function qpdfVariants(dir, source) {
  if (spawnSync("qpdf", ["--version"]).status !== 0) return {};
  const out = {};
  const variants = {
    "qpdf encrypted (AES-256)": ["--encrypt", "user", "owner", "256", "--"],
    "qpdf object streams": ["--object-streams=generate"],
    "qpdf linearized": ["--linearize"],
    "qpdf uncompressed": ["--stream-data=uncompress"],
  };
  for (const [name, args] of Object.entries(variants)) {
    const target = join(dir, `${name.replace(/\W+/g, "-")}.pdf`);
    if (spawnSync("qpdf", [...args, source, target]).status === 0) out[name] = readFileSync(target);
  }
  return out;
}

/**
 * `count` byte-level mutations and `structural` variants of the classes, beside the fixed cases;
 * `width` calls at once.
 */
export async function hostilePdfAttack(dir, { count, structural = 0, seed, width = 1 }) {
  mkdirSync(dir, { recursive: true });
  const random = rng(seed);
  const bases = ["paper", "cite-check", "eq-layouts"].map((name) => readFileSync(fixture(name)));
  const inputs = {
    ...generated(count > 50 ? 1 << 30 : 64 << 20, count > 50 ? 120_000 : 30_000),
    ...qpdfVariants(dir, fixture("paper")),
    ...mutations(bases, count, random),
    ...structuralVariants(structural, random),
  };
  const evidence = join(dir, "evidence.json");
  writeFileSync(
    evidence,
    JSON.stringify([
      { kind: "quotation", page: 1, text: "hostile words here" },
      { kind: "page", page: 2 },
      { kind: "equation", label: "1" },
    ]),
  );
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, hangs: 0, peakMb: 0, overCap: 0, worst: "" };
  const names = Object.keys(inputs);
  await inPool(
    names.map((name, i) => [name, i]),
    width,
    async ([name, i]) => {
      const file = join(dir, `in-${i}.pdf`);
      writeFileSync(file, inputs[name]);
      // Each input's bytes are let go once written: a thousand of them are not held at once.
      delete inputs[name];
      const args = [
        "verify",
        file,
        "--evidence",
        evidence,
        "--json",
        "--no-cache",
        "--timeout-ms",
        String(DEADLINE_MS),
      ];
      classify(stats, name, await runCli(args, { timeoutMs: DEADLINE_MS + 5000 }));
      rmSync(file, { force: true });
    },
  );
  if (stats.worst) process.stderr.write(`hostile PDFs: ${stats.worst}\n`);
  delete stats.worst;
  return stats;
}
