import { describe, expect, it } from "vitest";
import { FlowBuilder, splitHeadingNumber } from "../../../src/document/flow/builder.js";
import { CodePointIndex } from "../../../src/util/codepoints.js";

describe("flow builder", () => {
  it("offsets count code points, astral characters as one", () => {
    const b = new FlowBuilder("markdown", "0".repeat(64));
    b.heading(1, "1 Intro 𝛼");
    const p = b.block("paragraph", "  the 𝛼 and   𝛽\nrule ");
    const doc = b.finish();
    const index = new CodePointIndex(doc.text);
    expect(index.length).toBe(doc.lengthCp);
    const block = doc.blocks[p];
    expect(index.slice(block.startCp, block.endCp)).toBe("the 𝛼 and 𝛽 rule");
    expect(index.slice(doc.headings[0].startCp, doc.headings[0].endCp)).toBe("1 Intro 𝛼");
    expect(block.startCp).toBe(doc.headings[0].endCp + 2);
  });

  it("heading tree: a heading's parent is the nearest heading above of a lower level", () => {
    const b = new FlowBuilder("html", "0".repeat(64));
    const h1 = b.heading(1, "2 Methods");
    const h2 = b.heading(2, "2.1 Data");
    const p = b.block("paragraph", "words");
    const h3 = b.heading(2, "2.2 Models");
    const h4 = b.heading(1, "3 Results");
    const doc = b.finish();
    expect(doc.headings.map((h) => h.parent)).toEqual([-1, h1, h1, -1]);
    expect(doc.blocks[p].heading).toBe(h2);
    expect([doc.headings[h3].number, doc.headings[h4].title]).toEqual(["2.2", "Results"]);
  });

  it("empty blocks are dropped; a note may name the heading it stands under", () => {
    const b = new FlowBuilder("docx", "0".repeat(64));
    const h = b.heading(1, "Intro");
    b.heading(1, "Other");
    expect(b.block("paragraph", " \u00a0\n ")).toBe(-1);
    const note = b.block("note", "A note.", { region: "footnote", heading: h });
    const doc = b.finish();
    expect(doc.blocks[note]).toMatchObject({ region: "footnote", heading: h });
  });

  it("page labels start where the next block does", () => {
    const b = new FlowBuilder("epub", "0".repeat(64));
    b.pageLabel("iv");
    b.block("paragraph", "First page.");
    b.pageLabel("v");
    const second = b.block("paragraph", "Second.");
    const doc = b.finish();
    expect(doc.pageLabels).toEqual([
      { label: "iv", startCp: 0 },
      { label: "v", startCp: doc.blocks[second].startCp },
    ]);
  });

  it("printed heading numbers", () => {
    expect(splitHeadingNumber("2.1 Data sources")).toEqual({ number: "2.1", title: "Data sources" });
    expect(splitHeadingNumber("2.1. Data")).toEqual({ number: "2.1", title: "Data" });
    expect(splitHeadingNumber("IV. Results")).toEqual({ number: "IV", title: "Results" });
    expect(splitHeadingNumber("Appendix B Proofs")).toEqual({ number: "B", title: "Proofs" });
    expect(splitHeadingNumber("A Study of Things")).toEqual({ title: "A Study of Things" });
    expect(splitHeadingNumber("Methods")).toEqual({ title: "Methods" });
    expect(splitHeadingNumber("I am here")).toEqual({ title: "I am here" });
  });
});
