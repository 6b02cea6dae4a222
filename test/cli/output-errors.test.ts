// When standard output cannot be written: a reader that went away is not an error (the command ends
// quietly with its own exit code); a full disk is OUTPUT_UNWRITABLE, exit 2, never a stack trace. And
// what an error names goes onto stderr as one visible line.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
const evidence = join(tmp.dir, "evidence.json");
writeFileSync(evidence, JSON.stringify([{ kind: "page", page: 1 }]));
const args = [
  cliPath,
  "verify",
  fixture("paper"),
  "--evidence",
  evidence,
  "--json",
  "--no-cache",
  "--serve",
  "never",
];

describe("standard output that cannot be written", () => {
  it.skipIf(!existsSync("/dev/full"))(
    "a full disk: OUTPUT_UNWRITABLE on stderr, exit 2, no stack trace",
    () => {
      const full = openSync("/dev/full", "w");
      const run = spawnSync(process.execPath, args, { stdio: ["ignore", full, "pipe"], encoding: "utf8" });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        /^citeproof: error \[OUTPUT_UNWRITABLE\]: cannot write to standard output \(ENOSPC\)/,
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it("a reader that closed the pipe: nothing on stderr, the command's own exit code", async () => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    // Closed before the command can have written anything: its first write meets EPIPE.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const status = await new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    expect(stderr).toBe("");
    expect(status).toBe(0);
  });
});

describe("names in error messages", () => {
  it("a newline, CR or ESC in a file name is written escaped: one line, no control sequence", () => {
    const name = join(tmp.dir, "evil\nname\r\u001b[31m.pdf");
    const run = spawnSync(
      process.execPath,
      [cliPath, "verify", name, "--evidence", evidence, "--serve", "never"],
      {
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `citeproof: error [FILE_NOT_FOUND]: ${tmp.dir}/evil\\nname\\r\\u001b[31m.pdf does not exist\n`,
    );
  });
});
