// Input limits: every limit accepted at its edge and rejected one past it, as a usage error naming
// the field.
import { describe, expect, it } from "vitest";
import { parseCitations, parseCiteCheckRequest, parseOptions } from "../../src/checks/cite-check/request.js";
import { CiteproofError } from "../../src/errors.js";

const box = { left: 10, bottom: 10, right: 20, top: 20 };
const cite = (extra: Record<string, unknown> = {}) => ({
  quote: "words",
  page: 1,
  bounding_box: box,
  ...extra,
});

function usageError(fn: () => unknown, field: string | RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CiteproofError);
    expect((error as CiteproofError).code).toBe("USAGE");
    if (typeof field === "string") expect((error as CiteproofError).message).toContain(field);
    else expect((error as CiteproofError).message).toMatch(field);
    return;
  }
  throw new Error("expected a usage error");
}

describe("citation limits", () => {
  it("takes 1 to 100 citations", () => {
    expect(parseCitations([cite()])).toHaveLength(1);
    expect(parseCitations(Array.from({ length: 100 }, () => cite()))).toHaveLength(100);
    usageError(() => parseCitations([]), "citations must hold 1 to 100");
    usageError(() => parseCitations(Array.from({ length: 101 }, () => cite())), "(got 101)");
  });

  it("takes quotes of up to 4,096 UTF-16 units, an astral character counting two", () => {
    expect(parseCitations([cite({ quote: "a".repeat(4096) })])[0].quote).toHaveLength(4096);
    usageError(() => parseCitations([cite({ quote: "a".repeat(4097) })]), "citations[0].quote");
    expect(parseCitations([cite({ quote: "𝑥".repeat(2048) })])[0].quote).toHaveLength(4096);
    usageError(() => parseCitations([cite({ quote: `${"𝑥".repeat(2048)}a` })]), "citations[0].quote is 4097");
  });

  it("takes up to 64,000 units of quotes in all", () => {
    const quotes = (last: number) => [
      ...Array.from({ length: 15 }, () => cite({ quote: "a".repeat(4096) })),
      cite({ quote: "a".repeat(last) }),
    ];
    expect(parseCitations(quotes(64_000 - 15 * 4096))).toHaveLength(16);
    usageError(() => parseCitations(quotes(64_001 - 15 * 4096)), "citations[15].quote, 64001");
  });

  it("takes up to 20 distinct pages", () => {
    const pages = (n: number) => Array.from({ length: n }, (_, i) => cite({ page: i + 1 }));
    expect(parseCitations([...pages(20), ...pages(20)])).toHaveLength(40);
    usageError(() => parseCitations(pages(21)), "citations[20].page");
  });

  it("rejects empty or whitespace-only quotes, bad pages, bad ids and unknown fields", () => {
    usageError(() => parseCitations([cite({ quote: "" })]), "citations[0].quote must be a non-empty string");
    usageError(() => parseCitations([cite({ quote: " \n" })]), "citations[0].quote holds only whitespace");
    usageError(() => parseCitations([cite(), cite({ page: 0 })]), "citations[1].page");
    usageError(() => parseCitations([cite({ page: 1.5 })]), "citations[0].page");
    usageError(() => parseCitations([cite({ page: "3" })]), "citations[0].page");
    usageError(() => parseCitations([cite({ id: 7 })]), "citations[0].id");
    usageError(() => parseCitations([cite({ padding: 2 })]), "citations[0].padding is not a known field");
    usageError(
      () => parseCitations([cite({ Page: 2 })]),
      'citations[0].Page is not a known field (did you mean "page"?)',
    );
    expect(parseCitations([cite({ id: "x" })])[0].id).toBe("x");
  });

  it("takes boxes of finite numbers with positive width and height", () => {
    expect(
      parseCitations([cite({ bounding_box: { left: -5, bottom: -5, right: -4.9999, top: -4.9999 } })]),
    ).toHaveLength(1);
    usageError(() => parseCitations([cite({ bounding_box: { ...box, right: 10 } })]), "positive width");
    usageError(() => parseCitations([cite({ bounding_box: { ...box, top: 9 } })]), "positive height");
    usageError(
      () => parseCitations([cite({ bounding_box: { ...box, left: Number.NaN } })]),
      "bounding_box.left",
    );
    usageError(
      () => parseCitations([cite({ bounding_box: { ...box, top: Number.POSITIVE_INFINITY } })]),
      "citations[0].bounding_box.top must be a finite number",
    );
    usageError(
      () => parseCitations([cite({ bounding_box: { left: 1, bottom: 1, right: 2 } })]),
      "bounding_box.top",
    );
    usageError(() => parseCitations([cite({ bounding_box: [1, 2, 3, 4] })]), "citations[0].bounding_box");
  });
});

