// What a first-time user meets at the command line (issue 37 item 6): the help when no command (or
// no subcommand) is given, exit 2; one-line usage errors with a did-you-mean; an unknown option
// named as such, not as a missing required one; `--serve` in the help of the commands that take it;
// an empty evidence file refused.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectNoStackTrace } from "../helpers/cli-expect.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
const env = { CITEPROOF_CACHE_DIR: join(tmp.dir, "cache"), CITEPROOF_SERVE: "never" };

describe("no command", () => {
  it("prints the help on stderr and exits 2", () => {
    const run = runCli([], { env });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^Usage: citeproof \[options\] \[command\]/);
    expect(run.stderr).toContain("verify [options] <source>");
  });

  it.each(["session", "run", "source"])("%s without a subcommand prints its help and exits 2", (group) => {
    const run = runCli([group], { env });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^Usage: citeproof ${group} \\[options\\] \\[command\\]`));
    expect(run.stderr).toContain("Commands:");
  });

  it("still prints the help on stdout and exits 0 when asked for it", () => {
    const run = runCli(["--help"], { env });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: citeproof/);
  });
});

describe("usage errors", () => {
  it("names a mistyped command on one line, with the one it is likely to be", () => {
    const run = runCli(["verfy"], { env });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("citeproof: error [USAGE]: unknown command 'verfy' (did you mean verify?)\n");
  });

  it("names a mistyped option as unknown, not the required option as missing", () => {
    const evidence = join(tmp.dir, "e.json");
    writeFileSync(evidence, "[]");
    const run = runCli(["verify", fixture("paper"), "--evidance", evidence], { env });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "citeproof: error [USAGE]: unknown option '--evidance' (did you mean --evidence?)\n",
    );
    const json = runCli(["session", "verify", "s", "--evidance", evidence, "--json"], { env });
    expect(json.json).toEqual({
      error: { code: "USAGE", message: "unknown option '--evidance' (did you mean --evidence?)" },
    });
    // A missing required option is still called that.
    const missing = runCli(["verify", fixture("paper")], { env });
    expect(missing.stderr).toBe(
      "citeproof: error [USAGE]: required option '--evidence <file>' not specified\n",
    );
  });

  it("refuses a --timeout-ms no timer can hold, rather than cutting every extraction at once", () => {
    const evidence = join(tmp.dir, "one.json");
    writeFileSync(evidence, JSON.stringify([{ kind: "page", page: 1 }]));
    const run = runCli(["verify", fixture("paper"), "--evidence", evidence, "--timeout-ms", "99999999999"], {
      env,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'citeproof: error [USAGE]: --timeout-ms must be at most 2147483647 (about 24.8 days; got "99999999999")\n',
    );
    const longest = runCli(
      ["verify", fixture("paper"), "--evidence", evidence, "--timeout-ms", "2147483647"],
      {
        env,
      },
    );
    expect(longest.stderr).toBe("");
    expect(longest.status).toBe(0);
  });

  it("refuses an empty evidence file in every command that reads one, exit 2", () => {
    const empty = join(tmp.dir, "empty.json");
    writeFileSync(empty, JSON.stringify({ evidence: [] }));
    for (const args of [
      ["verify", fixture("paper"), "--evidence", empty],
      ["report", fixture("paper"), "--evidence", empty, "--out", join(tmp.dir, "r.html")],
    ]) {
      const run = runCli(args, { env });
      expectNoStackTrace(run.stderr);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain("[EVIDENCE_INVALID]");
      expect(run.stderr).toContain("holds no evidence records: nothing would be checked");
    }
  });
});

describe("--serve", () => {
  it.each(["verify", "check-text", "cite-check", "anchors", "locate"])("is in the help of %s", (command) => {
    const run = runCli([command, "--help"], { env });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/--serve <mode>\s+run through a resident `citeproof serve`/);
  });
});
