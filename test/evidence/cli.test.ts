/**
 * The run and source commands end to end, through the built CLI: JSON documents, exit codes, errors.
 */
import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articleHtml, cleanTempDirs, REPO, RESULT_SENTENCE, startServer, tempDir } from "./helpers.js";

const CLI = join(REPO, "dist", "cli", "main.js");

function cli(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { cwd: REPO }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

let server: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  if (!existsSync(CLI))
    throw new Error("these tests run the built CLI: run `npx tsc -p .` (or `npm test`) first");
  server = await startServer({
    "/article": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(articleHtml());
    },
  });
});

afterAll(async () => {
  await server.close();
  cleanTempDirs();
});

describe("citeproof run / source", () => {
  it("runs the whole flow with --json and the documented exit codes", async () => {
    const root = tempDir();
    const runDir = join(root, "run");
    const created = await cli(["run", "new", runDir, "--json"]);
    expect(created.code).toBe(0);
    const run = JSON.parse(created.stdout);
    expect(run).toMatchObject({ run_id: expect.stringMatching(/^run-[0-9a-f]{16}$/), gate: false });

    const url = `${server.base}/article`;
    const fetched = await cli([
      "source",
      "fetch",
      "--run-dir",
      runDir,
      "--url",
      url,
      "--access",
      "full_text",
      "--origin",
      "pmc",
      "--pmid",
      "12345678",
      "--json",
    ]);
    expect(fetched.code, fetched.stderr).toBe(0);
    const receipt = JSON.parse(fetched.stdout);
    expect(receipt.event).toMatchObject({ type: "fetch", fresh: true });

    const spans = await cli([
      "source",
      "spans",
      "--run-dir",
      runDir,
      "--source-id",
      receipt.source_id,
      "--query",
      RESULT_SENTENCE,
      "--json",
    ]);
    expect(spans.code).toBe(0);
    const hit = JSON.parse(spans.stdout).hits[0];

    const readArgs = [
      "source",
      "read",
      "--run-dir",
      runDir,
      "--source-id",
      receipt.source_id,
      "--start",
      String(hit.start),
      "--end",
      String(hit.end),
    ];
    const read = await cli([...readArgs, "--json"]);
    expect(JSON.parse(read.stdout).text).toBe(RESULT_SENTENCE);
    const human = await cli(readArgs);
    expect(human.stdout).toContain(RESULT_SENTENCE);

    const span = {
      claim: "CDI-2 fell",
      evidence_id: "pmid:12345678",
      source_id: receipt.source_id,
      start: hit.start,
      end: hit.end,
      access: "full_text",
    };
    writeFileSync(
      join(runDir, "records", "claims.json"),
      JSON.stringify([{ id: "cdi2", text: "CBT lowered CDI-2 at 12 weeks.", spans: [span] }]),
    );
    const assembled = await cli(["run", "assemble", "--run-dir", runDir, "--json"]);
    expect(assembled.code).toBe(0);
    expect(JSON.parse(assembled.stdout)).toMatchObject({
      gate: { verdict: "pass" },
      summary: { accepted: 1, unresolved: 0 },
    });

    const verified = await cli(["run", "verify", "--run-dir", runDir, "--json"]);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout).verdict).toBe("pass");

    const check = await cli(["run", "promote", "--run-dir", runDir, "--check", "--json"]);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, mode: "check" });
    const knowledge = join(root, "wiki");
    const promoted = await cli(["run", "promote", "--run-dir", runDir, "--to", knowledge]);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain("promoted 1 concept(s)");
    expect(existsSync(join(knowledge, run.run_id, "cdi2.md"))).toBe(true);

    // A legacy record without spans: reported, not blocking; --gate blocks (exit 1).
    writeFileSync(
      join(runDir, "records", "claims.json"),
      JSON.stringify([
        { id: "cdi2", text: "CBT lowered CDI-2.", spans: [span] },
        { id: "legacy", text: "no spans" },
      ]),
    );
    const reported = await cli(["run", "assemble", "--run-dir", runDir]);
    expect(reported.code).toBe(0);
    expect(reported.stdout).toContain("NO_SPANS");
    expect(reported.stdout).toContain("reported, not blocking");
    const gated = await cli(["run", "assemble", "--run-dir", runDir, "--gate", "--json"]);
    expect(gated.code).toBe(1);
    expect(JSON.parse(gated.stdout).gate).toMatchObject({ enabled: true, verdict: "fail", blocking: true });
    const refused = await cli(["run", "promote", "--run-dir", runDir, "--check", "--json"]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).failures.map((f: { code: string }) => f.code)).toContain(
      "GATE_BLOCKED",
    );
  });

  it("registers text from stdin, exactly, as a non-fresh register event", async () => {
    const runDir = join(tempDir(), "run");
    await cli(["run", "new", runDir]);
    const text = "Line one\r\n𝑥 😀 trailing  \n";
    const out = await cli(
      [
        "source",
        "register",
        "--run-dir",
        runDir,
        "--url",
        "https://example.org/x",
        "--text-file",
        "-",
        "--json",
      ],
      text,
    );
    expect(out.code, out.stderr).toBe(0);
    const receipt = JSON.parse(out.stdout);
    expect(receipt).toMatchObject({ length: [...text].length, event: { type: "register", fresh: false } });
    const read = await cli([
      "source",
      "read",
      "--run-dir",
      runDir,
      "--source-id",
      receipt.source_id,
      "--json",
    ]);
    expect(JSON.parse(read.stdout).text).toBe(text);
  });

  it("reports usage and tool errors with exit 2 and a JSON error document", async () => {
    const runDir = join(tempDir(), "run");
    await cli(["run", "new", runDir]);
    const cases: [string[], string][] = [
      [["source", "read", "--source-id", "src-x", "--json"], "USAGE"],
      [
        ["source", "read", "--run-dir", join(runDir, "nope"), "--source-id", "src-x", "--json"],
        "RUN_NOT_FOUND",
      ],
      [
        ["source", "read", "--run-dir", runDir, "--source-id", `src-${"0".repeat(64)}`, "--json"],
        "SOURCE_NOT_FOUND",
      ],
      [
        ["source", "fetch", "--run-dir", runDir, "--url", `${server.base}/missing`, "--json"],
        "URL_HTTP_ERROR",
      ],
      [["source", "fetch", "--run-dir", runDir, "--url", "ftp://example.org/", "--json"], "URL_INVALID"],
      [
        [
          "source",
          "fetch",
          "--run-dir",
          runDir,
          "--url",
          `${server.base}/article`,
          "--access",
          "everything",
          "--json",
        ],
        "USAGE",
      ],
      [["run", "promote", "--run-dir", runDir, "--json"], "USAGE"],
      [["run", "new", runDir, "--json"], "RUN_EXISTS"],
    ];
    for (const [args, code] of cases) {
      const out = await cli(args);
      expect(out.code, args.join(" ")).toBe(2);
      expect(JSON.parse(out.stdout).error.code, args.join(" ")).toBe(code);
      expect(out.stderr).toMatch(/^citeproof: error \[/);
      expect(out.stderr).not.toMatch(/\n\s+at /);
    }
    const big = await cli(
      ["source", "register", "--run-dir", runDir, "--url", "u:1", "--text-file", "-", "--json"],
      "x".repeat(30_000),
    );
    const id = JSON.parse(big.stdout).source_id;
    const tooWide = await cli([
      "source",
      "read",
      "--run-dir",
      runDir,
      "--source-id",
      id,
      "--start",
      "0",
      "--end",
      "20001",
      "--json",
    ]);
    expect(tooWide.code).toBe(2);
    expect(JSON.parse(tooWide.stdout).error.message).toContain("at most 20000");
  });
});
