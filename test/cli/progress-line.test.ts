/**
 * A long single command shows, on a terminal only, a progress line after a second (pages read, time),
 * cleared before the result is printed; nothing when stderr is not a terminal or with --quiet.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ProgressLine, progressLineFor } from "../../src/cli/progress-line.js";
import { fixture, repoRoot } from "../helpers/fixture-files.js";

function terminal() {
  const chunks: string[] = [];
  return { stream: { isTTY: true, write: (c: string) => chunks.push(c) }, chunks };
}

describe("the progress line", () => {
  it("says nothing in the first second, then the pages read and the time, and clears itself", () => {
    let now = 0;
    const { stream, chunks } = terminal();
    const line = new ProgressLine(stream, "verify", () => now);
    line.pages({ pages: 1, of: 418 });
    expect(chunks).toEqual([]);
    now = 1500;
    line.pages({ pages: 1 });
    expect(chunks).toEqual(["\r\x1b[Kciteproof verify: 2 of 418 pages read, 1 s"]);
    // Pages arriving within a tenth of a second are counted, not each drawn.
    now = 1550;
    line.pages({ pages: 1 });
    expect(chunks).toHaveLength(1);
    now = 2700;
    line.pages({ pages: 1 });
    expect(chunks.at(-1)).toBe("\r\x1b[Kciteproof verify: 4 of 418 pages read, 2 s");
    line.end();
    expect(chunks.at(-1)).toBe("\r\x1b[K");
    line.pages({ pages: 1 });
    expect(chunks).toHaveLength(3);
  });

  it("is made only for a terminal, and not with --quiet", () => {
    expect(progressLineFor({ write: () => true }, "verify", false)).toBeUndefined();
    expect(progressLineFor({ isTTY: false, write: () => true }, "verify", false)).toBeUndefined();
    expect(progressLineFor(terminal().stream, "verify", true)).toBeUndefined();
    const line = progressLineFor(terminal().stream, "verify", false);
    expect(line).toBeInstanceOf(ProgressLine);
    line?.end();
  });

  it("leaves stderr clean for a command whose stderr is no terminal, and stdout always", async () => {
    const built = (path: string) => import(pathToFileURL(join(repoRoot, "dist", path)).href);
    const { runProgram } = (await built("cli/program.js")) as typeof import("../../src/cli/program.js");
    const { collectingIo } = (await built("cli/cli-io.js")) as typeof import("../../src/cli/cli-io.js");
    const run = collectingIo(repoRoot);
    const status = await runProgram(
      [process.execPath, "citeproof", "anchors", fixture("paper"), "--no-cache", "--json"],
      run.io,
    );
    expect(status).toBe(0);
    expect(run.stderr()).toBe("");
    expect(JSON.parse(run.stdout()).pageCount).toBeGreaterThan(0);
  });
});
