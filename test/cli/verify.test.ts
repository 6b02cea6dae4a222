// `citeproof verify` end to end: every verdict and reason through the CLI, the --json document,
// the human report, and the exit codes.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/source/file.js";
import { expectNoStackTrace } from "../helpers/cli-expect.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCli, runCliInProcess } from "../helpers/run-cli.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
const env = { CITEPROOF_CACHE_DIR: join(tmp.dir, "cache") };

function evidenceFile(name: string, records: unknown): string {
  const path = join(tmp.dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(records));
  return path;
}

const PAPER = fixture("paper");
const ALL_REASONS = [
  { id: "found", kind: "quotation", page: 5, text: "reduced the mean squared error by roughly a third" },
  {
    id: "wrong-page",
    kind: "quotation",
    page: 3,
    text: "Standard errors come from a bootstrap that resamples primary sampling units",
  },
  {
    id: "form-differs",
    kind: "quotation",
    page: 4,
    text: "changed the weights by between 58% of their design values",
  },
  { id: "absent", kind: "quotation", page: 5, text: "reduced the mean squared error by roughly a half" },
  {
    id: "no-such-page",
    kind: "quotation",
    page: 12,
    text: "reduced the mean squared error by roughly a third",
  },
  { id: "no-quotation", kind: "quotation", page: 5, text: "roughly a third" },
  { id: "page-flag", kind: "page", page: 2 },
  { id: "page-fail", kind: "page", page: 6 },
  { id: "no-page", kind: "quotation", text: "reduced the mean squared error by roughly a third" },
];
const EXPECTED = [
  ["found", "quotation", "PASS", "found"],
  ["wrong-page", "quotation", "FAIL", "wrong-page"],
  ["form-differs", "quotation", "FAIL", "form-differs"],
  ["absent", "quotation", "FAIL", "absent"],
  ["no-such-page", "quotation", "FAIL", "no-such-page"],
  ["no-quotation", "quotation", "FLAG", "no-quotation"],
  ["page-flag", "page", "FLAG", "no-quotation"],
  ["page-fail", "page", "FAIL", "no-such-page"],
  ["no-page", "quotation", "UNANCHORED", "no-page"],
];

interface Report {
  document: { sha256: string; pages: number };
  results: {
    id?: string;
    kind: string;
    verdict: string;
    reason: string;
    message: string;
    evidence: Record<string, unknown>;
  }[];
}

describe("verify --json", () => {
  let report: Report;
  let status: number | null;
  beforeAll(async () => {
    const run = await runCliInProcess(
      ["verify", PAPER, "--evidence", evidenceFile("all", ALL_REASONS), "--json"],
      { env },
    );
    expect(run.stderr).toBe("");
    status = run.status;
    report = run.json as Report;
  });

  it("exits 1 when a record FAILs", async () => {
    expect(status).toBe(1);
  });

  it("names the document by sha256 and page count", async () => {
    expect(report.document).toEqual({ sha256: sha256Hex(readFileSync(PAPER)), pages: 5 });
  });

  it("gives every verdict and reason, in input order", async () => {
    expect(report.results.map((r) => [r.id, r.kind, r.verdict, r.reason])).toEqual(EXPECTED);
    for (const r of report.results) {
      expect(Object.keys(r).sort()).toEqual(["evidence", "id", "kind", "message", "reason", "verdict"]);
      expect(r.message.length).toBeGreaterThan(0);
    }
  });

  it("carries what each check saw", async () => {
    const by = new Map(report.results.map((r) => [r.id, r]));
    expect(by.get("wrong-page")!.evidence.foundOnPages).toEqual([4]);
    expect(by.get("form-differs")!.evidence.pageWords).toBe(
      "changed the weights by between 5\u20138% of their design values",
    );
    expect((by.get("absent")!.evidence.hint as { passage: { text: string } }).passage.text).toContain(
      "roughly a third",
    );
    expect(by.get("no-such-page")!.message).toBe("page 12 does not exist (the file has 5 pages)");
    expect(by.get("no-quotation")!.evidence.words).toBe(3);
    expect(by.get("no-page")!.message).toBe("quoted, no page named; not checked");
    const found = by.get("found")!.evidence.matches as { text: string }[];
    expect(found[0].text.replace(/\s+/g, " ")).toBe("reduced the mean squared error by roughly a third");
  });
});

describe("exit codes and the human report", () => {
  it("exits 0 when nothing FAILs, FLAGs and UNANCHORED included", async () => {
    const records = ALL_REASONS.filter((r) =>
      ["found", "no-quotation", "page-flag", "no-page"].includes(r.id),
    );
    const run = await runCliInProcess(
      ["verify", PAPER, "--evidence", evidenceFile("clean", records), "--json"],
      { env },
    );
    expect(run.status).toBe(0);
    expect((run.json as Report).results.map((r) => r.verdict)).toEqual([
      "PASS",
      "FLAG",
      "FLAG",
      "UNANCHORED",
    ]);
  });

  it("refuses an empty evidence list: nothing checked must not read as nothing FAILing", async () => {
    const path = evidenceFile("empty", []);
    const run = await runCliInProcess(["verify", PAPER, "--evidence", path, "--json"], { env });
    expect(run.status).toBe(2);
    expect(run.json).toMatchObject({ error: { code: "EVIDENCE_INVALID" } });
    expect(run.stderr).toBe(
      `citeproof: error [EVIDENCE_INVALID]: ${path} holds no evidence records: nothing would be checked; give at least one record\n`,
    );
  });

  it('accepts {"evidence": [...]} and evidence on stdin', async () => {
    const run = runCli(["verify", PAPER, "--evidence", "-", "--json"], {
      env,
      input: JSON.stringify({ evidence: [ALL_REASONS[0]] }),
    });
    expect(run.status).toBe(0);
    expect((run.json as Report).results[0].verdict).toBe("PASS");
  });

  it("prints one line per record, a summary and the exit line", async () => {
    const run = await runCliInProcess(
      ["verify", PAPER, "--evidence", evidenceFile("all-human", ALL_REASONS)],
      { env },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("");
    expectNoStackTrace(run.stdout);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^.+paper\.pdf \(sha256 [0-9a-f]{12}, 5 pages\)$/);
    const body = lines.slice(1, 1 + EXPECTED.length);
    EXPECTED.forEach(([id, , verdict, reason], k) => {
      expect(body[k]).toMatch(new RegExp(`^  ${verdict}\\s+\\[${id}\\] .*\\[${reason}\\]$`));
    });
    expect(lines.at(-2)).toBe("9 record(s): 1 PASS, 2 FLAG, 5 FAIL; 1 unanchored");
    expect(lines.at(-1)).toBe("exit 1: at least one record FAILs against the document");
  });

  it("reads a PDF opened with its password (--password)", async () => {
    const records = [{ kind: "quotation", page: 1, text: "only a reader that is given the password" }];
    const run = await runCliInProcess(
      [
        "verify",
        fixture("encrypted"),
        "--evidence",
        evidenceFile("enc", records),
        "--password",
        "secret",
        "--json",
      ],
      { env },
    );
    expect(run.status).toBe(0);
    expect((run.json as Report).results[0].verdict).toBe("PASS");
  });
});
