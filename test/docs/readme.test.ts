// The README and docs/ tell the truth (issue 37 item 14): its Library snippets run as a consumer of the
// package runs them; the Kubernetes example installs the package tarball (never `npx citeproof`)
// and its command runs; the options every PDF command takes are in each command's help; the MCP
// table names every input of each tool; --cache-dir's help names XDG_CACHE_HOME; check-text's
// closing line names Fig. (N).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_VERIFIED } from "../../src/checks/check-text.js";
import { INPUT_SCHEMAS } from "../../src/operations/schemas/index.js";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { cliPath, runCli } from "../helpers/run-cli.js";

// The README and the reference pages under docs/, read as one text.
const README = [
  "README.md",
  "docs/cli.md",
  "docs/library.md",
  "docs/batch.md",
  "docs/mcp.md",
  "docs/prose-and-sessions.md",
]
  .map((file) => readFileSync(join(repoRoot, file), "utf8"))
  .join("\n");

/** The fenced blocks of a language, in order. */
function blocks(lang: string): string[] {
  return [...README.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]);
}

/** The rows of the table whose header row starts with `| first |`. */
function tableRows(first: string): string[][] {
  const start = README.indexOf(`| ${first} |`);
  expect(start).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of README.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

let project: ReturnType<typeof tempDir>;
const env = { CITEPROOF_SERVE: "never" };
beforeAll(() => {
  // A project that depends on citeproof, with the README's example files at hand.
  project = tempDir();
  mkdirSync(join(project.dir, "node_modules"));
  symlinkSync(repoRoot, join(project.dir, "node_modules", "citeproof"));
  symlinkSync(join(repoRoot, "examples"), join(project.dir, "examples"));
});
afterAll(() => project.remove());

describe("the Library snippets", () => {
  const snippets = blocks("ts").filter((b) => b.includes('from "citeproof"'));

  it("are there: verifying evidence, anchors with a crop, and a flow source", () => {
    expect(snippets.length).toBe(3);
  });

  it.each([0, 1, 2])("snippet %i runs as written in a project that depends on citeproof", (i) => {
    const file = join(project.dir, `snippet-${i}.mjs`);
    writeFileSync(file, snippets[i]);
    const run = spawnSync(process.execPath, [file], {
      cwd: project.dir,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, ...env },
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    if (snippets[i].includes("verifyPdf")) {
      const lines = run.stdout.trim().split("\n");
      expect(lines).toHaveLength(10);
      expect(lines[0]).toMatch(/^PASS found /);
    }
    if (snippets[i].includes("verifyFlow"))
      expect(run.stdout).toBe(
        'PASS found found in section "2.1" (paragraph 6, under "Salt marsh survey > 2 Methods > 2.1 Data")\n',
      );
  });
});

describe("the Kubernetes example", () => {
  const yaml = blocks("yaml").find((b) => b.includes("kind: Job"));

  it("installs the packed tarball, never npx, and its batch command runs", () => {
    expect(yaml).toBeDefined();
    expect(yaml).not.toContain("npx");
    const command =
      /npm install -g --no-audit --no-fund \.\/citeproof-0\.1\.0\.tgz &&\s+citeproof (batch .*)$/m.exec(
        yaml!,
      );
    expect(command).not.toBeNull();
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
    expect(yaml).toContain(`citeproof-${pkg.version}.tgz`);
    // The pod's command, in a folder like the pod's volume: a jobs file and the PDF it names.
    const volume = join(project.dir, "data");
    mkdirSync(volume);
    copyFileSync(join(repoRoot, "examples", "paper.pdf"), join(volume, "paper.pdf"));
    writeFileSync(
      join(volume, "jobs.jsonl"),
      `${JSON.stringify({ id: "p", pdf: "paper.pdf", verify: [{ kind: "page", page: 1 }] })}\n`,
    );
    // Each of the four pods: together they write every job's result once.
    let results = "";
    for (const index of ["0", "1", "2", "3"]) {
      const run = spawnSync("sh", ["-c", `node "${cliPath}" ${command![1]}`], {
        cwd: volume,
        encoding: "utf8",
        timeout: 60_000,
        env: {
          ...process.env,
          ...env,
          JOB_COMPLETION_INDEX: index,
          CITEPROOF_CACHE_DIR: join(project.dir, "cache"),
        },
      });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      results += readFileSync(join(volume, `results-${index}.jsonl`), "utf8");
    }
    expect(results.match(/"id":\s*"p"/g)).toHaveLength(1);
  });
});

describe("the CLI's documented options", () => {
  const options = tableRows("option").map((row) => /^`(--[a-z-]+)/.exec(row[0])![1]);

  it.each(["verify", "check-text", "anchors", "locate", "crop", "report"])(
    "%s takes every option of the table",
    (command) => {
      const help = runCli([command, "--help"], { env }).stdout;
      for (const option of options) expect(help, option).toContain(option);
    },
  );

  it("cite-check takes all but the two the README names as its exceptions", () => {
    expect(README).toContain("(`cite-check` all but `--max-bytes` and `--jobs`");
    const help = runCli(["cite-check", "--help"], { env }).stdout;
    for (const option of options.filter((o) => o !== "--max-bytes" && o !== "--jobs"))
      expect(help, option).toContain(option);
  });

  it("--cache-dir's help names every place the cache may be", () => {
    for (const command of ["verify", "cite-check", "batch", "mcp"]) {
      const help = runCli([command, "--help"], { env }).stdout.replace(/\s+/g, " ");
      expect(help, command).toContain(
        "$CITEPROOF_CACHE_DIR, else $XDG_CACHE_HOME/citeproof, else ~/.cache/citeproof",
      );
    }
  });
});

describe("the MCP table", () => {
  it("names every input of each tool", () => {
    const shapes: Record<string, string> = {
      verify: "verify",
      anchors: "anchors",
      locate: "locate",
      crop: "crop",
      check_text: "check_text",
    };
    const rows = tableRows("tool");
    for (const [tool, schema] of Object.entries(shapes)) {
      const row = rows.find((r) => r[0] === `\`${tool}\``);
      expect(row, tool).toBeDefined();
      const named = new Set([...row![1].matchAll(/`([a-z_]+)`\??/g)].map((m) => m[1]));
      const keys = Object.keys(
        (INPUT_SCHEMAS as Record<string, { object: { shape: object } }>)[schema].object.shape,
      );
      for (const key of keys) expect(named, `${tool}.${key}`).toContain(key);
    }
  });
});

describe("check-text's closing line", () => {
  it("names every citation form it checks, Fig. (N) too, in the code and the README", () => {
    expect(NOT_VERIFIED).toContain("'p. N', 'Eq. (N)' and 'Fig. (N)'");
    expect(README).toContain(`not verified: ${NOT_VERIFIED}`);
  });
});
