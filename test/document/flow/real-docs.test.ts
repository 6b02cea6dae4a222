// The committed subset of the acceptance set (scripts/real-docs/build.mjs --subset): one generated text
// through producers the other fixtures do not use (pandoc's LaTeX reader into JATS and EPUB,
// LibreOffice's exports into DOCX, ODT, EPUB and XHTML). Every true quotation PASS under its section,
// no altered one PASS, every wrong section named with the heading the words stand under. The truth is
// the generating text's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifyFlow } from "../../../src/checks/flow-verify.js";
import { detectKind } from "../../../src/document/flow/detect.js";
import { DEFAULT_FLOW_LIMITS, type FlowKind } from "../../../src/document/flow/model.js";
import { readerOf } from "../../../src/document/flow/readers.js";
import { sha256Hex } from "../../../src/source/file.js";
import { repoRoot } from "../../helpers/fixture-files.js";

const dir = join(repoRoot, "test", "fixtures", "real-docs");
interface Quotation {
  text: string;
  section?: string;
  actual?: string;
}
interface Document {
  file: string;
  producer: string;
  true: Quotation[];
  altered: Quotation[];
  wrong: Quotation[];
}
const { documents } = JSON.parse(readFileSync(join(dir, "truth.json"), "utf8")) as { documents: Document[] };

describe("test/fixtures/real-docs/SHA256SUMS", () => {
  const sums = readFileSync(join(dir, "SHA256SUMS"), "utf8").trim().split("\n");
  it.each(sums)("%s", (line) => {
    const [sha256, file] = line.split(/ {2}/u);
    expect(sha256Hex(readFileSync(join(dir, file!)))).toBe(sha256);
  });
});

describe.each(documents.map((d) => [`${d.file} (${d.producer})`, d] as const))("%s", (_, d) => {
  it("true quotations PASS, altered ones never, wrong sections named", async () => {
    const bytes = new Uint8Array(readFileSync(join(dir, d.file)));
    const kind = detectKind(bytes, d.file).kind as FlowKind;
    const doc = await (await readerOf(kind, d.file)).read(
      { bytes, sha256: sha256Hex(bytes), origin: d.file },
      DEFAULT_FLOW_LIMITS,
    );
    const check = (list: Quotation[]) =>
      verifyFlow(
        doc,
        list.map((q) => ({ kind: "quotation", text: q.text, ...(q.section ? { section: q.section } : {}) })),
        d.file,
      ).results;
    expect(d.true.length).toBeGreaterThanOrEqual(10);
    expect(check(d.true).map((r) => `${r.verdict} ${r.reason}`)).toEqual(d.true.map(() => "PASS found"));
    expect(check(d.altered).filter((r) => r.verdict === "PASS")).toEqual([]);
    // Named: the message says which heading the words stand under.
    expect(
      check(d.wrong).map(
        (r, i) => `${r.reason} ${r.message.includes(d.wrong[i]!.actual!) ? "named" : r.message}`,
      ),
    ).toEqual(d.wrong.map(() => "wrong-section named"));
  });
});
