// Drafting and revisions on a session whose original is a flow source (the generated corpus,
// test/fixtures/flow/corpus.md by scripts/flow-corpus.mjs): the material offers quotations under their
// sections, a draft's citations are flagged by sections where a PDF's are by pages, a revision (another
// flow file) is stored and each claim compared with it by the same rules (a paragraph moved to another
// section, a heading renamed, a sentence removed), and a revision of the other family is refused.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, repoRoot } from "../helpers/fixture-files.js";
import { type SessionBench, sessionBench } from "./helpers.js";

const CORPUS = readFileSync(join(repoRoot, "test", "fixtures", "flow", "corpus.md"), "utf8");
const MOVED_SENTENCE = "Earlier work treated each delta on its own terms. ";
const REMOVED_SENTENCE =
  "Thirty-one of the forty deltas lost ground relative to the sea over the decade studied.";

/** The revision: a sentence moved from the introduction to the methods, 2.2 renamed, a sentence removed. */
function revised(text: string): string {
  for (const part of [MOVED_SENTENCE, REMOVED_SENTENCE, "## 2.2 Models", "The methods below"])
    expect(text, part).toContain(part);
  return text
    .replace(MOVED_SENTENCE, "")
    .replace("The methods below", `${MOVED_SENTENCE}The methods below`)
    .replace("## 2.2 Models", "## 2.2 Statistical models")
    .replace(REMOVED_SENTENCE, "");
}

const EVIDENCE = [
  { kind: "quotation", text: "Earlier work treated each delta on its own terms", section: "Introduction" },
  { kind: "quotation", text: "fitted to the elevation of every site", section: "2.2 Models" },
  { kind: "quotation", text: "Thirty-one of the forty deltas lost ground", section: "3" },
  { kind: "quotation", text: "dams alone drive the losses", section: "4 Discussion" },
  { kind: "quotation", text: "Samples", section: "2.1" },
  { kind: "quotation", text: "Models", section: "2.2 Models" },
  { kind: "quotation", text: "hold a large share of the world's farmland" },
  { kind: "equation", label: "1" },
];

let bench: SessionBench;
let original: string;
beforeAll(async () => {
  bench = sessionBench();
  original = bench.file("corpus.md", CORPUS);
  expect((await bench.session("new", [original])).status).toBe(0);
  const run = await bench.session("verify", ["--evidence", bench.file("evidence.json", EVIDENCE)]);
  expect(run.status, run.stdout + run.stderr).toBe(0);
});
afterAll(() => bench.remove());

const errorCode = (run: { json: unknown }) => (run.json as { error: { code: string } }).error.code;

describe("a flow original's drafting material", () => {
  it("offers quotations under their sections, the whole document's apart, and sections as pointers", async () => {
    const run = await bench.session("draft-input", ["--json"]);
    expect(run.status, run.stderr).toBe(0);
    const m = run.json as {
      document: { kind: string; pages: number };
      quotations: { anchor: string; text: string }[];
      pointers: { anchor: string }[];
      labels: { anchor: string }[];
      material: string;
    };
    expect(m.document).toMatchObject({ kind: "markdown", pages: 0 });
    expect(m.quotations.map((q) => q.anchor)).toEqual([
      'section "Introduction"',
      'section "2.2 Models"',
      'section "3"',
      'section "4 Discussion"',
      "the document",
    ]);
    expect(m.pointers.map((p) => p.anchor)).toEqual(['section "2.1"', 'section "2.2 Models"']);
    expect(m.labels.map((l) => l.anchor)).toEqual(["Eq. (1)"]);
    expect(m.material).toContain("Markdown sha256");
    expect(m.material).toContain("it has sections, not pages");
    expect(m.material).toContain(
      'section "Introduction": "Earlier work treated each delta on its own terms"',
    );
    expect(m.material).not.toMatch(/\bp\. \d/u);
  });
});

