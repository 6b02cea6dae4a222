// verify and locate on flow sources through the CLI: the kind told by content, the parsed document
// cached by sha256, the pdf alias held to PDFs.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FLOW_READER_VERSION } from "../../src/document/flow/model.js";
import { listFiles, tempDir } from "../helpers/fixture-files.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const tmp = tempDir();
afterAll(() => tmp.remove());

const PAGE = `<!doctype html><html><head><title>Deltas</title></head><body><nav>Home</nav><main>
<h1>2 Methods</h1><p>We describe the methods.</p><h2>2.1 Data</h2>
<p>Samples were <em>taken</em> from 14&nbsp;sites along the coast.</p></main></body></html>`;

function write(name: string, content: string): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, content);
  return path;
}

describe("verify and locate on a flow source", () => {
  it("an HTML page (named .txt: the kind is its content): section PASS, wrong section FAIL, cached", async () => {
    const page = write("page.txt", PAGE);
    const evidence = write(
      "ev.json",
      JSON.stringify([
        { kind: "quotation", section: "Methods", text: "Samples were taken from 14 sites" },
        { kind: "quotation", section: "2.1 Data", text: "We describe the methods" },
      ]),
    );
    const cache = join(tmp.dir, "cache");
    const args = ["verify", page, "--evidence", evidence, "--cache-dir", cache, "--json"];
    const run = await runCliInProcess(args);
    expect(run.status).toBe(1);
    const report = run.json as {
      document: { kind: string };
      results: { verdict: string; reason: string; message: string }[];
    };
    expect(report.document.kind).toBe("html");
    expect(report.results.map((r) => `${r.verdict} ${r.reason}`)).toEqual([
      "PASS found",
      "FAIL wrong-section",
    ]);
    expect(report.results[1].message).toContain('the words are under "2 Methods"');
    expect(listFiles(cache).some((f) => f.endsWith(`rec-flow-${FLOW_READER_VERSION}.bin`))).toBe(true);
    const again = await runCliInProcess(args);
    expect(again.json).toEqual(run.json);
  });

  it("locate names the section to cite and the code-point offsets", async () => {
    const md = write("notes.md", "# 1 Intro\n\nThe 𝛼 rule holds for every site.\n");
    const run = await runCliInProcess(["locate", md, "--text", "rule holds for every", "--no-cache"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('§ 1 Intro  paragraph 2  code points 15-35  "rule holds for every"');
  });
});
