import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkText, formatTextCheckReport, type TextCheckReport } from "../../src/checks/check-text.js";
import type { CheckContext } from "../../src/checks/verify.js";
import { tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";
import { kindSupported, ORIGINAL, openContext, WORKED_EXAMPLE } from "./support.js";

let cache: ReturnType<typeof tempDir>;
let context: CheckContext;
let equations = false;
let figures = false;
beforeAll(async () => {
  cache = tempDir();
  context = await openContext(ORIGINAL, cache.dir);
  equations = await kindSupported(context, "equation");
  figures = await kindSupported(context, "figure");
});
afterAll(() => cache.remove());

function lines(report: TextCheckReport): string[] {
  return report.citations.map((c) => `${c.verdict} ${c.reason} ${c.anchor ?? "-"} ${c.quote ?? "-"}`);
}

describe("check-text outcomes on the prose fixture", () => {
  it("PASS: the quoted words are on the page named in the sentence", async () => {
    const report = await checkText(
      context,
      'Weights live on p. 1, "each of which carries a positive weight".',
    );
    expect(lines(report)).toEqual(["PASS found p. 1 each of which carries a positive weight"]);
    expect(report.citations[0].pool).toBeNull();
  });

  it("FAIL absent, wrong-page, form-differs and no-such-page", async () => {
    const report = await checkText(
      context,
      [
        'On p. 3 they call it "a finite set of edges".',
        'On p. 2 they write "To test the method, we generate random".',
        'On p. 1 "each of which carries a positive weight; and the weights".',
        'On p. 99 they write "anything at all goes here".',
      ].join(" "),
    );
    expect(lines(report)).toEqual([
      "FAIL absent p. 3 a finite set of edges",
      "FAIL wrong-page p. 2 To test the method, we generate random",
      "FAIL form-differs p. 1 each of which carries a positive weight; and the weights",
      "FAIL no-such-page p. 99 anything at all goes here",
    ]);
    expect(report.citations[1].evidence.foundOnPages).toEqual([4]);
  });

  it.each([
    ['"a finite set of edges." (p. 3).'],
    ['"a finite set of edges" (p. 3).'],
    ['"a finite set of edges," p. 3 notes.'],
  ])("checks a quotation whose page follows the closing quote: %s", async (draft) => {
    const report = await checkText(context, `They say ${draft}`);
    expect(lines(report)).toEqual([expect.stringMatching(/^FAIL absent p\. 3 a finite set of edges[.,]?$/)]);
  });

  it("FLAG: a bare page, and a quotation of fewer than four words", async () => {
    const report = await checkText(
      context,
      'Page 2 sets up the sampler. On p. 2 it is "uniformly at random".',
    );
    expect(lines(report)).toEqual(["FLAG no-quotation p. 2 uniformly at random", "FLAG no-quotation p. 2 -"]);
    expect(report.citations[0].message).toBe("page 2 exists; no quotation to verify: 3 words, need 4");
  });

  it("FAIL: a bare page the PDF lacks", async () => {
    const report = await checkText(context, "The proof is on page 11.");
    expect(lines(report)).toEqual(["FAIL no-such-page p. 11 -"]);
  });

  it("FAIL no-such-page: a page of more digits than a number holds, shown as the draft writes it", async () => {
    const big = "123456789012345678901234";
    const report = await checkText(
      context,
      `The proof is on page ${big}. On p. 0009007199254740993 "each of which carries a positive weight".`,
    );
    expect(lines(report)).toEqual([
      "FAIL no-such-page p. 9007199254740993 each of which carries a positive weight",
      `FAIL no-such-page p. ${big} -`,
    ]);
    expect(report.citations[1].message).toBe(
      `page ${big} does not exist (the file has ${context.pageCount} pages)`,
    );
    expect(report.citations[1].evidence.page).toBe(big);
    expect(report.citations[0].kind).toBe("quotation");
    expect(report.citations[0].message).toBe(
      `page 9007199254740993 does not exist (the file has ${context.pageCount} pages)`,
    );
    expect(formatTextCheckReport(report, "checked")).not.toMatch(/e\+|9007199254740992/u);
  });

  it("UNANCHORED: a quotation whose sentence names no page is not checked", async () => {
    const report = await checkText(context, 'Page 2 exists. They write "a finite set of nodes" somewhere.');
    expect(lines(report)).toEqual(["FLAG no-quotation p. 2 -", "UNANCHORED no-page - a finite set of nodes"]);
    expect(report.summary).toEqual({ citations: 1, PASS: 0, FLAG: 1, FAIL: 0, unanchored: 1 });
  });

  it("drops quotations under 12 or over 400 characters and reads the page alone", async () => {
    const report = await checkText(
      context,
      `On p. 1 "the model". On p. 4 "${"To test the method, ".repeat(25)}".`,
    );
    expect(lines(report)).toEqual(["FLAG no-quotation p. 1 -", "FLAG no-quotation p. 4 -"]);
    expect(report.dropped_quotations.map((q) => q.status)).toEqual(["too-short", "too-long"]);
  });

  it("lists unsupported forms and never checks them", async () => {
    const report = await checkText(context, "See pp. 3-4, Eq. 7, Fig. 1 and pages 2-3.");
    expect(report.citations).toEqual([]);
    expect(report.unsupported_forms.map((u) => u.written)).toEqual([
      "pp. 3-4",
      "Eq. 7",
      "Fig. 1",
      "pages 2-3",
    ]);
  });

  it("equations: PASS for a displayed equation's label, FAIL with the reason otherwise", async (t) => {
    if (!equations) t.skip("equation checks are not in this build yet");
    const report = await checkText(
      context,
      "Eq. (1) defines the weights; Eq. (3) and Eq. (1-3) do not exist.",
    );
    expect(report.citations.map((c) => `${c.verdict} ${c.reason} ${c.anchor}`)).toEqual([
      "PASS found Eq. (1)",
      "FAIL equation-unresolved Eq. (3)",
      "FAIL unsupported-equation-label Eq. (1-3)",
    ]);
  });

  it("figures: PASS for a caption's label, FAIL for a label no caption carries", async (t) => {
    if (!figures) t.skip("figure checks are not in this build yet");
    const report = await checkText(context, "Fig. (1) shows the counts; figure (2) does not exist.");
    expect(report.citations.map((c) => `${c.verdict} ${c.anchor}`)).toEqual([
      "PASS Fig. (1)",
      "FAIL Fig. (2)",
    ]);
  });

  it("formats the report: header, citation lines, summary, not verified, unsupported forms, exit line", async () => {
    const draft = WORKED_EXAMPLE.replace(", and Eq. (3) is the key identity", "");
    const text = formatTextCheckReport(await checkText(context, draft), "checked against x.pdf");
    expect(text.split("\n")).toEqual([
      "checked against x.pdf",
      '  PASS  p. 1 "a finite set of nodes": found on page 1 [found]',
      '  PASS  p. 4 "To test the method, we generate random": found on page 4 [found]',
      '  FAIL  p. 3 "a finite set of edges": not found on page 3 [absent]',
      "  FLAG  p. 2: page 2 exists; no quotation to verify: 0 words, need 4 [no-quotation] -- wording unchecked",
      '  UNANCHORED "a finite set of nodes": quoted, no page named; not checked',
      "4 citation(s): 2 PASS, 1 FLAG, 1 FAIL; 1 unanchored",
      "not verified: citation forms other than 'p. N', 'Eq. (N)' and 'Fig. (N)', quotations under the floors, and every unquoted claim",
      "  unsupported forms: Fig. 1, pp. 3-4",
      "exit 1: at least one citation FAILs against the document",
      "",
    ]);
  });
});

describe("citeproof check-text (CLI)", () => {
  const env = () => ({ CITEPROOF_CACHE_DIR: cache.dir });

  it("reads the draft from stdin, prints the report and exits 1 on a FAIL", () => {
    const run = runCli(["check-text", ORIGINAL, "-"], {
      env: env(),
      input: 'On p. 3 they call it "a finite set of edges".',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^checked against .*prose-example\.pdf \(pdf sha256 [0-9a-f]{12}\)\n/);
    expect(run.stdout).toContain("exit 1: at least one citation FAILs against the document");
  });

  it("exits 0 when nothing FAILs, and --json prints one document", () => {
    const run = runCli(["check-text", ORIGINAL, "-", "--json"], {
      env: env(),
      input: 'On p. 1 it is "a finite set of nodes". See pp. 3-4.',
    });
    expect(run.status).toBe(0);
    const json = run.json as TextCheckReport;
    expect(json.document.pages).toBe(10);
    expect(json.citations).toMatchObject([
      {
        verdict: "PASS",
        anchor: "p. 1",
        quote: "a finite set of nodes",
        reason: "found",
        pool: null,
        line: 1,
      },
    ]);
    expect(json.unsupported_forms).toEqual([{ written: "pp. 3-4", line: 1 }]);
    expect(json.summary).toEqual({ citations: 1, PASS: 1, FLAG: 0, FAIL: 0, unanchored: 0 });
  });

  it("names a missing draft with a coded error and exit 2", () => {
    const run = runCli(["check-text", ORIGINAL, "/nonexistent/draft.txt", "--json"], { env: env() });
    expect(run.status).toBe(2);
    expect(run.json).toEqual({
      error: { code: "FILE_NOT_FOUND", message: "draft /nonexistent/draft.txt does not exist" },
    });
    expect(run.stderr).not.toMatch(/at .*\.js/);
  });
});
