// A result's message names the settings it tells to change by their fields; an interface names them its own way.
import { describe, expect, it } from "vitest";
import { cutByDeadline, undecided } from "../../src/checks/deadline-cut.js";
import { nameSettings, ocrAdvice } from "../../src/checks/setting-names.js";
import { runOperation } from "../../src/operations/run-operation.js";
import { verifyOperation } from "../../src/operations/verify.js";
import { fixture } from "../helpers/fixture-files.js";

const cli = (setting: string) => `--${setting.replace(/_/g, "-")}`;
const cut = cutByDeadline(undecided({ id: "q", kind: "quotation", page: 3, text: "some words here now" }), {
  limitMs: 1,
  step: "extraction",
  pagesNotRead: [3],
});

describe("settings named in results", () => {
  it("names the deadline by its field in the library, and by the CLI's flag through the CLI's naming", () => {
    expect(cut.message).toBe(
      "not decided before the deadline (1 ms): extraction did not finish; page 3 not read; try timeout_ms 60000",
    );
    const named = nameSettings({ results: [cut] }, cli);
    expect(named.results[0].message).toBe(
      "not decided before the deadline (1 ms): extraction did not finish; page 3 not read; try --timeout-ms 60000",
    );
    // The result given is left as it was: what changes is copied.
    expect(cut.message).toMatch(/try timeout_ms 60000$/);
  });

  it("names the OCR mode in a no-text-layer message, and leaves other text and bytes alone", () => {
    const flag = {
      verdict: "FLAG",
      reason: "no-text-layer",
      message: `words are an image: ${ocrAdvice()}read it`,
    };
    const other = { verdict: "PASS", reason: "found", message: "found: try timeout_ms 5 (quoted)" };
    const png = new Uint8Array([1, 2, 3]);
    const named = nameSettings({ flag, other, png }, cli);
    expect(named.flag.message).toBe("words are an image: OCR it (--ocr auto) or read it");
    expect(named.other).toBe(other);
    expect(named.png).toBe(png);
  });

  it("names them through runOperation with the context's naming, and by field without one", async () => {
    const args = {
      pdf: fixture("scan-layers"),
      evidence: [
        { kind: "quotation", page: 1, text: "The learner receives examples whose labels were flipped" },
      ],
    };
    const ctx = { cwd: process.cwd(), access: "anywhere" as const, open: { noCache: true } };
    const message = (json: unknown) => (json as { results: { message: string }[] }).results[0].message;
    const neutral = await runOperation(verifyOperation, args, ctx);
    expect(message(neutral.json)).toContain("OCR it (ocr auto) or read it yourself");
    const named = await runOperation(verifyOperation, args, { ...ctx, settingName: cli });
    expect(message(named.json)).toContain("OCR it (--ocr auto) or read it yourself");
    expect(named.text()).toContain("OCR it (--ocr auto) or read it yourself");
  });
});
