// The public types are pinned: the API report written from the build's declarations (scripts/api-report.mjs)
// is the one committed in etc/citeproof.api.md, and a change to an exported type changes the report.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script, without declarations
import { apiReport, REPORT } from "../../scripts/api-report.mjs";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir("citeproof-api-");
afterAll(() => tmp.remove());

describe("the API report", () => {
  const built: string = apiReport();

  it("is the committed one (write it again with node scripts/api-report.mjs when the change is meant)", () => {
    expect(built).toBe(readFileSync(REPORT, "utf8"));
  });

  it("changes when an exported type changes, and names the types the exports reach", () => {
    expect(built).toContain("export interface VerifyReport");
    expect(built).toContain("// ---- reached from the exports, not exported by name ----");
    const copy = join(tmp.dir, "dist");
    cpSync(join(repoRoot, "dist"), copy, { recursive: true, filter: (f) => !/\.js$|\.cjs$/.test(f) });
    const file = join(copy, "checks", "verify.d.ts");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        "results: CheckResult[];",
        "results: CheckResult[];\n    extra?: string;",
      ),
    );
    const changed: string = apiReport(copy);
    expect(changed).not.toBe(built);
    expect(changed).toContain("extra?: string;");
  });
});