describe("a draft checked against a flow original's pool", () => {
  it("flags a section the pool never offered, and words not in the section cited", async () => {
    const draft = [
      'Section "Introduction" notes that "Earlier work treated each delta on its own terms".',
      'In § 2.2 a model was "fitted to the elevation of every river".',
      'In § 3 the authors write that "dams alone drive the losses" there.',
      'Section 4.9 says "something entirely different from the paper".',
      'The deltas "hold a large share of the world\'s farmland" overall.',
      "See p. 3 and Eq. (1) for more.",
    ].join("\n");
    const run = await bench.session("check-draft", [bench.file("draft.txt", draft), "--json"]);
    expect(run.status, run.stderr).toBe(1);
    const report = run.json as {
      document: { kind: string };
      citations: number;
      flagged: { flag: string; anchor: string; reason: string | null; line: number }[];
      unanchored_quotations: number;
    };
    expect(report.document.kind).toBe("markdown");
    expect(report.citations).toBe(7);
    const byLine = [...report.flagged].sort((a, b) => a.line - b.line);
    expect(byLine.map((f) => [f.line, f.flag, f.anchor, f.reason])).toEqual([
      [2, "failed re-verification", "§ 2.2", "absent"],
      [3, "failed re-verification", "§ 3", "wrong-section"],
      [4, "not in verified pool", "§ 4.9", null],
      [6, "not in verified pool", "p. 3", null],
    ]);
    expect(report.unanchored_quotations).toBe(0);
    const text = (await bench.session("check-draft", [bench.file("draft.txt", draft)])).stdout;
    expect(text).toContain("(Markdown sha256");
    expect(text).toContain("failed re-verification: line 3");
  });

  it("leaves a quotation naming no section unanchored when the pool offers no words of the whole document", async () => {
    const other = sessionBench("other");
    try {
      expect((await other.session("new", [other.file("corpus.md", CORPUS)])).status).toBe(0);
      const evidence = other.file("e.json", [EVIDENCE[0]]);
      expect((await other.session("verify", ["--evidence", evidence])).status).toBe(0);
      const draft = other.file(
        "d.txt",
        'They say "Earlier work treated each delta on its own terms" plainly.',
      );
      const report = (await other.session("check-draft", [draft, "--json"])).json as {
        citations: number;
        unanchored_quotations: number;
        flagged: unknown[];
      };
      expect(report).toMatchObject({ citations: 0, unanchored_quotations: 1, flagged: [] });
      // An empty draft: nothing read, nothing flagged.
      const empty = await other.session("check-draft", [other.file("empty.txt", ""), "--json"]);
      expect(empty.status).toBe(0);
      expect(empty.json).toMatchObject({ citations: 0, flagged: [] });
    } finally {
      other.remove();
    }
  });
});

describe("a revision of a flow original", () => {
  it("refuses the original itself, a PDF, and compares before any revision is stored", async () => {
    expect(errorCode(await bench.session("compare", ["--json"]))).toBe("USAGE");
    expect(errorCode(await bench.session("revise", [original, "--json"]))).toBe("USAGE");
    expect(errorCode(await bench.session("revise", [fixture("paper"), "--json"]))).toBe(
      "CONTENT_NOT_SUPPORTED",
    );
  });

  it("stores another flow file and compares each claim with it by section", async () => {
    const revision = bench.file("corpus-r1.md", revised(CORPUS));
    const stored = await bench.session("revise", [revision, "--json"]);
    expect(stored.status, stored.stderr).toBe(0);
    expect(stored.json).toMatchObject({
      revision: { id: "r1", kind: "markdown", file: "revisions/r1/revision.md" },
      created: true,
    });
    expect((await bench.session("revise", [revision, "--json"])).json).toMatchObject({ created: false });
    const run = await bench.session("compare", ["--json"]);
    expect(run.status, run.stderr).toBe(0);
    const report = run.json as {
      revision: { kind: string; pages: number };
      claims: { anchor: string; outcome: string; sections?: string[]; detail: string }[];
    };
    expect(report.revision).toMatchObject({ kind: "markdown", pages: 0 });
    expect(report.claims.map((c) => [c.anchor, c.outcome, (c.sections ?? []).join("; ")])).toEqual([
      ['section "Introduction"', "moved", "2 Methods"],
      ['section "2.2 Models"', "moved", "2 Methods > 2.2 Statistical models"],
      ['section "3"', "not found", ""],
      ['section "4 Discussion"', "unchanged", "4 Discussion"],
      ['section "2.1"', "section exists", ""],
      ['section "2.2 Models"', "section gone", ""],
      ["the document", "unchanged", "1 Introduction"],
      ["Eq. (1)", "anchor exists", ""],
    ]);
    expect(report.claims[1].detail).toContain('section "2.2 Models" is gone from the revision');
    const text = (await bench.session("compare")).stdout;
    expect(text).toMatch(/revision r1 \(Markdown sha256 [0-9a-f]{12}\) of the original \(Markdown sha256/u);
  });

  it("refuses a revision's document record that was changed", async () => {
    const path = join(bench.dir, "revisions", "r1", "document.json");
    const stored = JSON.parse(readFileSync(path, "utf8"));
    stored.payload.text = stored.payload.text.replace("dams alone", "dams only");
    writeFileSync(path, JSON.stringify(stored));
    expect(errorCode(await bench.session("compare", ["--json"]))).toBe("SESSION_CORRUPT");
  });
});

describe("a flow file as a PDF original's revision", () => {
  it("is refused: pages and sections are not compared with each other", async () => {
    const pdf = sessionBench("pdf");
    try {
      expect((await pdf.session("new", [fixture("paper")])).status).toBe(0);
      const run = await pdf.session("revise", [pdf.file("notes.md", CORPUS), "--json"]);
      expect(errorCode(run)).toBe("CONTENT_NOT_SUPPORTED");
    } finally {
      pdf.remove();
    }
  });
});
