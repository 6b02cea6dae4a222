// verify --citations-format: Anthropic Messages API citation blocks (page_location, end_page_number
// exclusive) and W3C Web Annotation TextQuoteSelectors, read as quotation records; results as
// verify --json prints them, each with the citation's place in the input; a file in the wrong
// format is a coded one-line error naming the field.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
const ARTICLE = fixture("labels-article");
const BREAK = fixture("page-break");

function verify(pdf: string, format: string, value: unknown, extra: string[] = []) {
  const file = join(tmp.dir, `c-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(value));
  return runCliInProcess([
    "verify",
    pdf,
    "--evidence",
    file,
    "--citations-format",
    format,
    "--json",
    "--no-cache",
    ...extra,
  ]);
}

interface Result {
  index: number;
  at: string;
  verdict: string;
  reason: string;
  evidence: Record<string, unknown>;
  selector?: unknown;
}

const pageLocation = (cited_text: string, start: number, end: number, document_index = 0) => ({
  type: "page_location",
  cited_text,
  document_index,
  document_title: "Article",
  start_page_number: start,
  end_page_number: end,
});

describe("--citations-format anthropic", () => {
  it("reads a Messages API response: each text block's citations, pages start..end-1", async () => {
    const response = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [
        { type: "text", text: "The programme worked. " },
        {
          type: "text",
          text: "Errors fell by 14%.",
          citations: [pageLocation("The treatment lowered the error rate by 14% in the second year", 1, 2)],
        },
        {
          type: "text",
          text: "Prices were known fast.",
          citations: [
            pageLocation("A greater share of households reported the new prices", 2, 3),
            pageLocation("words of another document entirely", 1, 2, 1),
          ],
        },
      ],
    };
    const run = await verify(ARTICLE, "anthropic", response);
    expect(run.status).toBe(1);
    const report = run.json as { results: Result[]; skipped: unknown[] };
    expect(report.results.map((r) => [r.index, r.at, r.verdict, r.reason])).toEqual([
      [0, "content[1].citations[0]", "PASS", "found"],
      [1, "content[2].citations[0]", "FAIL", "wrong-page"],
    ]);
    expect(report.results[1].evidence.foundOnPages).toEqual([3]);
    expect(report.skipped).toEqual([{ index: 2, at: "content[2].citations[1]", documentIndex: 1 }]);
  });

  it("a list of citations; end_page_number two past start names both pages", async () => {
    const text = "wave respondent of while for the the hours measured study every respondent measured";
    const run = await verify(BREAK, "anthropic", [pageLocation(text, 1, 3), pageLocation(text, 1, 2)]);
    const report = run.json as { results: Result[] };
    expect(report.results.map((r) => [r.at, r.reason, r.evidence.page, r.evidence.endPage])).toEqual([
      ["[0]", "found", 1, 2],
      ["[1]", "crosses-page", 1, undefined],
    ]);
  });

  it("--document-index picks the request's document", async () => {
    const run = await verify(
      ARTICLE,
      "anthropic",
      [pageLocation("A greater share of households reported", 3, 4, 2)],
      ["--document-index", "2"],
    );
    expect((run.json as { results: Result[] }).results.map((r) => r.reason)).toEqual(["found"]);
  });

  it.each([
    [{ evidence: [] }, "an anthropic citations file must be"],
    [
      [{ ...pageLocation("the words here", 1, 2), type: "char_location" }],
      '[0].type must be "page_location"',
    ],
    [
      [pageLocation("the words here", 2, 2)],
      "[0].end_page_number must be an integer after start_page_number",
    ],
    [[pageLocation("the words here", 1, 4)], "[0].end_page_number spans 3 pages"],
    [[pageLocation("", 1, 2)], "[0].cited_text is empty"],
    [
      [{ ...pageLocation("the words", 1, 2), start_page_number: 0 }],
      "[0].start_page_number must be a positive",
    ],
    [[{ kind: "quotation", page: 1, text: "an evidence record" }], '[0].type must be "page_location"'],
  ])("wrong format %j: exit 2 naming the field", async (value, message) => {
    const run = await verify(ARTICLE, "anthropic", value);
    expect(run.status).toBe(2);
    const error = (run.json as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("EVIDENCE_INVALID");
    expect(error.message).toContain(message);
  });
});

describe("--citations-format w3c", () => {
  const annotation = (selector: unknown, id = "urn:a") => ({
    "@context": "http://www.w3.org/ns/anno.jsonld",
    id,
    type: "Annotation",
    target: { source: "article.pdf", selector },
  });
  const quote = (exact: string, extra: Record<string, unknown> = {}) => ({
    type: "TextQuoteSelector",
    exact,
    ...extra,
  });

  it("reads TextQuoteSelectors with a page (a FragmentSelector page=N, or a page field)", async () => {
    const run = await verify(ARTICLE, "w3c", [
      annotation({
        type: "FragmentSelector",
        conformsTo: "http://tools.ietf.org/rfc/rfc3778",
        value: "page=1",
        refinedBy: quote("lowered the error rate by 14%", { prefix: "The treatment ", suffix: " in the" }),
      }),
      annotation(
        [{ type: "FragmentSelector", value: "#page=2" }, quote("lowered the error rate by 41%")],
        "urn:b",
      ),
      annotation(quote("A greater share of households", { page: 3 }), "urn:c"),
      annotation(quote("A greater share of households"), "urn:d"),
    ]);
    const report = run.json as { results: (Result & { id: string })[] };
    expect(report.results.map((r) => [r.index, r.id, r.verdict, r.reason])).toEqual([
      [0, "urn:a", "PASS", "found"],
      [1, "urn:b", "FAIL", "absent"],
      [2, "urn:c", "PASS", "found"],
      [3, "urn:d", "UNANCHORED", "no-page"],
    ]);
    expect(report.results[0].selector).toEqual({
      prefix: "The treatment ",
      suffix: " in the",
      context: "found",
    });
    expect(report.results[0].at).toBe("[0].target");
  });

  it("checks a selector's prefix and suffix beside the words, without changing the verdict", async () => {
    const run = await verify(ARTICLE, "w3c", [
      annotation(quote("lowered the error rate by 14%", { page: 1, prefix: "No treatment ever " })),
    ]);
    const [result] = (run.json as { results: (Result & { message: string })[] }).results;
    expect([result.verdict, result.reason]).toEqual(["PASS", "found"]);
    expect(result.selector).toEqual({ prefix: "No treatment ever ", context: "not-found" });
    expect(result.message).toContain("the selector's prefix and suffix do not stand beside these words");
  });

  it.each([
    [
      annotation({ type: "TextPositionSelector", start: 1, end: 9 }),
      "annotation.target has no TextQuoteSelector",
    ],
    [annotation(quote("   ")), "annotation.target.selector (TextQuoteSelector).exact is empty"],
    [annotation(quote("the words", { page: "3" })), "(TextQuoteSelector).page must be a positive integer"],
    ["a string", "a w3c citations file must be"],
  ])("wrong format %j: exit 2 naming the field", async (value, message) => {
    const run = await verify(ARTICLE, "w3c", value);
    expect(run.status).toBe(2);
    const error = (run.json as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("EVIDENCE_INVALID");
    expect(error.message).toContain(message);
  });

  it("an unknown format is USAGE", async () => {
    const run = await verify(ARTICLE, "bibtex", []);
    expect([run.status, (run.json as { error: { code: string } }).error.code]).toEqual([2, "USAGE"]);
  });
});
