/**
 * Every reason code listed in the source is produced by at least one test (an expectCode call
 * naming it) and can be produced by the code (it appears as a literal outside the list itself).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REASON_CODES } from "../../src/evidence/reasons.js";
import { REPO } from "./helpers.js";

function codesFromSource(): string[] {
  const source = readFileSync(join(REPO, "src", "evidence", "reasons.ts"), "utf8");
  const list = /export const REASON_CODES = \[([\s\S]*?)\] as const;/.exec(source);
  if (!list) throw new Error("REASON_CODES list not found in src/evidence/reasons.ts");
  return [...list[1].matchAll(/"([A-Z_]+)"/g)].map((m) => m[1]);
}

describe("reason code coverage", () => {
  const listed = codesFromSource();

  it("reads the same closed list the module exports", () => {
    expect(listed).toEqual([...REASON_CODES]);
    expect(listed).toHaveLength(14);
  });

  it("every code is produced by at least one test", () => {
    const dir = join(REPO, "test", "evidence");
    const tests = readdirSync(dir)
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("\n");
    const tested = new Set([...tests.matchAll(/expectCode\([^,]+,\s*"([A-Z_]+)"/g)].map((m) => m[1]));
    const untested = listed.filter((code) => !tested.has(code));
    expect(untested, `reason codes no test produces: ${untested.join(", ")}`).toEqual([]);
  });

  it("every code is emitted somewhere in the evidence code", () => {
    const dir = join(REPO, "src", "evidence");
    const code = readdirSync(dir)
      .filter((f) => f.endsWith(".ts") && f !== "reasons.ts")
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("\n");
    const silent = listed.filter((c) => !code.includes(`"${c}"`));
    expect(silent, `reason codes nothing emits: ${silent.join(", ")}`).toEqual([]);
  });
});
