// Each agent operation through the three interfaces — the CLI (`--json`, as a process), the MCP server's
// tool call and the pi extension's tool — gives the same JSON document.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callTool } from "../../src/mcp/server.js";
import type { ExtensionAPI, PiToolDefinition } from "../../src/pi/api.js";
import citeproofExtension from "../../src/pi/extension.js";

const root = resolve(import.meta.dirname, "../..");
const cli = join(root, "dist/cli/main.js");
const pdf = join(root, "test/fixtures/interfaces.pdf");
const work = mkdtempSync(join(tmpdir(), "citeproof-adapters-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const tools = new Map<string, PiToolDefinition>();
citeproofExtension({
  registerTool: (tool) => tools.set(tool.name, tool),
  registerCommand: () => {},
} satisfies ExtensionAPI);
const env = { cwd: root, roots: [root], open: { noCache: true } };
process.env.CITEPROOF_CACHE_DIR = join(work, "cache");

function file(name: string, value: unknown): string {
  const path = join(work, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

function viaCli(args: string[]): unknown {
  const run = spawnSync(process.execPath, [cli, ...args, "--json", "--no-cache"], {
    cwd: root,
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBeLessThan(2);
  return JSON.parse(run.stdout);
}

async function viaMcp(name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await callTool(name, args, env);
  const text = result.content.find((c) => c.type === "text") as { text: string };
  expect(result.isError, text.text).toBeFalsy();
  return JSON.parse(text.text);
}

async function viaPi(name: string, args: Record<string, unknown>): Promise<unknown> {
  const ctx = { cwd: root, ui: { notify: () => {} } };
  return (await tools.get(`citeproof_${name}`)!.execute("call", args, undefined, undefined, ctx)).details;
}

/** What differs by design: the CLI names the PNG it wrote; a cache makes a second run extract nothing. */
function comparable(doc: unknown): unknown {
  const { out: _out, extracted_pages: _pages, ...rest } = doc as Record<string, unknown>;
  return rest;
}

const evidence = [
  {
    id: "q1",
    kind: "quotation",
    page: 1,
    text: "Salt corrosion was the most common defect on the older hulls",
  },
  { id: "q2", kind: "quotation", page: 1, text: "Work on the northern quay begins in October" },
  { id: "p9", kind: "page", page: 9 },
  { id: "f1", kind: "figure", label: "1" },
];
const citations = [
  {
    id: "c1",
    quote: "Salt corrosion was the most common defect",
    page: 1,
    bounding_box: { left: 0, bottom: 0, right: 612, top: 792 },
  },
];

const cases: [string, Record<string, unknown>, () => string[]][] = [
  ["verify", { pdf, evidence }, () => ["verify", pdf, "--evidence", file("evidence.json", evidence)]],
  ["anchors", { pdf }, () => ["anchors", pdf]],
  [
    "locate",
    { pdf, text: "salt corrosion ... older hulls" },
    () => ["locate", pdf, "--text", "salt corrosion ... older hulls"],
  ],
  [
    "crop",
    { pdf, anchor: "figure:1", dpi: 60 },
    () => ["crop", pdf, "--anchor", "figure:1", "--dpi", "60", "--out", join(work, "crop.png")],
  ],
  [
    "check_text",
    { pdf, draft: 'The report says "Salt corrosion was the most common defect on the older hulls" (p. 1).' },
    () => [
      "check-text",
      pdf,
      file(
        "draft.txt",
        'The report says "Salt corrosion was the most common defect on the older hulls" (p. 1).',
      ),
    ],
  ],
  [
    "cite_check",
    { sources: [{ path: pdf }], citations },
    () => [
      "cite-check",
      "--request",
      file("request.json", { operation: "cite_check", sources: [{ path: pdf }], citations }),
    ],
  ],
];

describe("one operation, three interfaces", () => {
  it.each(cases)("%s gives the same document through the CLI, MCP and pi", async (name, args, cliArgs) => {
    const fromCli = comparable(viaCli(cliArgs()));
    expect(comparable(await viaMcp(name, args))).toEqual(fromCli);
    expect(comparable(await viaPi(name, args))).toEqual(fromCli);
  });
});
