/** The pi tool citeproof_check_text with `bib` instead of `pdf`, paths from the session's directory. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

interface Tool {
  parameters: { properties: Record<string, unknown> };
  execute(
    id: string,
    params: Record<string, unknown>,
    signal: undefined,
    onUpdate: undefined,
    ctx: unknown,
  ): Promise<{ content: { type: string; text?: string }[] }>;
}

const scratch = tempDir("citeproof-pi-bib-");
const set = join(scratch.dir, "set");
const tools = new Map<string, Tool>();
const savedCacheDir = process.env.CITEPROOF_CACHE_DIR;

beforeAll(async () => {
  execFileSync(process.execPath, [join(repoRoot, "scripts", "drafts-gen", "generate.mjs"), set]);
  process.env.CITEPROOF_CACHE_DIR = join(scratch.dir, "cache");
  const mod = await import(pathToFileURL(join(repoRoot, "dist", "pi", "extension.js")).href);
  mod.default({
    registerTool: (tool: Tool & { name: string }) => tools.set(tool.name, tool),
    registerCommand: () => undefined,
  });
});
afterAll(() => {
  if (savedCacheDir === undefined) delete process.env.CITEPROOF_CACHE_DIR;
  else process.env.CITEPROOF_CACHE_DIR = savedCacheDir;
  scratch.remove();
});

describe("pi citeproof_check_text with a bibliography", () => {
  it("takes bib and returns the document check-text --bib --json prints", async () => {
    const tool = tools.get("citeproof_check_text") as Tool;
    expect(Object.keys(tool.parameters.properties)).toEqual(expect.arrayContaining(["bib", "pdf", "draft"]));
    const draft = readFileSync(join(set, "author-year.txt"), "utf8");
    const ctx = { cwd: set, ui: { notify: () => undefined } };
    const result = await tool.execute(
      "c1",
      { bib: "refs.bib", draft, draft_name: "a.txt" },
      undefined,
      undefined,
      ctx,
    );
    const single = runCli([
      "check-text",
      join(set, "author-year.txt"),
      "--bib",
      join(set, "refs.bib"),
      "--json",
    ]);
    expect(JSON.parse(result.content[0].text ?? "")).toEqual(single.json);
  });
});
