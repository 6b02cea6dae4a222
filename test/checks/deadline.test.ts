// A deadline is never a FAIL (issue 37 item 1): a record not decided because the deadline cut the
// extraction, the layout rules or OCR is FLAG `deadline`, naming the pages not read and a longer
// deadline to try; what the work done before the deadline decided stands, and nothing undecided is
// kept in the cache. The deadlines here have passed before the work starts, so nothing depends on
// the machine's speed.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkText } from "../../src/checks/check-text.js";
import { pageRuns } from "../../src/checks/deadline-cut.js";
import { applyOcr } from "../../src/checks/ocr-quotations.js";
import { REASON_MEANINGS } from "../../src/checks/verdicts.js";
import { checkContext, verifyEvidence } from "../../src/checks/verify.js";
import { openForAnchors } from "../../src/layout/anchors.js";
import { verifyPdf } from "../../src/reading/cited-pages-first.js";
import { openForChecks } from "../../src/reading/open-for-checks.js";
import { Deadline } from "../../src/util/deadline.js";
import { expectNoStackTrace } from "../helpers/cli-expect.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

const tmp = tempDir();
afterAll(() => tmp.remove());

interface Result {
  id?: string;
  verdict: string;
  reason: string;
  message: string;
  evidence: Record<string, unknown>;
}

describe("OCR cut by the deadline", () => {
  it("FLAGs deadline the equation labels and the quotation OCR was to decide, never FAIL", async () => {
    const cacheDir = join(tmp.dir, "ocr-cache");
    const doc = await openForChecks(fixture("eq-scan"), { cacheDir }, true);
    const records = [
      { kind: "equation" as const, label: "1" },
      { kind: "quotation" as const, page: 1, text: "the words of a scanned page here" },
    ];
    const context = checkContext(doc);
    const before = (await verifyEvidence(doc, records)).results;
    expect(before.map((r) => [r.verdict, r.reason])).toEqual([
      ["FAIL", "equation-unresolved"],
      ["FLAG", "no-text-layer"],
    ]);
    const after = await applyOcr(context, records, before, { mode: "auto", doc, timeoutMs: 0 });
    for (const r of after) expect(r).toMatchObject({ verdict: "FLAG", reason: "deadline" });
    // The label is looked for on both scanned pages; the quotation on its own.
    expect(after.map((r) => r.message)).toEqual([
      "not decided before the deadline (0 ms): OCR did not finish; pages 1-2 not read; try timeout_ms 60000",
      "not decided before the deadline (0 ms): OCR did not finish; page 1 not read; try timeout_ms 60000",
    ]);
    expect(after.map((r) => r.evidence.deadline)).toMatchObject([
      { limitMs: 0, step: "OCR", pagesNotRead: [1, 2] },
      { limitMs: 0, step: "OCR", pagesNotRead: [1] },
    ]);
    expect((after[0].evidence.deadline as { before: unknown }).before).toEqual({
      verdict: "FAIL",
      reason: "equation-unresolved",
    });
    expect(after[0].evidence.label).toBe("1");
  });
});

