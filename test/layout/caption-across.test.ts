import { describe, expect, it } from "vitest";
import { checkFigure } from "../../src/checks/figure.js";
import { anchorsOf } from "./support.js";

describe("a paragraph opening with a reference next to another caption's figure", () => {
  it("does not take the plot under the next caption as the sentence's figure", async () => {
    const r = await anchorsOf("caption-across");
    expect(r.figures.map((f) => f.label)).toEqual(["1", "2", "3"]);
    expect(r.rejectedCaptions.find((c) => c.label === "8")?.reasons).toEqual(["label-like-body-text"]);
    expect(checkFigure(r, { label: "8" }).verdict).toBe("FAIL");
  });

  it("refuses a paragraph's first line indented under the short last line of the one before", async () => {
    const r = await anchorsOf("caption-across");
    expect(r.rejectedCaptions.find((c) => c.label === "7")?.reasons).toEqual(["inside-paragraph"]);
    expect(checkFigure(r, { label: "7" }).verdict).toBe("FAIL");
  });
});
