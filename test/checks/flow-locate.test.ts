import { describe, expect, it } from "vitest";
import { locateInFlow } from "../../src/checks/flow-locate.js";
import { readFlow } from "../helpers/flow-source.js";

describe("locate on a flow source", () => {
  it("every occurrence with the section to cite; an elided phrase as its parts", async () => {
    const doc = await readFlow(
      "markdown",
      "# 1 Intro\n\nThe tide rose at dawn.\n\n## 1.1 Later\n\nAgain the tide rose, and the boats left at noon.\n",
    );
    const plain = locateInFlow(doc, "the tide rose");
    expect(plain.count).toBe(2);
    expect(plain.occurrences.map((o) => o.section)).toEqual(["1 Intro", "1 Intro > 1.1 Later"]);
    const elided = locateInFlow(doc, "the tide rose … left at noon");
    expect(elided.count).toBe(1);
    expect(elided.occurrences[0].parts.map((p) => p.text)).toEqual(["the tide rose", "left at noon"]);
    expect(locateInFlow(doc, "the tide fell").count).toBe(0);
  });
});
