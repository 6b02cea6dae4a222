// A quotation cited on a page whose words are an image (fixtures/src/scan-layers.tex, page 1: a
// scan whose only text is an archive stamp) is a FLAG no-text-layer: it enters the pool as every
// FLAG does, and the drafting material offers it as a bare pointer, never its words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../helpers/fixture-files.js";
import { type SessionBench, sessionBench } from "./helpers.js";

const WORDS = "The learner receives examples whose labels were flipped";
let bench: SessionBench;
beforeAll(async () => {
  bench = sessionBench();
  expect((await bench.session("new", [fixture("scan-layers")])).status).toBe(0);
});
afterAll(() => bench.remove());

describe("a quotation on a scanned page in a session", () => {
  it("enters the pool as a FLAG and is offered as a bare pointer", async () => {
    const evidence = bench.file("evidence.json", [{ kind: "quotation", page: 1, text: WORDS }]);
    const run = await bench.session("verify", ["--evidence", evidence, "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const results = (
      run.json as { results: { verdict: string; reason: string; pool: { entered: boolean } }[] }
    ).results;
    expect(results.map((r) => [r.verdict, r.reason, r.pool.entered])).toEqual([
      ["FLAG", "no-text-layer", true],
    ]);
    const material = ((await bench.session("draft-input", ["--json"])).json as { material: string }).material;
    expect(material).toContain("  p. 1 -- wording unchecked");
    expect(material).not.toContain(WORDS);
  });
});
