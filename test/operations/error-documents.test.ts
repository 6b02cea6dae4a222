// The same bad inputs through the three interfaces — the CLI (in-process, `--json`), the MCP server's
// tool call and the pi extension's tool — give one error document `{code, message, details}`: the same
// code, the same details (every problem listed, each field by its path), and the same message but for
// how each interface names a field (the CLI by its flag, a tool by its argument).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callTool } from "../../src/mcp/server.js";
import type { ExtensionAPI, PiToolDefinition } from "../../src/pi/api.js";
import citeproofExtension from "../../src/pi/extension.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const root = resolve(import.meta.dirname, "../..");
const pdf = join(root, "test/fixtures/interfaces.pdf");
const work = mkdtempSync(join(tmpdir(), "citeproof-error-docs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Doc {
  code: string;
  message: string;
  details?: { path?: string; hint?: string; issues?: { path: string; code: string; message: string }[] };
}

const tools = new Map<string, PiToolDefinition>();
citeproofExtension({
  registerTool: (tool) => tools.set(tool.name, tool),
  registerCommand: () => {},
} satisfies ExtensionAPI);

/** The CLI in this process (the built program, with collecting output): its --json error document. */
async function viaCli(args: string[]): Promise<Doc> {
  const run = await runCliInProcess([...args, "--json", "--no-cache"]);
  expect(run.status, run.stderr).toBe(2);
  return (run.json as { error: Doc }).error;
}

async function viaMcp(name: string, args: Record<string, unknown>): Promise<Doc> {
  const result = await callTool(name, args, { cwd: root, roots: [root], open: { noCache: true } });
  expect(result.isError).toBe(true);
  const text = (result.content[0] as { text: string }).text;
  return (JSON.parse(text) as { error: Doc }).error;
}

async function viaPi(name: string, args: Record<string, unknown>): Promise<Doc> {
  const ctx = { cwd: root, ui: { notify: () => {} } };
  const error = await tools
    .get(`citeproof_${name}`)!
    .execute("call", args, undefined, undefined, ctx)
    .then(
      () => undefined,
      (e: Error) => e,
    );
  expect(error).toBeInstanceOf(Error);
  return (JSON.parse(error!.message) as { error: Doc }).error;
}

function file(name: string, value: unknown): string {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

/** A tool's document as the CLI writes it: each `argument "x"` named as the flag that gave x. */
function asCli(doc: Doc, flags: Record<string, string>): Doc {
  const name = (path: string) => {
    const top = /^[^.[]+/.exec(path)![0];
    return top === path ? flags[top] : `"${path}" in ${flags[top]}`;
  };
  const rename = (text: string) => text.replace(/argument "([^"]+)"/g, (_, path: string) => name(path));
  const issues = doc.details?.issues?.map((i) => ({ ...i, message: rename(i.message) }));
  return {
    ...doc,
    message: rename(doc.message),
    ...(doc.details ? { details: { ...doc.details, ...(issues ? { issues } : {}) } } : {}),
  };
}

const badEvidence = [
  { kind: "page", page: 0 },
  { kind: "quotation", page: 1, tex: "Salt corrosion was the most common defect" },
  { kind: "figure", label: "Figure 2" },
  { kind: "table", page: 1 },
];

const cases: [string, string, Record<string, unknown>, () => string[], Record<string, string>][] = [
  [
    "evidence records with four problems",
    "verify",
    { pdf, evidence: badEvidence },
    () => ["verify", pdf, "--evidence", file("bad.json", badEvidence)],
    { evidence: "--evidence" },
  ],
  [
    "blank words to find",
    "locate",
    { pdf, text: "   " },
    () => ["locate", pdf, "--text", "   "],
    { text: "--text" },
  ],
  [
    "a box and an anchor together",
    "crop",
    { pdf, page: 1, box: { left: 0, bottom: 0, right: 10, top: 10 }, anchor: "figure:1" },
    () => [
      "crop",
      pdf,
      "--page",
      "1",
      "--box",
      "0,0,10,10",
      "--anchor",
      "figure:1",
      "--out",
      join(work, "x.png"),
    ],
    { box: "--box", anchor: "--anchor" },
  ],
];

describe("one error document on every interface", () => {
  it.each(cases)("%s: the CLI, MCP and pi give the same document", async (_label, name, args, cli, flags) => {
    const fromMcp = await viaMcp(name, args);
    expect(await viaPi(name, args)).toEqual(fromMcp);
    expect(await viaCli(cli())).toEqual(asCli(fromMcp, flags));
    expect(Object.keys(fromMcp).sort()).toEqual(
      fromMcp.details === undefined ? ["code", "message"] : ["code", "details", "message"],
    );
  });

  it("every problem of the records is reported, each by its path, with a did-you-mean", async () => {
    const doc = await viaMcp("verify", { pdf, evidence: badEvidence });
    expect(doc.code).toBe("EVIDENCE_INVALID");
    expect(doc.details?.issues?.map((i) => i.path)).toEqual([
      "evidence[0].page",
      "evidence[1].text",
      "evidence[1].tex",
      "evidence[2].label",
      "evidence[3].kind",
    ]);
    expect(doc.details?.issues?.find((i) => i.path === "evidence[1].tex")?.message).toBe(
      'unknown argument "evidence[1].tex" (did you mean "text"?)',
    );
    expect(doc.message).toMatch(/^5 problems: argument "evidence\[0\]\.page" must be at least 1 \(got 0\); /);
  });

  it("an unknown argument gets a did-you-mean over MCP and pi alike", async () => {
    const args = { pdf, evidense: [] };
    const doc = await viaMcp("verify", args);
    expect(await viaPi("verify", args)).toEqual(doc);
    expect(doc.details?.issues?.map((i) => i.message)).toContain(
      'unknown argument "evidense" (did you mean "evidence"?)',
    );
  });

  it("a hint names the setting in the interface's terms, in the message and in details", async () => {
    const doc = await viaMcp("verify", { pdf: "/etc/hostname", evidence: [{ kind: "page", page: 1 }] });
    expect(doc.code).toBe("ACCESS_DENIED");
    expect(doc.details?.hint).toBe("add one with the server's --allow-root");
    expect(JSON.stringify(doc)).not.toContain("{option}");
    const fromPi = await viaPi("verify", { pdf: "/etc/hostname", evidence: [{ kind: "page", page: 1 }] });
    expect(fromPi.details?.hint).toBe("add one with CITEPROOF_ALLOW_ROOTS");
  });
});
