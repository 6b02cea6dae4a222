// Every agent operation declares the schema of the document it returns, and what it returns over the
// fixtures conforms to it: verify's results each with the one verdict of their reason and the
// evidence shape of that reason. The MCP server lists each schema as the tool's outputSchema and
// answers with structuredContent and the same document as compact JSON text.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkResultSchema } from "../../src/checks/result.js";
import { REASON_VERDICTS, type REASONS } from "../../src/checks/verdicts.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { AGENT_OPERATIONS, findAgentOperation } from "../../src/operations/agent-operations.js";
import { runOperation } from "../../src/operations/run-operation.js";

const root = resolve(import.meta.dirname, "../..");
const ctx = { cwd: root, access: "anywhere" as const, open: { noCache: true } };
const paper = join(root, "examples/paper.pdf");
const interfaces = join(root, "test/fixtures/interfaces.pdf");
const figures = join(root, "test/fixtures/figures.pdf");
const exampleEvidence = JSON.parse(readFileSync(join(root, "examples/evidence.json"), "utf8"));

const calls: [string, Record<string, unknown>][] = [
  ["verify", { pdf: paper, evidence: exampleEvidence }],
  [
    "verify",
    {
      pdf: interfaces,
      evidence: [
        { kind: "quotation", page: 1, text: "Salt corrosion was the most common defect on the older hulls" },
        { kind: "quotation", page: 1, text: "Work on the northern quay begins in October" },
        { kind: "quotation", text: "no page named here at all" },
        { kind: "page", page: 9 },
        { kind: "figure", label: "1" },
        { kind: "figure", label: "7" },
        { kind: "equation", label: "3" },
      ],
    },
  ],
  ["anchors", { pdf: paper }],
  ["anchors", { pdf: figures }],
  ["locate", { pdf: interfaces, text: "salt corrosion ... older hulls" }],
  ["crop", { pdf: interfaces, anchor: "figure:1", dpi: 40 }],
  ["crop", { pdf: interfaces, page: 1, dpi: 30 }],
  [
    "check_text",
    {
      pdf: interfaces,
      draft: 'It says "Salt corrosion was the most common defect on the older hulls" (p. 1) and Fig. 1.',
    },
  ],
  [
    "cite_check",
    {
      sources: [{ path: interfaces }],
      citations: [
        {
          id: "c1",
          quote: "Salt corrosion",
          page: 1,
          bounding_box: { left: 0, bottom: 0, right: 612, top: 792 },
        },
        {
          id: "c2",
          quote: "not in this file",
          page: 1,
          bounding_box: { left: 0, bottom: 0, right: 612, top: 792 },
        },
      ],
    },
  ],
];

describe("output schemas", () => {
  it("every agent operation declares one, an object schema", async () => {
    for (const op of AGENT_OPERATIONS) {
      expect(op.output, op.name).toBeTypeOf("function");
      const schema = await op.output!();
      expect(schema.safeParse("not an object").success, op.name).toBe(false);
    }
  });

  it.each(calls)("%s: the document conforms to the operation's output schema", async (name, args) => {
    const op = findAgentOperation(name)!;
    const { json } = await runOperation(op, args, ctx);
    const parsed = (await op.output!()).safeParse(JSON.parse(JSON.stringify(json)));
    expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true);
  });

  it("verify's results cover many reasons, each with the verdict of its reason", async () => {
    const { json } = await runOperation(findAgentOperation("verify")!, calls[0][1], ctx);
    const results = (json as { results: { reason: (typeof REASONS)[number]; verdict: string }[] }).results;
    expect(new Set(results.map((r) => r.reason)).size).toBeGreaterThan(4);
    for (const r of results) expect(r.verdict).toBe(REASON_VERDICTS[r.reason]);
  });

  it("a result whose verdict is not its reason's, or whose evidence lacks a promised field, is refused", () => {
    const base = { kind: "quotation", message: "m" };
    expect(
      checkResultSchema.safeParse({ ...base, verdict: "PASS", reason: "found", evidence: {} }).success,
    ).toBe(true);
    expect(
      checkResultSchema.safeParse({ ...base, verdict: "FAIL", reason: "found", evidence: {} }).success,
    ).toBe(false);
    expect(
      checkResultSchema.safeParse({ ...base, verdict: "FLAG", reason: "deadline", evidence: {} }).success,
    ).toBe(false);
    const deadline = { limitMs: 5, step: "extraction", pagesNotRead: [2] };
    expect(
      checkResultSchema.safeParse({ ...base, verdict: "FLAG", reason: "deadline", evidence: { deadline } })
        .success,
    ).toBe(true);
  });
});

describe("MCP tools: outputSchema, structuredContent and compact text", () => {
  const client = new Client({ name: "test", version: "0" });
  beforeAll(async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer({ cwd: root, roots: [root], open: { noCache: true } }, "0");
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  afterAll(() => client.close());

  it("every tool lists its output schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(AGENT_OPERATIONS.map((op) => op.name));
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe("object");
  });

  it("a call answers with structured content the client checks, and the same document as compact text", async () => {
    // The SDK client validates structuredContent against the listed outputSchema.
    await client.listTools();
    const result = await client.callTool({
      name: "locate",
      arguments: { pdf: interfaces, text: "salt corrosion" },
    });
    const text = (result.content as { type: string; text: string }[])[0].text;
    expect(text).not.toContain("\n");
    expect(JSON.parse(text)).toEqual(result.structuredContent);
    expect((result.structuredContent as { count: number }).count).toBeGreaterThan(0);
  });
});