describe("option limits", () => {
  it("names a value nested 5,000 deep, or an object, in a usage error, cut short", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const base = { operation: "cite_check", sources: [{ path: "x.pdf" }], citations: [cite()] };
    for (const field of ["timeout_ms", "max_output_chars", "operation"]) {
      usageError(() => parseCiteCheckRequest({ ...base, [field]: deep }), `${field} must be`);
      usageError(() => parseCiteCheckRequest({ ...base, [field]: { a: 1 } }), '(got {"a":1})');
    }
  });

  it("takes timeout_ms from 1,000 to 300,000, default 60,000", () => {
    expect(parseOptions({}).timeoutMs).toBe(60_000);
    expect(parseOptions({ timeout_ms: 1000 }).timeoutMs).toBe(1000);
    expect(parseOptions({ timeout_ms: 300_000 }).timeoutMs).toBe(300_000);
    usageError(() => parseOptions({ timeout_ms: 999 }), "timeout_ms must be an integer from 1000 to 300000");
    usageError(() => parseOptions({ timeout_ms: 300_001 }), "timeout_ms");
    usageError(() => parseOptions({ timeout_ms: 1000.5 }), "timeout_ms");
  });

  it("takes max_output_chars from 1,000 to 1,000,000, default 200,000", () => {
    expect(parseOptions({}).maxOutputChars).toBe(200_000);
    expect(parseOptions({ max_output_chars: 1000 }).maxOutputChars).toBe(1000);
    expect(parseOptions({ max_output_chars: 1_000_000 }).maxOutputChars).toBe(1_000_000);
    usageError(() => parseOptions({ max_output_chars: 999 }), "max_output_chars");
    usageError(() => parseOptions({ max_output_chars: 1_000_001 }), "max_output_chars");
  });

  it("knows two normalisations, two OCR modes and a 64-digit hex hash", () => {
    expect(parseOptions({}).normalization).toBe("none");
    expect(parseOptions({ normalization: "whitespace_v1" }).normalization).toBe("whitespace_v1");
    usageError(
      () => parseOptions({ normalization: "fold" }),
      "normalization must be one of none, whitespace_v1",
    );
    expect(parseOptions({ ocr: "auto" }).ocr).toBe("auto");
    usageError(() => parseOptions({ ocr: "vlm" }), "ocr must be one of auto, tesseract");
    expect(parseOptions({ expected_source_sha256: "AB".repeat(32) }).expectedSha256).toBe("ab".repeat(32));
    usageError(() => parseOptions({ expected_source_sha256: "ab".repeat(31) }), "expected_source_sha256");
    usageError(
      () => parseOptions({ expected_source_sha256: `${"ab".repeat(31)}zz` }),
      "expected_source_sha256",
    );
  });

  it("names the flag when the value came from one", () => {
    usageError(() => parseOptions({ timeout_ms: 5 }, { timeout_ms: "--timeout-ms" }), /^--timeout-ms must/);
  });
});

describe("request document", () => {
  const request = (extra: Record<string, unknown> = {}) => ({
    operation: "cite_check",
    sources: [{ path: "a.pdf" }],
    citations: [cite()],
    ...extra,
  });

  it("parses the full form with its options", () => {
    const input = parseCiteCheckRequest(
      request({ normalization: "whitespace_v1", ocr: "tesseract", timeout_ms: 5000, max_output_chars: 5000 }),
    );
    expect(input).toMatchObject({
      source: { path: "a.pdf" },
      normalization: "whitespace_v1",
      ocr: "tesseract",
      timeoutMs: 5000,
      maxOutputChars: 5000,
    });
    expect(
      parseCiteCheckRequest(request({ sources: [{ url: "https://example.org/a.pdf" }] })).source,
    ).toEqual({
      url: "https://example.org/a.pdf",
    });
  });

  it("takes exactly one source, a path or an http(s) URL", () => {
    usageError(
      () => parseCiteCheckRequest(request({ sources: [] })),
      "sources must be an array of exactly one",
    );
    usageError(
      () => parseCiteCheckRequest(request({ sources: [{ path: "a.pdf" }, { path: "b.pdf" }] })),
      "exactly one source",
    );
    usageError(
      () => parseCiteCheckRequest(request({ sources: [{ path: "a.pdf", url: "http://x/a.pdf" }] })),
      "exactly one of path and url",
    );
    usageError(
      () => parseCiteCheckRequest(request({ sources: [{ url: "ftp://x/a.pdf" }] })),
      "sources[0].url",
    );
    usageError(
      () => parseCiteCheckRequest(request({ sources: [{ path: "https://x/a.pdf" }] })),
      "give it as sources[0].url",
    );
    usageError(
      () => parseCiteCheckRequest(request({ sources: [{ path: "a.pdf", pages: [1] }] })),
      "sources[0].pages",
    );
  });

  it("requires the operation and rejects unknown fields", () => {
    usageError(() => parseCiteCheckRequest(request({ operation: "inspect" })), "operation must be");
    usageError(() => parseCiteCheckRequest(request({ regions: [] })), "regions is not a known field");
    usageError(
      () => parseCiteCheckRequest(request({ normalisation: "none" })),
      'normalisation is not a known field (did you mean "normalization"?)',
    );
    usageError(() => parseCiteCheckRequest([]), "the request must be a JSON object");
  });
});
