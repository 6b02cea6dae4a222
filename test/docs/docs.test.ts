/**
 * The docs a user reads hold true: the README stays a guide (at most 400 lines, a contents list, the
 * sections a first-time user looks for), every relative link in the README and docs/ reaches a file
 * and a heading that exist, and every `citeproof` command the pages show is a command of this build,
 * with only options its `--help` lists. The Quick start's commands are run by verify-example.test.ts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/fixture-files.js";

const CLI = join(repoRoot, "dist", "cli", "main.cjs");

function pages(): string[] {
  const docs = readdirSync(join(repoRoot, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(repoRoot, "docs", f));
  return [join(repoRoot, "README.md"), ...docs];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function headings(file: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    const m = fence ? null : /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(slug(m[1] ?? ""));
  }
  return out;
}

/** The text of every code block and inline code span of a page. */
function codeOf(text: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) {
      fence = !fence;
      continue;
    }
    if (fence) out.push(line);
    else for (const m of line.matchAll(/`([^`]+)`/g)) out.push(m[1] ?? "");
  }
  return out;
}

const GROUPS = new Set(["session", "run", "source", "cache"]);

/** Each `citeproof <command>` shown, with the options shown with it. */
function commandsShown(): Map<string, { options: Set<string>; where: string }> {
  const shown = new Map<string, { options: Set<string>; where: string }>();
  for (const file of pages()) {
    for (const code of codeOf(readFileSync(file, "utf8"))) {
      for (const m of code.matchAll(/(?:^|[\s/])citeproof ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?([^|;&]*)/g)) {
        const first = m[1] ?? "";
        // "citeproof error [CODE]: ..." is how pi shows an error, not a command.
        if (first === "error") continue;
        const command = GROUPS.has(first) && m[2] ? `${first} ${m[2]}` : first;
        const rest = GROUPS.has(first) ? (m[3] ?? "") : `${m[2] ?? ""}${m[3] ?? ""}`;
        const entry = shown.get(command) ?? { options: new Set(), where: relative(repoRoot, file) };
        for (const o of rest.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)) entry.options.add(o[0]);
        shown.set(command, entry);
      }
    }
  }
  return shown;
}

describe("the README is a guide", () => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

  it("is at most 400 lines, with a contents list and the sections a new user looks for", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(400);
    expect(readme).toMatch(/\*\*Contents:\*\*/);
    for (const section of [
      "Quick start",
      "Which command for which job",
      "Install",
      "Exit codes",
      "Troubleshooting",
      "Reference",
    ])
      expect(readme).toContain(`## ${section}`);
  });
});

describe("links in the README and docs/", () => {
  it("reach a file and a heading that exist", () => {
    const broken: string[] = [];
    for (const file of pages()) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1] ?? "";
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split("#");
        const into = path ? resolve(dirname(file), path) : file;
        if (!existsSync(into)) {
          broken.push(`${relative(repoRoot, file)}: ${target} (no such file)`);
          continue;
        }
        if (anchor && into.endsWith(".md") && !headings(into).has(anchor))
          broken.push(`${relative(repoRoot, file)}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("commands the docs show", () => {
  it("are commands of this build, with options their --help lists", () => {
    const commandList = execFileSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
    const wrong: string[] = [];
    const shown = commandsShown();
    expect(shown.size).toBeGreaterThan(10);
    for (const [command, { options, where }] of shown) {
      const [first] = command.split(" ");
      if (!new RegExp(`^  ${first}\\b`, "m").test(commandList)) {
        wrong.push(`${where}: citeproof ${command} is no command`);
        continue;
      }
      let help: string;
      try {
        help = execFileSync(process.execPath, [CLI, ...command.split(" "), "--help"], { encoding: "utf8" });
      } catch {
        wrong.push(`${where}: citeproof ${command} --help fails`);
        continue;
      }
      for (const option of options) {
        if (option === "--help" || option === "--version") continue;
        if (!new RegExp(`(^|[\\s,])${option}(?![\\w-])`, "m").test(help))
          wrong.push(`${where}: citeproof ${command} shows ${option}, which its --help does not list`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("the architecture page", () => {
  it("is a map of at most 300 lines: layers, data model, three calls", () => {
    const text = readFileSync(join(repoRoot, "docs", "architecture.md"), "utf8");
    expect(text.split("\n").length).toBeLessThanOrEqual(300);
    for (const section of ["## Layers", "## Data model", "## Three calls"]) expect(text).toContain(section);
  });
});
