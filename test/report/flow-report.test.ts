// `report` on a flow source: each result shows the passage of the source's own text with its heading
// chain and the evidence's words marked (no crop, no image folder content), everything from the source
// escaped; the verify document it returns is verify's own.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DomUtils, parseDocument } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlowVerifyReport } from "../../src/checks/flow-verify.js";
import type { OperationContext } from "../../src/operations/operation.js";
import { reportOperation } from "../../src/operations/report.js";
import { verifyOperation } from "../../src/operations/verify.js";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { CORPUS_EVIDENCE, CORPUS_QUOTE } from "../helpers/flow-source.js";

const CORPUS = join(repoRoot, "test", "fixtures", "flow", "corpus.md");
let work: ReturnType<typeof tempDir>;
let ctx: OperationContext;
beforeAll(() => {
  work = tempDir("citeproof-flow-report-");
  ctx = { cwd: work.dir, access: "anywhere", open: { cacheDir: join(work.dir, "cache") } };
});
afterAll(() => work.remove());

const EVIDENCE = [
  ...CORPUS_EVIDENCE,
  { id: "moved", kind: "quotation" as const, text: CORPUS_QUOTE, section: "Methods" },
];

/** The section of a result by its record id. */
function sectionOf(html: string, id: string) {
  const dom = parseDocument(html);
  const sections = DomUtils.findAll((e) => e.name === "section", dom.children);
  const found = sections.find((s) => DomUtils.textContent(s).includes(`[${id}]`));
  if (!found) throw new Error(`no section for ${id}`);
  return found;
}

describe("report on a flow source", () => {
  it("shows each result's passage with its heading chain and the words marked", async () => {
    const out = join(work.dir, "report.html");
    const result = await reportOperation.run(
      { source: CORPUS, evidence: EVIDENCE, out, inline_images: true },
      ctx,
    );
    const verified = (await verifyOperation.run(
      { source: CORPUS, evidence: EVIDENCE },
      ctx,
    )) as FlowVerifyReport;
    expect(result.document).toEqual(verified.document);
    expect(result.results).toEqual(verified.results);
    expect(result.results.map((r) => r.verdict)).toEqual(["PASS", "FAIL", "FAIL"]);
    const html = readFileSync(out, "utf8");
    expect(html).not.toContain("<img");
    expect(html).toContain("Markdown, ");

    const pass = sectionOf(html, "ok");
    const mark = DomUtils.findOne((e) => e.name === "mark", [pass]);
    expect(mark?.attribs.class).toBe("mark-match");
    expect(DomUtils.textContent(mark ?? [])).toBe("hold a large share of the world’s farmland");
    expect(DomUtils.textContent(pass)).toContain("1 Introduction · paragraph");
    // The words around the mark are the paragraph's own.
    expect(DomUtils.textContent(pass)).toContain("River deltas hold a large share");

    const moved = sectionOf(html, "moved");
    const elsewhere = DomUtils.findOne((e) => e.name === "mark", [moved]);
    expect(elsewhere?.attribs.class).toBe("mark-elsewhere");
    expect(moved.attribs["data-reason"]).toBe("wrong-section");

    const changed = sectionOf(html, "changed");
    const closest = DomUtils.findOne((e) => e.name === "mark", [changed]);
    expect(closest?.attribs.class).toBe("mark-closest");
    expect(changed.attribs["data-reason"]).toBe("absent");
  });

  it("escapes the source's text: markup in a page's words is shown, never run", async () => {
    const page = join(work.dir, "page.html");
    writeFileSync(
      page,
      "<!doctype html><html><body><h1>Results</h1><p>The tag &lt;script&gt;alert(1)&lt;/script&gt; was found in twelve of the forty pages we read.</p></body></html>",
    );
    const out = join(work.dir, "page-report.html");
    const quote = "was found in twelve of the forty pages";
    const result = await reportOperation.run(
      {
        source: page,
        evidence: [{ id: "x", kind: "quotation", text: quote, section: "Results" }],
        out,
        inline_images: true,
      },
      ctx,
    );
    expect(result.results[0]?.verdict).toBe("PASS");
    const html = readFileSync(out, "utf8");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    const mark = DomUtils.findOne((e) => e.name === "mark", [sectionOf(html, "x")]);
    expect(DomUtils.textContent(mark ?? [])).toBe(quote);
  });

  it("refuses a page locator on a flow source before writing anything", async () => {
    const out = join(work.dir, "refused.html");
    await expect(
      reportOperation.run({ source: CORPUS, evidence: [{ kind: "page", page: 1 }], out }, ctx),
    ).rejects.toMatchObject({ code: "EVIDENCE_INVALID" });
  });
});
