// Operations the CLI alone runs declare the document they return too (`op.output`), and what they return
// conforms to it: `report` (the verify document with the report written) and `run new`. `run report` is
// checked where its run is built (test/evidence/run-report.test.ts).

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reportOperation } from "../../src/operations/report.js";
import { runNewOperation } from "../../src/operations/run.js";
import { runOperation } from "../../src/operations/run-operation.js";
import { tempDir } from "../helpers/fixture-files.js";

const root = resolve(import.meta.dirname, "../..");
const tmp = tempDir("citeproof-outputs-");
afterAll(() => tmp.remove());
const ctx = { cwd: tmp.dir, access: "anywhere" as const, open: { noCache: true } };

describe("outputs of the CLI's own operations", () => {
  it("report returns the verify document with the report written, as declared", async () => {
    const evidence = JSON.parse(readFileSync(join(root, "examples/evidence.json"), "utf8"));
    const args = {
      pdf: join(root, "examples/paper.pdf"),
      evidence,
      out: join(tmp.dir, "report.html"),
      dpi: 30,
    };
    const { json } = await runOperation(reportOperation, args, ctx);
    const schema = await reportOperation.output!();
    expect(schema.safeParse(JSON.parse(JSON.stringify(json))).error).toBeUndefined();
    expect(schema.safeParse({ ...(json as object), report: { path: 3 } }).success).toBe(false);
  });

  it("run new returns the run created, as declared", async () => {
    const { json } = await runOperation(runNewOperation, { run_dir: join(tmp.dir, "run") }, ctx);
    const schema = await runNewOperation.output!();
    expect(schema.safeParse(json).error).toBeUndefined();
    expect(schema.safeParse({ ...(json as object), extra: 1 }).success).toBe(false);
  });
});
