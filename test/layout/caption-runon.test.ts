import { describe, expect, it } from "vitest";
import { checkFigure } from "../../src/checks/figure.js";
import { anchorsOf } from "./support.js";

describe("running text that opens a line with Figure N.", () => {
  it("refuses a line whose paragraph runs on at the body's leading into the next paragraph", async () => {
    const r = await anchorsOf("caption-runon");
    for (const label of ["47", "48", "49"]) {
      expect(r.rejectedCaptions.find((c) => c.label === label)?.reasons).toEqual(["runs-into-paragraph"]);
      expect(checkFigure(r, { label }).verdict).toBe("FAIL");
    }
  });

  it("keeps hanging captions over several lines and a one-line caption", async () => {
    const r = await anchorsOf("caption-runon");
    expect(r.figures.map((f) => f.label)).toEqual(["1", "2", "3"]);
    for (const f of r.figures) expect(f.figureBox).toBeDefined();
  });
});
