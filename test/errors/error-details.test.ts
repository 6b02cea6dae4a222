// Each error code's details have one shape, defined beside the code list (src/error-document.ts): the
// facts every input error may carry and the code's own. The suites run with the check on, so an error
// document any test produces (in process, or from the CLI it starts) whose details are not its code's
// shape comes out INTERNAL and that test fails.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  CHECK_DETAILS_ENV,
  type DetailsOf,
  detailsProblem,
  ERROR_DETAILS,
  errorDocument,
} from "../../src/error-document.js";
import { CiteproofError, ERROR_CODES, type ErrorCode, NEUTRAL_NAMING } from "../../src/errors.js";
import type { OperationContext } from "../../src/operations/operation.js";
import { runOperation } from "../../src/operations/run-operation.js";
import { verifyOperation } from "../../src/operations/verify.js";

/** An example of the facts each code's every error carries (none for most codes). */
const REQUIRED_FACTS: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  BATCH_DUPLICATE_ID: { lines: [2, 5], id: "a" },
  BATCH_JOB_INVALID: { line: 3 },
  BATCH_MERGE_MISMATCH: { missing: 1, duplicated: 0 },
  BATCH_OUTPUT_FOREIGN: { line: 1 },
  ENGINE_MEMORY_LIMIT: { limitMb: 1024 },
  ORIGINAL_MISMATCH: { bound: "a".repeat(64), given: "b".repeat(64) },
  URL_HTTP_ERROR: { status: 404, url: "https://example.org/a" },
  URL_TOO_MANY_REDIRECTS: { redirects: ["https://example.org/b"] },
};

describe("error details", () => {
  it("has one schema per code", () => {
    expect(Object.keys(ERROR_DETAILS).sort()).toEqual([...ERROR_CODES].sort());
  });

  it("takes the common facts for every code and a code's own facts for it alone", () => {
    for (const code of ERROR_CODES)
      expect(
        detailsProblem(code, {
          path: "evidence[0].page",
          field: "page",
          option: "x",
          limit: 3,
          ...REQUIRED_FACTS[code],
        }),
        code,
      ).toBe(undefined);
    expect(detailsProblem("URL_HTTP_ERROR", { status: 404, url: "https://example.org/a" })).toBeUndefined();
    expect(detailsProblem("FILE_NOT_FOUND", { status: 404 })).toMatch(/status|Unrecognized/i);
    expect(detailsProblem("URL_HTTP_ERROR", { status: "404", url: "u" })).toMatch(/status/);
    expect(detailsProblem("BATCH_DUPLICATE_ID", { lines: [2, 5], id: "a" })).toBeUndefined();
    expect(detailsProblem("USAGE", { issues: [{ path: "a", code: "NOPE", message: "m" }] })).toMatch(
      /issues/,
    );
  });

  it("requires the facts every error of a code carries, in the schema and in the type", () => {
    for (const [code, facts] of Object.entries(REQUIRED_FACTS) as [ErrorCode, Record<string, unknown>][]) {
      expect(detailsProblem(code, undefined), code).toMatch(/expected|required/i);
      for (const fact of Object.keys(facts)) {
        const { [fact]: _left, ...others } = facts;
        expect(detailsProblem(code, others), `${code} without ${fact}`).toMatch(new RegExp(fact));
      }
    }
    expect(detailsProblem("EXTRACTION_FAILED", undefined)).toBeUndefined();
    // @ts-expect-error: an HTTP error always knows its status and address
    expect(new CiteproofError("URL_HTTP_ERROR", "x answered 404").code).toBe("URL_HTTP_ERROR");
    // @ts-expect-error: and gives them typed
    expect(new CiteproofError("URL_HTTP_ERROR", "x", { status: "404", url: "u" }).code).toBe(
      "URL_HTTP_ERROR",
    );
    expect(new CiteproofError("EXTRACTION_FAILED", "page 3 failed").details).toBeUndefined();
  });

  it("types each code's details", () => {
    expectTypeOf<DetailsOf<"URL_HTTP_ERROR">>().toHaveProperty("status");
    expectTypeOf<DetailsOf<"ORIGINAL_MISMATCH">>().toHaveProperty("bound");
    const own: DetailsOf<"ENGINE_MEMORY_LIMIT"> = { limitMb: 1024 };
    expect(own.limitMb).toBe(1024);
  });

  it("is checked on every error document the suites produce", async () => {
    expect(process.env[CHECK_DETAILS_ENV]).toBe("1");
    const wrong = new CiteproofError("FILE_NOT_FOUND", "no such file", { status: 404 });
    expect(errorDocument(wrong, NEUTRAL_NAMING)).toMatchObject({
      code: "INTERNAL",
      message: expect.stringContaining("the details of FILE_NOT_FOUND are not its shape"),
    });
    // A real bad call: every problem listed, each in the shape of its code.
    const bad = { pdf: 3, evidence: [{ kind: "page", page: 0 }], unknown_field: true };
    // The arguments are refused before the operation runs: it needs no context.
    const error = await runOperation(verifyOperation, bad, {} as OperationContext).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    const document = errorDocument(error, NEUTRAL_NAMING);
    expect(document.code).toBe("USAGE");
    expect(document.details?.issues?.length).toBeGreaterThan(1);
    expect(detailsProblem(document.code, document.details)).toBeUndefined();
  });
});
