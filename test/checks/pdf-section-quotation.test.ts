import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without types
import { buildSectionPdf, hasEngine, SECTION_PARAGRAPHS } from "../../scripts/fixtures/section-pdf.mjs";
import { checkText } from "../../src/checks/check-text.js";
import { type CheckContext, checkContext, checkRecord } from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";
import { runCliInProcess } from "../helpers/run-cli.js";

type Key = string;
const truth = SECTION_PARAGRAPHS as Record<string, { chain: string; words: string }>;

describe.skipIf(!hasEngine("pdflatex"))("a PDF quotation named by section", () => {
  const work = mkdtempSync(join(tmpdir(), "citeproof-sections-"));
  let withHeadings: CheckContext;
  let without: CheckContext;
  let skipping: CheckContext;
  beforeAll(async () => {
    writeFileSync(join(work, "sections.pdf"), buildSectionPdf());
    writeFileSync(join(work, "plain.pdf"), buildSectionPdf({ headings: false }));
    writeFileSync(join(work, "unprinted.pdf"), buildSectionPdf({ unprinted: "Results" }));
    withHeadings = checkContext(await openDocument(join(work, "sections.pdf"), { noCache: true }));
    without = checkContext(await openDocument(join(work, "plain.pdf"), { noCache: true }));
    skipping = checkContext(await openDocument(join(work, "unprinted.pdf"), { noCache: true }));
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const check = (context: CheckContext, key: Key, section: string, page?: number) =>
    checkRecord(context, {
      kind: "quotation",
      section,
      text: truth[key]?.words ?? key,
      ...(page !== undefined ? { page } : {}),
    });

  it("passes every paragraph under its own heading, by number, words or both, and under its parents", async () => {
    for (const [key, { chain }] of Object.entries(truth)) {
      const own = chain.split(" > ").at(-1)!;
      const names = [own, ...(/^\d/.test(own) ? [own.split(" ")[0], own.replace(/^\S+ /, "")] : [])];
      for (const name of [...names, ...chain.split(" > ").slice(0, -1)]) {
        const r = check(withHeadings, key, name);
        expect([key, name, r.verdict, r.reason]).toEqual([key, name, "PASS", "found"]);
      }
      expect(check(withHeadings, key, `§ ${own}`).verdict).toBe("PASS");
    }
  });

  it("fails the words under another heading as wrong-section, naming the chain they stand under", async () => {
    for (const [key, { chain }] of Object.entries(truth)) {
      const other = chain.startsWith("3 Results") ? "Introduction" : "Results";
      const r = check(withHeadings, key, other);
      expect([r.verdict, r.reason]).toEqual(["FAIL", "wrong-section"]);
      expect(r.message).toContain(`"${chain}"`);
    }
    expect(check(withHeadings, "dataNextPage", "2.2").reason).toBe("wrong-section");
  });

  it("with a page too, both must hold", async () => {
    const onPage = check(withHeadings, "results", "3");
    expect(onPage.verdict).toBe("PASS");
    const page = (onPage.evidence.matches as { page: number }[])[0]!.page;
    expect(check(withHeadings, "results", "Results", page).verdict).toBe("PASS");
    expect(check(withHeadings, "results", "Methods", page).reason).toBe("wrong-section");
    expect(check(withHeadings, "results", "Results", page === 1 ? 2 : 1).verdict).toBe("FAIL");
  });

  it("an unknown section is no-such-section; altered words FAIL", async () => {
    const r = check(withHeadings, "results", "Conclusions");
    expect([r.verdict, r.reason]).toEqual(["FAIL", "no-such-section"]);
    expect(r.evidence.headings).toContain("2 Methods > 2.1 Data sources");
    const altered = check(withHeadings, truth.results!.words.replace("Forty", "Fifty"), "Results");
    expect([altered.verdict, altered.reason]).toEqual(["FAIL", "absent"]);
  });

  it("on a PDF whose layout shows no heading, a section locator is FLAG headings-unreadable, never PASS", async () => {
    const r = check(without, "results", "Results");
    expect([r.verdict, r.reason]).toEqual(["FLAG", "headings-unreadable"]);
  });

  it("where heading numbers skip one (3 unread), the section before the gap is FLAG, never PASS", async () => {
    for (const section of ["2.2", "Methods"]) {
      const r = check(skipping, "results", section);
      expect([section, r.verdict, r.reason]).toEqual([section, "FLAG", "headings-unreadable"]);
    }
    expect(check(skipping, "analysis", "2.2").verdict).toBe("FLAG");
    expect(check(skipping, "intro", "1").verdict).toBe("PASS");
    expect(check(skipping, "discussion", "Discussion").verdict).toBe("PASS");
  });

  it("check-text reads `§ 2.1` and `Section 3` in a quotation's sentence on a PDF", async () => {
    const draft = [
      `As § 2.1 puts it, "${truth.dataNextPage!.words}"`,
      `The count is plain: "${truth.results!.words}" (Section 2.2).`,
      `Under section "Results" we read "${truth.results!.words}"`,
    ].join("\n");
    const report = await checkText(withHeadings, draft);
    expect(report.citations.map((c) => [c.anchor, c.verdict, c.reason])).toEqual([
      ["§ 2.1", "PASS", "found"],
      ["§ 2.2", "FAIL", "wrong-section"],
      ["§ Results", "PASS", "found"],
    ]);
  });

  it("verify --evidence takes section records on a PDF", async () => {
    const evidence = join(work, "evidence.json");
    writeFileSync(
      evidence,
      JSON.stringify([
        { id: "a", kind: "quotation", section: "2.1 Data sources", text: truth.dataNextPage!.words },
        { id: "b", kind: "quotation", section: "Introduction", text: truth.thanks!.words },
      ]),
    );
    const run = await runCliInProcess(
      ["verify", join(work, "sections.pdf"), "--evidence", evidence, "--json"],
      {
        env: { CITEPROOF_CACHE_DIR: join(work, "cache") },
      },
    );
    const results = (run.json as { results: { verdict: string; reason: string; message: string }[] }).results;
    expect(results.map((r) => [r.verdict, r.reason])).toEqual([
      ["PASS", "found"],
      ["FAIL", "wrong-section"],
    ]);
    expect(results[1]!.message).toContain('"Acknowledgements"');
    expect(run.status).toBe(1);
  });
});