describe("extraction cut by the deadline (verify, CLI)", () => {
  // regions-book has 31 pages; a record citing page 1 reads pages 1-7 first.
  const PDF = fixture("regions-book");
  const env = { CITEPROOF_CACHE_DIR: join(tmp.dir, "cut-cache") };
  const evidence = (name: string, records: unknown) => {
    const path = join(tmp.dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(records));
    return path;
  };
  const records = [
    {
      id: "on-page",
      kind: "quotation",
      page: 1,
      text: "the weights are adjusted to known totals, the bounds are kept",
    },
    {
      id: "elsewhere",
      kind: "quotation",
      page: 1,
      text: "and the step numbered 141 is not repeated anywhere else in the text",
    },
    { id: "no-page", kind: "quotation", text: "and the step numbered 141 is not repeated" },
  ];

  it("keeps what the pages read decide, FLAGs the rest deadline, exits 0, and keeps nothing undecided", () => {
    // Pages 1-7 and the page count in the cache, as a first run citing page 1 leaves them.
    const warm = runCli(
      ["verify", PDF, "--evidence", evidence("warm", [{ kind: "page", page: 1 }]), "--json"],
      { env },
    );
    expect(warm.status).toBe(0);
    const cut = runCli(
      ["verify", PDF, "--evidence", evidence("cut", records), "--json", "--timeout-ms", "1"],
      { env },
    );
    expectNoStackTrace(cut.stderr);
    expect(cut.stderr).toBe("");
    expect(cut.status).toBe(0);
    const results = (cut.json as { results: Result[] }).results;
    expect(results.map((r) => [r.id, r.verdict, r.reason])).toEqual([
      ["on-page", "PASS", "found"],
      ["elsewhere", "FLAG", "deadline"],
      ["no-page", "UNANCHORED", "no-page"],
    ]);
    const flagged = results[1];
    expect(flagged.message).toBe(
      "not decided before the deadline (1 ms): extraction did not finish; pages 8-31 not read; try --timeout-ms 60000",
    );
    expect(flagged.evidence).toMatchObject({
      quotation: records[1].text,
      page: 1,
      deadline: { limitMs: 1, step: "extraction" },
    });
    // The human report says the same, on one line.
    const human = runCli(["verify", PDF, "--evidence", evidence("cut", records), "--timeout-ms", "1"], {
      env,
    });
    expect(human.stdout).toContain("FLAG  [elsewhere] p. 1");
    expect(human.stdout).toContain("[deadline]");
    // A record citing page 2 reads page 8 too, which the cache lacks: the first read is cut, and
    // what the pages held decide (the words on page 2) stands.
    const near = {
      id: "near",
      kind: "quotation",
      page: 2,
      text: "A reader who cites this paragraph names the words of step 6",
    };
    const first = runCli(
      ["verify", PDF, "--evidence", evidence("near", [...records, near]), "--json", "--timeout-ms", "1"],
      { env },
    );
    expect(first.stderr).toBe("");
    const nearResults = (first.json as { results: Result[] }).results;
    expect(nearResults.map((r) => [r.id, r.verdict, r.reason])).toEqual([
      ["on-page", "PASS", "found"],
      ["elsewhere", "FLAG", "deadline"],
      ["no-page", "UNANCHORED", "no-page"],
      ["near", "PASS", "found"],
    ]);
    expect(nearResults[1].message).toContain("pages 8-31 not read");
    // With time enough, the same record is decided: the FLAG was not kept as its result.
    const full = runCli(["verify", PDF, "--evidence", evidence("cut", records), "--json"], { env });
    expect((full.json as { results: Result[] }).results[1]).toMatchObject({
      verdict: "FAIL",
      reason: "wrong-page",
      evidence: { foundOnPages: [21] },
    });
  });
});

describe("the deadline reason", () => {
  it("is defined once, as a FLAG that names what to try", () => {
    expect(REASON_MEANINGS.deadline).toMatch(/^not decided: the deadline passed/);
    expect(pageRuns([8, 9, 10, 3, 12, 13, 1])).toBe("1, 3, 8-10, 12-13");
  });
});

describe("the layout rules cut by the deadline", () => {
  it("FLAGs deadline the equation and figure labels, and keeps no anchors as decided", async () => {
    const cacheDir = join(tmp.dir, "layout-cache");
    const pdf = fixture("eq-layouts");
    // The pages and their geometry in the cache, the anchors not yet decided.
    await openForAnchors(pdf, { cacheDir });
    const records = [
      { id: "eq", kind: "equation" as const, label: "1" },
      { id: "fig", kind: "figure" as const, label: "1" },
    ];
    const cut = await verifyPdf(pdf, records, { cacheDir, deadline: new Deadline(0) });
    expect(cut.results.map((r) => [r.id, r.verdict, r.reason])).toEqual([
      ["eq", "FLAG", "deadline"],
      ["fig", "FLAG", "deadline"],
    ]);
    expect(cut.results[0].message).toBe(
      "not decided before the deadline (0 ms): the layout rules did not finish; try timeout_ms 60000",
    );
    expect(cut.results[0].evidence).toMatchObject({ label: "1", deadline: { step: "the layout rules" } });
    // The library's verifyEvidence on a document already opened, the same.
    const doc = await openForAnchors(pdf, { cacheDir });
    const library = await verifyEvidence(doc, records, { deadline: new Deadline(0) });
    expect(library.results.map((r) => r.reason)).toEqual(["deadline", "deadline"]);
    // check-text's equation and figure citations too; its quotations are decided as ever.
    const text = await checkText(
      checkContext(doc, { deadline: new Deadline(0) }),
      "As Eq. (1) shows, and Fig. (1) too.",
      undefined,
      undefined,
      0,
    );
    expect(text.citations.map((c) => [c.anchor, c.verdict, c.reason])).toEqual([
      ["Eq. (1)", "FLAG", "deadline"],
      ["Fig. (1)", "FLAG", "deadline"],
    ]);
    // With time enough the label is decided: nothing undecided was kept.
    const full = await verifyPdf(pdf, records, { cacheDir });
    expect(full.results[0].reason).not.toBe("deadline");
    expect(full.results[1].reason).not.toBe("deadline");
  });
});
