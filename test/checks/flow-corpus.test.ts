// One text built into Markdown, HTML (written by hand, and pandoc's) and RFC-style plain text by
// scripts/flow-corpus.mjs; the ground truth is the generating text's sentences and the heading chain
// each stands under. Every true quotation PASSes in its section and its parent's, FAILs as
// wrong-section under another (naming where it is), and FAILs when a word is changed, in every
// format alike.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import { verifyFlow } from "../../src/checks/flow-verify.js";
import { detectKind } from "../../src/document/flow/detect.js";
import type { FlowKind } from "../../src/document/flow/model.js";
import { repoRoot } from "../helpers/fixture-files.js";
import { readFlow } from "../helpers/flow-source.js";

interface Truth {
  sentences: { sentence: string; chain: string; top: string; section: string; region: string }[];
  figures: string[];
  tables: string[];
  cells: string[];
  equations: string[];
}

const DIR = join(repoRoot, "test", "fixtures", "flow");
const truth = JSON.parse(readFileSync(join(DIR, "truth.json"), "utf8")) as Truth;
const FORMATS = ["corpus.md", "corpus.html", "corpus.pandoc.html", "corpus.txt"];
const TOPS = [...new Set(truth.sentences.map((s) => s.top))];

/** Eight words from inside the sentence (its second word on), as a writer quotes. */
function quoteOf(sentence: string): string {
  const words = sentence.split(" ");
  return words.slice(1, 9).join(" ");
}

/** The quotation with its third word replaced by one the text never uses. */
function altered(quote: string): string {
  const words = quote.split(" ");
  words[2] = "zebras";
  return words.join(" ");
}

async function open(file: string) {
  const bytes = new Uint8Array(readFileSync(join(DIR, file)));
  const { kind } = detectKind(bytes, file);
  return readFlow(kind as FlowKind, bytes, file);
}

function recordsFor(s: Truth["sentences"][number]): EvidenceRecord[] {
  const quote = quoteOf(s.sentence);
  const other = TOPS.find((t) => t !== s.top) ?? "";
  return [
    { kind: "quotation", text: quote },
    { kind: "quotation", text: quote, section: s.section },
    { kind: "quotation", text: quote, section: s.section.replace(/^\S+ /u, "") },
    { kind: "quotation", text: quote, section: s.top.replace(/^\S+ /u, "") },
    { kind: "quotation", text: quote, section: other },
    { kind: "quotation", text: altered(quote), section: s.section },
    { kind: "quotation", text: altered(quote) },
  ];
}

describe("generated sources: the same passages in every format", () => {
  const outcomes = new Map<string, string[]>();

  for (const file of FORMATS) {
    it(`${file}: true PASS, altered FAIL, wrong section named`, async () => {
      const doc = await open(file);
      expect(doc.kind).toBe(file.endsWith(".md") ? "markdown" : file.endsWith(".txt") ? "text" : "html");
      const sentences = truth.sentences.filter((s) => !(file.endsWith(".txt") && s.region !== "body"));
      const got: string[] = [];
      for (const s of sentences) {
        const report = verifyFlow(doc, recordsFor(s), file);
        const v = report.results.map((r) => `${r.verdict} ${r.reason}`);
        got.push(v.join(", "));
        const at = `${file}: ${s.sentence}`;
        expect(v.slice(0, 4), at).toEqual(Array(4).fill("PASS found"));
        expect(v[4], at).toBe("FAIL wrong-section");
        expect(report.results[4].message, at).toContain(`the words are under "${s.chain}"`);
        expect(v[5], at).toMatch(/^FAIL (absent|form-differs)$/);
        expect(v[6], at).toMatch(/^FAIL (absent|form-differs)$/);
        const match = (report.results[1].evidence.matches as { region: string; section: string }[])[0];
        expect(match.section, at).toBe(s.chain);
        if (!file.endsWith(".txt")) expect(match.region, at).toBe(s.region);
      }
      outcomes.set(file, got);
    });
  }

  it("the same passage gives the same verdict and reason in every format", () => {
    const md = outcomes.get("corpus.md");
    expect(md).toBeDefined();
    for (const file of ["corpus.html", "corpus.pandoc.html"]) expect(outcomes.get(file), file).toEqual(md);
  });

  it("table cells, captions and labels where the format prints them", async () => {
    for (const file of ["corpus.md", "corpus.html", "corpus.pandoc.html"]) {
      const doc = await open(file);
      const records: EvidenceRecord[] = [
        { kind: "quotation", text: truth.cells.find((c) => c.split(" ").length >= 4) ?? "" },
        { kind: "quotation", text: truth.figures[0].replace(/^Figure \d+: /u, "") },
        { kind: "figure", label: "1" },
        { kind: "figure", label: "7" },
      ];
      const report = verifyFlow(doc, records, file);
      expect(
        report.results.map((r) => `${r.verdict} ${r.reason}`),
        file,
      ).toEqual(["PASS found", "PASS found", "PASS found", "FAIL absent"]);
      const regions = report.results
        .slice(0, 2)
        .map((r) => (r.evidence.matches as { region: string }[])[0].region);
      expect(regions, file).toEqual(["table", "caption"]);
    }
    for (const file of ["corpus.md", "corpus.html"]) {
      const doc = await open(file);
      const report = verifyFlow(
        doc,
        truth.equations.map((label) => ({ kind: "equation", label })),
        file,
      );
      expect(
        report.results.map((r) => r.verdict),
        file,
      ).toEqual(truth.equations.map(() => "PASS"));
    }
  });
});
