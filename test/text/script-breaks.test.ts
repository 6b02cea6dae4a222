import { describe, expect, it } from "vitest";
import { checkContext, checkRecord } from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";
import { fold } from "../../src/text/fold.js";
import { fixture } from "../helpers/fixture-files.js";

describe("raised marks glued to words", () => {
  it("are found by the engine where a footnote mark meets the text", async () => {
    const doc = await openDocument(fixture("twocolumn"), { noCache: true });
    const page = doc.pages[0]!;
    const glued = (page.scriptBreaksUtf16 ?? []).map((at) => page.text.slice(at - 1, at + 9));
    expect(glued).toContain("1Running h");
    expect(glued).toContain(".1 Earlier");
  });

  it("let a quotation start at a footnote's first word, and nothing more", async () => {
    const doc = await openDocument(fixture("twocolumn"), { noCache: true });
    const context = checkContext(doc);
    const pass = checkRecord(context, {
      kind: "quotation",
      page: 1,
      text: "Running heads, footnotes and captions are set apart",
    });
    expect(pass.verdict).toBe("PASS");
    const glued = checkRecord(context, {
      kind: "quotation",
      page: 1,
      text: "1Running heads, footnotes and captions",
    });
    expect(glued.verdict).toBe("PASS");
    const cut = checkRecord(context, {
      kind: "quotation",
      page: 1,
      text: "unning heads, footnotes and captions",
    });
    expect(cut.verdict).toBe("FAIL");
  });

  it("read as an empty-width space in the folded text", () => {
    const folded = fold("see note.1Earlier work", { breaksUtf16: [9] });
    expect(folded.text).toBe("see note. 1earlier work");
    expect(folded.startUtf16[9]).toBe(9);
    expect(folded.endUtf16[9]).toBe(9);
  });
});
