// Where a match stands (fixtures/src/regions.tex): the same words in the body and in a running
// head, a footnote, a caption, a table, a sideways margin stamp and the references list. A region
// never changes a verdict; the message says when every match is in the references, a caption or a
// running head, and check-text's summary lists such quotations.
import { beforeAll, describe, expect, it } from "vitest";
import { checkText, formatTextCheckReport } from "../../src/checks/check-text.js";
import { formatLocateReport, locateWords } from "../../src/checks/locate.js";
import { type CheckContext, checkContext, checkRecord } from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";
import { DocumentRegions, REGION_MEANINGS, REGIONS } from "../../src/text/page-regions.js";
import { fixture } from "../helpers/fixture-files.js";

let context: CheckContext;
beforeAll(async () => {
  context = checkContext(await openDocument(fixture("regions"), { noCache: true }));
});

const quote = (page: number, text: string) => checkRecord(context, { kind: "quotation", page, text });
const regionsOf = (r: ReturnType<typeof quote>) =>
  (r.evidence.matches as { region: string }[]).map((m) => m.region);

describe("the region of each line", () => {
  it("finds every region on the generated pages", () => {
    const regions = new DocumentRegions(context.pages.pages);
    const seen = new Set([1, 2, 3].flatMap((p) => regions.pageRegions(p)));
    expect([...seen].sort()).toEqual([...REGIONS].sort());
    for (const r of REGIONS) expect(REGION_MEANINGS[r].length).toBeGreaterThan(10);
  });
});

describe("regions of matches", () => {
  it("marks a match in the body as body, with an unchanged message", () => {
    const r = quote(1, "Each survey wave draws a fresh sample of households");
    expect(r).toMatchObject({ verdict: "PASS", message: "found on page 1" });
    expect(new Set(regionsOf(r))).toEqual(new Set(["body"]));
  });

  it("says when the only match is in the running head", () => {
    const r = quote(2, "Calibrated weights for regional surveys");
    expect(r).toMatchObject({ verdict: "PASS", reason: "found" });
    expect(regionsOf(r)).toEqual(["running-head"]);
    expect(r.message).toBe("found on page 2, but only in a running head or foot");
    // On page 1 the title says it in the body too: nothing to say.
    const title = quote(1, "Calibrated weights for regional surveys");
    expect(regionsOf(title)).toContain("running-head");
    expect(regionsOf(title)).toContain("body");
    expect(title.message).toBe("found on page 1");
  });

  it("says when the only match is in a caption or the references list", () => {
    const caption = quote(1, "the raw estimates drawn as dashed lines");
    expect(regionsOf(caption)).toEqual(["caption"]);
    expect(caption.message).toBe("found on page 1, but only in a caption");
    const reference = quote(3, "Raking ratio estimation for regional panels");
    expect(reference).toMatchObject({ verdict: "PASS" });
    expect(regionsOf(reference)).toEqual(["references"]);
    expect(reference.message).toBe("found on page 3, but only in the references list");
    // The same words in the body and in a reference: both are marked, nothing is said.
    const both = quote(3, "the sample reproduces the known totals of the region");
    expect(new Set(regionsOf(both))).toEqual(new Set(["body", "references"]));
    expect(both.message).toBe("found on page 3");
  });

  it("marks footnotes, tables and the margin without a word in the message", () => {
    const footnote = quote(1, "the bounds were chosen by hand");
    expect(regionsOf(footnote)).toEqual(["footnote"]);
    expect(footnote.message).toBe("found on page 1");
    expect(regionsOf(quote(1, "North 12.4 13.1 13.9"))).toEqual(["table"]);
    expect(regionsOf(quote(1, "sampling weights in regional surveys"))).toEqual(["margin"]);
  });

  it("lists in check-text's summary the quotations found only in the references or a running head", async () => {
    const report = await checkText(
      context,
      [
        'On p. 3 they cite "Raking ratio estimation for regional panels".',
        'The title on p. 2 reads "Calibrated weights for regional surveys".',
        'On p. 3 we read "the sample reproduces the known totals of the region".',
        'Also p. 3 has "Survey Methodology, 40:33-51, 2014".',
      ].join("\n"),
    );
    expect(report.citations.map((c) => c.verdict)).toEqual(["PASS", "PASS", "PASS", "PASS"]);
    expect(report.found_only_in).toEqual([
      { regions: ["references"], quotations: 2, lines: [1, 4] },
      { regions: ["running-head"], quotations: 1, lines: [2] },
    ]);
    const text = formatTextCheckReport(report, "header");
    expect(text).toContain("  2 quotations found only in the references list (lines 1, 4)\n");
    expect(text).toContain("  1 quotation found only in a running head or foot (line 2)\n");
  });
});

describe("locate names the region of each occurrence", () => {
  it("body, references and running head, and the listing says where when it is not the body", () => {
    const both = locateWords(context, "the sample reproduces the known totals of the region");
    expect(new Set(both.occurrences.flatMap((o) => o.parts.map((p) => p.region)))).toEqual(
      new Set(["body", "references"]),
    );
    const head = locateWords(context, "Calibrated weights for regional surveys");
    const onPage2 = head.occurrences.find((o) => o.page === 2);
    expect(onPage2?.parts.map((p) => p.region)).toEqual(["running-head"]);
    const listing = formatLocateReport(
      locateWords(context, "Raking ratio estimation for regional panels"),
      "x",
    );
    expect(listing).toMatch(/page 3.* in the references /);
  });
});
