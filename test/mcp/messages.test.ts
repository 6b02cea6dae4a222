// One JSON-RPC message screened before the SDK reads it: the refusals and their codes, a batch
// counted without being parsed, and the depth read outside strings.
import { describe, expect, it } from "vitest";
import { nestingDepth, screenMessage, topLevelItems } from "../../src/mcp/messages.js";

const refusal = (text: string) => {
  const screened = screenMessage(text);
  return "refused" in screened ? [screened.refused.id, screened.refused.code] : "passed";
};

describe("screenMessage", () => {
  it("refuses each kind of malformed message with its code, and the id when it can be read", () => {
    expect(refusal("{not json")).toEqual([null, -32700]);
    expect(refusal("7")).toEqual([null, -32600]);
    expect(refusal('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toEqual([null, -32600]);
    expect(refusal('{"id":2,"method":"ping"}')).toEqual([2, -32600]);
    expect(refusal('{"jsonrpc":"2.0","id":"a"}')).toEqual(["a", -32600]);
    expect(refusal('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[]}')).toEqual([3, -32602]);
    expect(
      refusal('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"v","arguments":[]}}'),
    ).toEqual([4, -32602]);
    expect(
      refusal(
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"v","arguments":{"__proto__":{}}}}',
      ),
    ).toEqual([5, -32602]);
    expect(
      refusal(`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"a":${"[".repeat(65)}${"]".repeat(65)}}}`),
    ).toEqual([6, -32600]);
    expect(
      refusal('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"v","arguments":{"a":1}}}'),
    ).toBe("passed");
    expect(refusal('{"jsonrpc":"2.0","id":8,"result":{}}')).toBe("passed");
  });

  it("counts a batch's messages without parsing it, brackets inside strings not counted", () => {
    expect(topLevelItems("[]")).toBe(0);
    expect(topLevelItems(" [ ] ")).toBe(0);
    expect(topLevelItems("[1]")).toBe(1);
    expect(topLevelItems('[{"a":[1,2,3]},{"b":"],["},3]')).toBe(3);
    expect(topLevelItems(`[${Array(1_000_000).fill("{}").join(",")}]`)).toBe(1_000_000);
    expect(nestingDepth('{"a":"[[[[","b":[[1]]}')).toBe(3);
  });
});
