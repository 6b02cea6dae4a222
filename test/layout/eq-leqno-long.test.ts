import { describe, expect, it } from "vitest";
import { accepted, anchorsOf, rejectedWith } from "./support.js";

describe("a left-side number on a line of its own above a long display", () => {
  it("opens the display below it", async () => {
    const r = await anchorsOf("eq-leqno-long");
    expect(accepted(r)).toEqual(["1", "2"]);
    const long = r.equations.find((e) => e.label === "2")!;
    expect(long.side).toBe("left");
    expect(long.equationBox.top).toBeLessThan(long.labelBox.bottom);
  });

  it("still refuses a numbered case alone on its line above running text", async () => {
    const r = await anchorsOf("eq-leqno-long");
    const trap = rejectedWith(r, "2");
    expect(trap).toHaveLength(1);
    expect(trap[0].reasons).toContain("no-math");
  });
});
