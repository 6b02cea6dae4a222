// The committed fixture PDFs are the ones their LaTeX sources built: test/fixtures/SHA256SUMS lists
// every one, with its sha256.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/source/file.js";
import { repoRoot } from "../helpers/fixture-files.js";

const dir = join(repoRoot, "test", "fixtures");
const sums = readFileSync(join(dir, "SHA256SUMS"), "utf8")
  .split("\n")
  .filter((l) => l.trim().length > 0)
  .map((l) => {
    const m = /^([0-9a-f]{64}) {2}(\S+)$/.exec(l);
    if (!m) throw new Error(`bad SHA256SUMS line: ${l}`);
    return { sha256: m[1], file: m[2] };
  });

describe("test/fixtures/SHA256SUMS", () => {
  it("lists every fixture PDF, each with a LaTeX source", () => {
    const pdfs = readdirSync(dir).filter((f) => f.endsWith(".pdf"));
    expect(sums.map((s) => s.file).sort()).toEqual(pdfs.sort());
    for (const pdf of pdfs)
      expect(existsSync(join(repoRoot, "fixtures", "src", pdf.replace(/\.pdf$/, ".tex")))).toBe(true);
  });

  it.each(sums)("$file matches its recorded sha256", ({ file, sha256 }) => {
    expect(sha256Hex(readFileSync(join(dir, file)))).toBe(sha256);
  });
});
