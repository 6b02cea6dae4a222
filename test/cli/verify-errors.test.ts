// Bad input to `citeproof verify`: each case gets a stable code, a one-line message naming the
// problem, an error document with --json, exit 2, no stack trace, and nothing in the cache.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectToolError } from "../helpers/cli-expect.js";
import { fixture, listFiles, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";
import { syntheticPdf } from "../helpers/synthetic-pdf.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
const PAPER = fixture("paper");
const GOOD_RECORDS = [{ kind: "quotation", page: 3, text: "the final weights are calibrated" }];

let counter = 0;
function file(name: string, content: string | Uint8Array): string {
  const path = join(tmp.dir, `${counter++}-${name}`);
  writeFileSync(path, content);
  return path;
}
const goodEvidence = () => file("evidence.json", JSON.stringify(GOOD_RECORDS));

/**
 * Runs verify with --json and a fresh cache dir (flag and environment both), checks the error
 * document and that the cache stayed empty, and returns the message.
 */
function expectRejected(
  args: string[],
  code: string,
  mentions: (string | RegExp)[] = [],
  json = true,
): string {
  const cache = join(tmp.dir, `cache-${counter++}`);
  const envCache = join(tmp.dir, `env-cache-${counter++}`);
  const run = runCli(["verify", ...args, "--cache-dir", cache, ...(json ? ["--json"] : [])], {
    env: { CITEPROOF_CACHE_DIR: envCache },
  });
  const message = expectToolError(run, code, json);
  for (const m of mentions) expect(message).toMatch(m);
  expect(listFiles(cache)).toEqual([]);
  expect(listFiles(envCache)).toEqual([]);
  return message;
}

describe("the PDF", () => {
  it("missing file: FILE_NOT_FOUND", () => {
    const path = join(tmp.dir, "no-such.pdf");
    expect(expectRejected([path, "--evidence", goodEvidence()], "FILE_NOT_FOUND", [path])).toBe(
      `${path} does not exist`,
    );
  });

  it("a directory: FILE_UNREADABLE", () => {
    const dir = join(tmp.dir, "a-directory.pdf");
    mkdirSync(dir);
    expectRejected([dir, "--evidence", goodEvidence()], "FILE_UNREADABLE", [dir, /directory/]);
  });

  it("a FIFO: FILE_UNREADABLE at once, without waiting for a writer", () => {
    const fifo = join(tmp.dir, "a-fifo.pdf");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    expectRejected([fifo, "--evidence", goodEvidence()], "FILE_UNREADABLE", [fifo, /FIFO/]);
  });

  it.skipIf(process.getuid?.() === 0)("a file without read permission: FILE_UNREADABLE", () => {
    const path = file("locked.pdf", readFileSync(PAPER));
    chmodSync(path, 0o000);
    expectRejected([path, "--evidence", goodEvidence()], "FILE_UNREADABLE", [path, /permission/]);
  });

  it("content no reader takes: CONTENT_NOT_SUPPORTED; text is read as text, which has no pages", () => {
    const png = file("image.pdf", readFileSync("fixtures/src/layout.swatch.png"));
    expectRejected([png, "--evidence", goodEvidence()], "CONTENT_NOT_SUPPORTED", [png, /binary/]);
    const empty = file("empty.pdf", "");
    expectRejected([empty, "--evidence", goodEvidence()], "CONTENT_NOT_SUPPORTED", [empty, /empty/]);
    const text = file("notes.pdf", "These are notes, not a PDF.\n");
    expectRejected([text, "--evidence", goodEvidence()], "EVIDENCE_INVALID", [
      text,
      /plain text, which has no pages/,
    ]);
  });

  it("damaged or truncated: DAMAGED_PDF", () => {
    const bytes = readFileSync(PAPER);
    const truncated = file("truncated.pdf", bytes.subarray(0, Math.floor(bytes.length / 3)));
    expectRejected([truncated, "--evidence", goodEvidence()], "DAMAGED_PDF", [/damaged or truncated/]);
    const garbage = file("garbage.pdf", Buffer.concat([Buffer.from("%PDF-1.5\n"), Buffer.alloc(4096, 0x41)]));
    expectRejected([garbage, "--evidence", goodEvidence()], "DAMAGED_PDF");
  });

  it("encrypted without a password: ENCRYPTED_PDF, naming --password", () => {
    expectRejected([fixture("encrypted"), "--evidence", goodEvidence()], "ENCRYPTED_PDF", [
      /encrypted/,
      /--password/,
    ]);
  });

  it("encrypted with a wrong password: BAD_PASSWORD", () => {
    expectRejected(
      [fixture("encrypted"), "--evidence", goodEvidence(), "--password", "wrong"],
      "BAD_PASSWORD",
      [/password/],
    );
  });

  it("encrypted and opened with its password: results, and still nothing in the cache", () => {
    const cache = join(tmp.dir, "cache-password");
    const run = runCli([
      "verify",
      fixture("encrypted"),
      "--evidence",
      file("ev.json", JSON.stringify([{ kind: "quotation", page: 1, text: "the words written on it" }])),
      "--password",
      "secret",
      "--cache-dir",
      cache,
      "--json",
    ]);
    expect(run.status).toBe(0);
    expect(listFiles(cache)).toEqual([]);
    // A later run without the password is still refused: no decrypted text was kept.
    const again = runCli([
      "verify",
      fixture("encrypted"),
      "--evidence",
      goodEvidence(),
      "--cache-dir",
      cache,
      "--json",
    ]);
    expectToolError(again, "ENCRYPTED_PDF", true);
  });

  it("over the size limit: FILE_TOO_LARGE, naming the limit and the flag", () => {
    const size = readFileSync(PAPER).length;
    expectRejected([PAPER, "--evidence", goodEvidence(), "--max-bytes", "1000"], "FILE_TOO_LARGE", [
      String(size),
      "1000",
      "--max-bytes",
    ]);
  });

  it("past the extraction deadline: never a FAIL, promptly, and no whole-document text cached", () => {
    const big = file("big.pdf", syntheticPdf(2000));
    const cache = join(tmp.dir, "cache-timeout");
    const started = Date.now();
    const run = runCli([
      "verify",
      big,
      "--evidence",
      goodEvidence(),
      "--timeout-ms",
      "300",
      "--cache-dir",
      cache,
      "--json",
    ]);
    // Where the deadline falls depends on the machine: before the document opens, the call is
    // EXTRACTION_TIMEOUT (exit 2); after, a record it cut is FLAG deadline (exit 0). Never a FAIL.
    if (run.status === 2) {
      const message = expectToolError(run, "EXTRACTION_TIMEOUT", true);
      expect(message).toContain("300 ms");
      expect(message).toContain("--timeout-ms");
    } else {
      expect(run.status).toBe(0);
      const results = JSON.parse(run.stdout).results as {
        verdict: string;
        reason: string;
        message: string;
      }[];
      for (const r of results) {
        expect(r.verdict).not.toBe("FAIL");
        if (r.reason === "deadline") expect(r.message).toContain("--timeout-ms");
      }
    }
    expect(Date.now() - started).toBeLessThan(15_000);
    // The cited pages are read first and may be cached page by page; the whole document's text layer,
    // which only a finished extraction writes, is not.
    expect(listFiles(cache).filter((f) => /(^|\/)text\.bin$/.test(f))).toEqual([]);
  });
});

describe("the evidence", () => {
  let pdfArgs: (evidence: string) => string[];
  beforeAll(() => {
    pdfArgs = (evidence) => [PAPER, "--evidence", evidence];
  });
  const records = (value: unknown) => file("evidence.json", JSON.stringify(value));

  it("missing evidence file: FILE_NOT_FOUND", () => {
    const path = join(tmp.dir, "no-such-evidence.json");
    expectRejected(pdfArgs(path), "FILE_NOT_FOUND", [path, /evidence/]);
  });

  it("not JSON: EVIDENCE_NOT_JSON", () => {
    expectRejected(pdfArgs(file("bad.json", "[{kind: quotation}")), "EVIDENCE_NOT_JSON", [/not valid JSON/]);
    expectRejected(pdfArgs(file("blank.json", "")), "EVIDENCE_NOT_JSON");
  });

  it("not a list of records: EVIDENCE_INVALID", () => {
    expectRejected(pdfArgs(records({ kind: "page", page: 1 })), "EVIDENCE_INVALID", [/array/]);
    expectRejected(pdfArgs(records("page 3")), "EVIDENCE_INVALID", [/array/]);
  });

  it.each([
    [
      "a record that is not an object",
      [GOOD_RECORDS[0], "p. 3"],
      /^"evidence\[1\]" in --evidence must be an object \(got "p\. 3"\)$/,
    ],
    [
      "a missing kind",
      [GOOD_RECORDS[0], GOOD_RECORDS[0], { page: 2 }],
      /^"evidence\[2\]\.kind" in --evidence is missing$/,
    ],
    [
      "text that is not a string",
      [{ kind: "quotation", page: 3, text: 42 }],
      /^"evidence\[0\]\.text" in --evidence must be a string \(got 42\)$/,
    ],
    [
      "empty text",
      [{ kind: "quotation", page: 3, text: "  \n " }],
      /^"evidence\[0\]\.text" in --evidence is empty$/,
    ],
    ["a page record without a page", [{ kind: "page" }], /^"evidence\[0\]\.page" in --evidence is missing$/],
    [
      "an id that is not a string",
      [{ id: {}, kind: "page", page: 1 }],
      /^"evidence\[0\]\.id" in --evidence must be a string or a finite number \(got {}\)$/,
    ],
    [
      "an unknown kind",
      [GOOD_RECORDS[0], { kind: "table", page: 1 }],
      /^"evidence\[1\]\.kind" in --evidence must be one of "page", "quotation", "equation", "figure" \(got "table"\)$/,
    ],
    [
      "a misspelled field, one edit from a known one",
      [{ kind: "quotation", text: "the final weights are calibrated", Page: 1 }],
      /^unknown "evidence\[0\]\.Page" in --evidence \(did you mean "page"\?\)$/,
    ],
    [
      "a field no record carries, with no near one",
      [{ kind: "page", page: 1, confidence: 0.9 }],
      /^unknown "evidence\[0\]\.confidence" in --evidence \(expected "id", "kind", "page"\)$/,
    ],
    [
      "a field of another kind of record",
      [{ kind: "figure", label: "2", page: 3 }],
      /^unknown "evidence\[0\]\.page" in --evidence \(expected "id", "kind", "label"\)$/,
    ],
    [
      "an unknown field beside the records",
      { evidence: [GOOD_RECORDS[0]], evidance: [] },
      /^.*: unknown field "evidance" \(did you mean "evidence"\?\)$/,
    ],
    [
      "a figure label given with its keyword",
      [{ kind: "figure", label: "Figure 2" }],
      /^"evidence\[0\]\.label" in --evidence starts with "Figure"; give the figure label bare, .* \("Figure 2" -> "2"\)$/,
    ],
    [
      "a figure label given as Fig.",
      [{ kind: "figure", label: "Fig. 3" }],
      /^"evidence\[0\]\.label" in --evidence starts with "Fig\."; .* \("Fig\. 3" -> "3"\)$/,
    ],
    [
      "an equation label given as Eq. with parentheses",
      [{ kind: "equation", label: "Eq. (2.1)" }],
      /^"evidence\[0\]\.label" in --evidence starts with "Eq\."; give the equation label bare, .* \("Eq\. \(2\.1\)" -> "2\.1"\)$/,
    ],
    [
      "an equation label given as equation",
      [{ kind: "equation", label: "equation 4" }],
      /^"evidence\[0\]\.label" in --evidence starts with "equation"; .* \("equation 4" -> "4"\)$/,
    ],
    [
      "an endPage more than one past page",
      [{ kind: "quotation", page: 3, endPage: 5, text: "the final weights are calibrated" }],
      /^"evidence\[0\]\.endPage" in --evidence may be at most one past "page" \(got endPage 5, page 3\)$/,
    ],
    [
      "an endPage that is not an integer",
      [{ kind: "quotation", page: 3, endPage: "4", text: "the final weights are calibrated" }],
      /^"evidence\[0\]\.endPage" in --evidence must be a finite number \(got "4"\)$/,
    ],
    [
      "an ellipsis with nothing around it",
      [{ kind: "quotation", page: 3, text: "the final weights ... " }],
      /^"evidence\[0\]\.text" in --evidence has an ellipsis with no words on one side of it$/,
    ],
  ])("%s: EVIDENCE_INVALID naming the record's field by its path", (_label, value, message) => {
    expect(expectRejected(pdfArgs(records(value)), "EVIDENCE_INVALID")).toMatch(message);
  });

  it.each([
    [0, "quotation"],
    [-1, "page"],
    [2.5, "quotation"],
    ["3", "page"],
    [true, "quotation"],
    [[3], "page"],
  ])("page %j in a %s record: EVIDENCE_INVALID, a positive integer", (page, kind) => {
    const message = expectRejected(
      pdfArgs(
        records([
          GOOD_RECORDS[0],
          { kind, page, ...(kind === "quotation" ? { text: "the final weights are calibrated" } : {}) },
        ]),
      ),
      "EVIDENCE_INVALID",
    );
    // What the page must be follows from what it is: a whole number, then at least 1.
    const must =
      typeof page !== "number"
        ? "be a finite number"
        : Number.isInteger(page)
          ? "be at least 1"
          : "be an integer";
    expect(message).toBe(`"evidence[1].page" in --evidence must ${must} (got ${JSON.stringify(page)})`);
  });

  it.each([
    [2 ** 53, "page"],
    [1e23, "quotation"],
  ])("page %j in a %s record: EVIDENCE_INVALID past the largest page number, never a hang", (page, kind) => {
    const message = expectRejected(
      pdfArgs(
        records([
          { kind, page, ...(kind === "quotation" ? { text: "the final weights are calibrated" } : {}) },
        ]),
      ),
      "EVIDENCE_INVALID",
    );
    expect(message).toBe(
      `"evidence[0].page" in --evidence must be at most 9007199254740991 (got ${JSON.stringify(page)})`,
    );
  });

  it("the largest page number itself: no-such-page, never a hang", () => {
    const evidence = records([
      { kind: "quotation", page: Number.MAX_SAFE_INTEGER, text: "the final weights are calibrated" },
    ]);
    const run = runCli(["verify", ...pdfArgs(evidence), "--json"], { timeoutMs: 30_000 });
    expect(run.status, run.stderr).toBe(1);
    expect((run.json as { results: { reason: string }[] }).results[0].reason).toBe("no-such-page");
  });

  describe("over the input limits", () => {
    const page = { kind: "page", page: 1 };
    const quotation = (chars: number) => ({ kind: "quotation", page: 3, text: "w".repeat(chars) });
    it.each([
      ["100,001 records", Array(100_001).fill(page), /^.* holds 100001 records, over the limit of 100000$/],
      [
        "a quotation of 20,001 characters",
        [quotation(20_001)],
        /^"evidence\[0\]\.text" in --evidence is 20001 characters, over the limit of 20000$/,
      ],
      [
        "quotations of 4,000,302 characters together",
        Array(201).fill(quotation(19_902)),
        /^--evidence holds quotations of 4000302 characters together, over the limit of 4000000$/,
      ],
      [
        "an id of 1,001 characters",
        [{ ...page, id: "i".repeat(1001) }],
        /^"evidence\[0\]\.id" in --evidence is 1001 characters, over the limit of 1000$/,
      ],
    ])("%s: EVIDENCE_INVALID naming the limit", (_label, value, message) => {
      expect(expectRejected(pdfArgs(records(value)), "EVIDENCE_INVALID")).toMatch(message);
    });

    it("a page nested 100,000 levels deep: EVIDENCE_INVALID showing the start of it", () => {
      const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
      const path = file("deep.json", `[{"kind":"page","page":${deep}}]`);
      expect(expectRejected(pdfArgs(path), "EVIDENCE_INVALID")).toMatch(
        /^"evidence\[0\]\.page" in --evidence must be a finite number \(got \[{9}\.\.\.\]{9}\)$/,
      );
    });

    it("an evidence file over 64 MiB: FILE_TOO_LARGE, before it is read whole", () => {
      const path = file("huge.json", "");
      truncateSync(path, 64 * 1024 * 1024 + 1);
      expectRejected(pdfArgs(path), "FILE_TOO_LARGE", [/over the limit of 67108864 bytes/]);
    });
  });
});

describe("without --json", () => {
  it("prints the same one line on stderr and nothing on stdout", () => {
    const missing = join(tmp.dir, "missing.pdf");
    expect(expectRejected([missing, "--evidence", goodEvidence()], "FILE_NOT_FOUND", [], false)).toBe(
      `${missing} does not exist`,
    );
    expectRejected([fixture("encrypted"), "--evidence", goodEvidence()], "ENCRYPTED_PDF", [], false);
    expectRejected([PAPER, "--evidence", file("bad.json", "{")], "EVIDENCE_NOT_JSON", [], false);
    expectRejected(
      [PAPER, "--evidence", file("ev.json", "[{}]")],
      "EVIDENCE_INVALID",
      [/evidence\[0\]/],
      false,
    );
    expectRejected([PAPER], "USAGE", [], false);
  });
});

describe("usage", () => {
  it("a missing --evidence, an unknown option, a bad number: USAGE", () => {
    expectRejected([PAPER], "USAGE", [/--evidence/]);
    expectRejected([PAPER, "--evidence", goodEvidence(), "--frobnicate"], "USAGE", [/--frobnicate/]);
    expectRejected([PAPER, "--evidence", goodEvidence(), "--timeout-ms", "soon"], "USAGE", [/--timeout-ms/]);
    expectRejected([PAPER, "--evidence", goodEvidence(), "--max-bytes", "0"], "USAGE", [/--max-bytes/]);
  });
});
