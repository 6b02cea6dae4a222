/**
 * Every file a tool reads from its arguments goes through the one descriptor route (`inputPdf`,
 * `readAdmittedPdf`, `readAdmittedFile`), which checks the file actually opened. `inputPath` resolves a
 * path and leaves it to be opened later, so a folder swapped in between redirects the read: it is kept
 * for folders the operations own (runs, library roots) and for what a person typed on the command line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const FOLDER_FIELDS = new Set(["run_dir", "library_root"]);
/** `source local`: a CLI command whose file is checked on its descriptor against the run's library root. */
const DESCRIPTOR_CHECKED_ELSEWHERE = new Set(["src/operations/source.ts:file"]);

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
}

function pathTakings(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/inputPath\(\s*ctx\s*,\s*([^)]*)\)/g)].map((m) => m[1] ?? "");
}

describe("the one descriptor route", () => {
  it("no operation or interface opens a file from its arguments by a resolved path", () => {
    const offenders: string[] = [];
    for (const file of [...sources("src/operations"), ...sources("src/pi"), ...sources("src/mcp")]) {
      // paths.ts is the route itself: inputPdf takes inputPath only where any path may be read.
      if (file === join("src", "operations", "paths.ts")) continue;
      for (const arg of pathTakings(file)) {
        const field = /^input\.(\w+)$/.exec(arg.trim())?.[1];
        if (field !== undefined && FOLDER_FIELDS.has(field)) continue;
        if (field !== undefined && DESCRIPTOR_CHECKED_ELSEWHERE.has(`${file}:${field}`)) continue;
        // pi's command reads what a person typed; it passes through inputPath only when any path may be read.
        if (
          file === join("src", "pi", "command.ts") &&
          /access === "anywhere"/.test(readFileSync(file, "utf8"))
        )
          continue;
        offenders.push(`${file}: inputPath(ctx, ${arg})`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("finds the way locate took its path before it read through the descriptor", () => {
    expect(pathTakings.call(null, "src/operations/locate.ts")).toEqual([]);
    const before = "return locatePdf(inputPath(ctx, input.pdf), text, { ...ctx.open });";
    expect([...before.matchAll(/inputPath\(\s*ctx\s*,\s*([^)]*)\)/g)].map((m) => m[1])).toEqual([
      "input.pdf",
    ]);
  });
});
