// Arguments an attacker would send: values nested 100,000 levels deep and values of millions of items
// are coded errors naming the argument, with a short excerpt of the value, never INTERNAL.
import { describe, expect, it } from "vitest";
import { agentOperation, callOperation } from "../../src/operations/agent-call.js";
import { shown } from "../../src/util/shown.js";
import { repoRoot } from "../helpers/fixture-files.js";

const ctx = { cwd: repoRoot, access: [repoRoot], open: { noCache: true } };
const pdf = "test/fixtures/paper.pdf";

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

async function refusal(name: string, args: Record<string, unknown>) {
  try {
    await callOperation(agentOperation(name), args, ctx);
  } catch (error) {
    return error as { code: string; message: string; details?: { path?: string } };
  }
  throw new Error(`${name} accepted the arguments`);
}

describe("arguments nested deep or very large", () => {
  const deep = nested(100_000);
  it.each([
    ["verify", { pdf, evidence: deep }, "EVIDENCE_INVALID", "evidence[0]"],
    [
      "verify",
      { pdf, evidence: [{ kind: "page", page: 1, id: deep }] },
      "EVIDENCE_INVALID",
      "evidence[0].id",
    ],
    ["check_text", { pdf, draft: deep }, "USAGE", "draft"],
    [
      "cite_check",
      { sources: [{ path: pdf }], citations: [{ page: 1, quote: deep, bounding_box: deep }] },
      "USAGE",
      "citations[0].quote",
    ],
  ])("%s: a value nested 100,000 levels deep is a coded error", async (name, args, code, path) => {
    const error = await refusal(name, args);
    expect(error.code).toBe(code);
    expect(error.details?.path).toBe(path);
    expect(error.message.length).toBeLessThan(300);
  });

  it("a draft given as an array of 5 million items is a coded error with a short message", async () => {
    const error = await refusal("check_text", { pdf, draft: new Array(5_000_000).fill("word") });
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain('(got ["word","word"');
    expect(error.message.length).toBeLessThan(300);
  });
});

describe("a value as a message shows it", () => {
  it("small values as their JSON", () => {
    expect(shown("p. 3")).toBe('"p. 3"');
    expect(shown(-1.5)).toBe("-1.5");
    expect(shown({ page: 2, kind: "page" })).toBe('{"page":2,"kind":"page"}');
    expect(shown(undefined)).toBe("undefined");
  });

  it("long and deep values cut short", () => {
    expect(shown("x".repeat(1000))).toHaveLength(80);
    expect(shown(nested(20))).toBe(`${"[".repeat(8)}[...]${"]".repeat(8)}`);
    expect(shown(Array.from({ length: 11 }, (_, i) => i))).toBe("[0,1,2,3,4,5,6,7,8,9,...]");
  });
});
