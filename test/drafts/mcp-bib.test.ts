/** The MCP tool check_text with `bib` instead of `pdf`: the draft's sources come from its bibliography. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

const scratch = tempDir("citeproof-mcp-bib-");
const set = join(scratch.dir, "set");
let client: Client;

beforeAll(async () => {
  execFileSync(process.execPath, [join(repoRoot, "scripts", "drafts-gen", "generate.mjs"), set]);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(repoRoot, "dist", "cli", "main.cjs"), "mcp", "--allow-root", set],
    cwd: repoRoot,
    env: { ...process.env, CITEPROOF_CACHE_DIR: join(scratch.dir, "cache") } as Record<string, string>,
    stderr: "pipe",
  });
  client = new Client({ name: "citeproof-test", version: "1.0.0" });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  scratch.remove();
});

interface CallResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
}

describe("MCP check_text with a bibliography", () => {
  it("returns the document check-text --bib --json prints", async () => {
    const draft = readFileSync(join(set, "draft.tex"), "utf8");
    // Listed first, so the SDK client checks the structured content against the tool's outputSchema.
    await client.listTools();
    const result = (await client.callTool({
      name: "check_text",
      arguments: { bib: join(set, "refs.bib"), draft, draft_name: "draft.tex" },
    })) as CallResult;
    expect(result.isError).toBeFalsy();
    const single = runCli(["check-text", join(set, "draft.tex"), "--bib", join(set, "refs.bib"), "--json"], {
      env: { CITEPROOF_CACHE_DIR: join(scratch.dir, "cache") },
    });
    const text = result.content.find((c) => c.type === "text")?.text ?? "";
    expect(JSON.parse(text)).toEqual(single.json);
  });

  it("refuses a bibliography outside the allowed roots", async () => {
    const outside = join(scratch.dir, "outside.bib");
    writeFileSync(outside, "@article{a, file = {x.pdf}}");
    const result = (await client.callTool({
      name: "check_text",
      arguments: { bib: outside, draft: "It says [@a, p. 1]." },
    })) as CallResult;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("ACCESS_DENIED");
  });
});
