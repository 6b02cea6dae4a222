/**
 * The CI gate as shipped: the check step of action.yml run by bash as the runner runs it (its inputs as
 * environment variables), and the pre-commit hook's command line (entry, args, then the changed files).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { cliPath, runCli } from "../helpers/run-cli.js";

const scratch = tempDir("citeproof-gate-");
const out = join(scratch.dir, "set");
afterAll(() => scratch.remove());
beforeAll(() => {
  execFileSync(process.execPath, [join(repoRoot, "scripts", "drafts-gen", "generate.mjs"), out]);
});

/** The `run: |` script of the action's check step, dedented. */
function actionScript(): string {
  const yaml = readFileSync(join(repoRoot, "action.yml"), "utf8");
  const step = yaml.slice(yaml.indexOf("id: check"));
  const body = step.slice(step.indexOf("run: |") + "run: |".length + 1);
  return body
    .split("\n")
    .filter((l) => l.startsWith("        ") || l.trim() === "")
    .map((l) => l.slice(8))
    .join("\n");
}

function runAction(inputs: Record<string, string>) {
  const output = join(scratch.dir, `output-${Object.values(inputs).join("-").replace(/\W/g, "")}`);
  writeFileSync(output, "");
  const run = spawnSync("bash", ["-c", actionScript()], {
    cwd: out,
    encoding: "utf8",
    timeout: 120_000,
    env: {
      ...process.env,
      CITEPROOF_CLI: cliPath,
      CITEPROOF_STRICT: "false",
      CITEPROOF_FETCH: "false",
      CITEPROOF_SARIF: "citeproof.sarif",
      CITEPROOF_CACHE_DIR: join(scratch.dir, "cache"),
      GITHUB_OUTPUT: output,
      ...inputs,
    },
  });
  return { ...run, output: readFileSync(output, "utf8") };
}

describe("the GitHub Action and the pre-commit hook", () => {
  it("action: annotations for every draft a glob names, exit 1 on a FAIL", () => {
    const run = runAction({
      CITEPROOF_DRAFTS: "*.md\nauthor-year.txt",
      CITEPROOF_BIB: "refs.bib",
      CITEPROOF_FORMAT: "github",
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^::error file=draft\.md,line=\d+,col=\d+,/m);
    expect(run.stdout).toMatch(
      /^::warning file=author-year\.txt,line=\d+,col=\d+,title=citeproof ambiguous-source::/m,
    );
  });

  it("action: SARIF to a file named as an output; a FLAG alone fails only with fail-on-flag", () => {
    writeFileSync(join(out, "flag.md"), 'It says "these are words from the web page" [@webonly, p. 1].\n');
    const sarif = runAction({
      CITEPROOF_DRAFTS: "flag.md",
      CITEPROOF_BIB: "refs.bib",
      CITEPROOF_FORMAT: "sarif",
    });
    expect(sarif.status).toBe(0);
    expect(sarif.output).toBe("sarif-file=citeproof.sarif\n");
    const log = JSON.parse(readFileSync(join(out, "citeproof.sarif"), "utf8"));
    expect(log.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual(["source-unavailable"]);
    const strict = runAction({
      CITEPROOF_DRAFTS: "flag.md",
      CITEPROOF_BIB: "refs.bib",
      CITEPROOF_FORMAT: "text",
      CITEPROOF_STRICT: "true",
    });
    expect(strict.status).toBe(1);
  });

  it("pre-commit: the entry, its args, then the files", () => {
    const hook = readFileSync(join(repoRoot, ".pre-commit-hooks.yaml"), "utf8");
    const entry = hook.match(/entry: citeproof (.+)/)?.[1].split(" ") ?? [];
    expect(entry).toEqual(["check-text"]);
    const run = runCli([...entry, "--bib", join(out, "refs.bib"), join(out, "csl.md"), join(out, "map.md")]);
    expect(run.status).toBe(1);
    expect(run.stdout.match(/^\S+\.md: markdown draft checked against/gm)).toHaveLength(2);
  });
});
