// One text built into DOCX (pandoc and LibreOffice), ODT, EPUB 3, EPUB 2 and JATS by
// scripts/fixtures/flow-sources.mjs: every true passage PASS with its section and region, every altered
// one FAIL, every wrong section named, and the printed labels each file carries found, in every format.
// The ground truth is the generating text's (flow-truth.json), never a reader's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../../src/checks/evidence-record.js";
import { verifyFlow } from "../../../src/checks/flow-verify.js";
import { detectKind } from "../../../src/document/flow/detect.js";
import { DEFAULT_FLOW_LIMITS, type FlowDocument, type FlowKind } from "../../../src/document/flow/model.js";
import { readerOf } from "../../../src/document/flow/readers.js";
import { sha256Hex } from "../../../src/source/file.js";
import { repoRoot } from "../../helpers/fixture-files.js";

const dir = join(repoRoot, "test", "fixtures", "flow-containers");
interface Truth {
  passages: { text: string; section: string; region: string }[];
  altered: string[];
  wrongSection: { text: string; section: string; actual: string }[];
  labels: Record<string, string[]>;
  regions: Record<string, Record<string, string>>;
}
const truth = JSON.parse(readFileSync(join(dir, "flow-truth.json"), "utf8")) as Truth;
const files = Object.keys(truth.labels);
const KINDS: Record<string, FlowKind> = { docx: "docx", odt: "odt", epub: "epub", nxml: "jats" };

async function read(file: string): Promise<FlowDocument> {
  const bytes = new Uint8Array(readFileSync(join(dir, file)));
  const detected = detectKind(bytes, file).kind;
  expect(detected).toBe(KINDS[file.split(".").at(-1)!]);
  const reader = await readerOf(detected as FlowKind, file);
  return reader.read({ bytes, sha256: sha256Hex(bytes), origin: file }, DEFAULT_FLOW_LIMITS);
}

const q = (text: string, section?: string): EvidenceRecord => ({
  kind: "quotation",
  text,
  ...(section === undefined ? {} : { section }),
});

describe("test/fixtures/flow-containers/SHA256SUMS", () => {
  const sums = readFileSync(join(dir, "SHA256SUMS"), "utf8").trim().split("\n");
  it.each(sums)("%s", (line) => {
    const [sha256, file] = line.split(/ {2}/u);
    expect(sha256Hex(readFileSync(join(dir, file!)))).toBe(sha256);
  });
});

describe.each(files)("%s", (file) => {
  it("every true passage is found under its section, in its region", async () => {
    const doc = await read(file);
    const report = verifyFlow(
      doc,
      truth.passages.map((p) => q(p.text, p.section)),
      file,
    );
    const got = report.results.map((r, i) => {
      const match = (r.evidence.matches as { region: string }[] | undefined)?.[0];
      return `${truth.passages[i]!.text}: ${r.verdict} ${r.reason} ${match?.region}`;
    });
    const wanted = truth.passages.map(
      (p) => `${p.text}: PASS found ${truth.regions[file]?.[p.text] ?? p.region}`,
    );
    expect(got).toEqual(wanted);
  });

  it("every altered passage fails", async () => {
    const report = verifyFlow(
      await read(file),
      truth.altered.map((text) => q(text)),
      file,
    );
    expect(report.results.map((r) => `${r.verdict}`)).toEqual(truth.altered.map(() => "FAIL"));
  });

  it("a passage under another heading is wrong-section, naming the heading it stands under", async () => {
    const report = verifyFlow(
      await read(file),
      truth.wrongSection.map((w) => q(w.text, w.section)),
      file,
    );
    for (const [i, r] of report.results.entries()) {
      expect(`${r.verdict} ${r.reason}`).toBe("FAIL wrong-section");
      expect(r.message).toContain(truth.wrongSection[i]!.actual);
    }
  });

  it("the printed labels of its captions and equations are anchors", async () => {
    const doc = await read(file);
    expect(doc.labels.map((l) => l.label).sort()).toEqual([...truth.labels[file]!].sort());
    const records: EvidenceRecord[] = truth.labels[file]!.map((label) =>
      label.startsWith("(") ? { kind: "equation", label } : { kind: "figure", label },
    );
    expect(verifyFlow(doc, records, file).results.map((r) => r.verdict)).toEqual(records.map(() => "PASS"));
  });
});
