// The MCP server's input held to a limit: lines within it pass whole, one a chunk, however they
// arrive; a line over it is dropped as it streams in and reported with its length and request id.
import { describe, expect, it } from "vitest";
import { boundedLines, type DroppedLine } from "../../src/mcp/bounded-lines.js";

async function feed(chunks: string[], max: number): Promise<{ lines: string[]; dropped: DroppedLine[] }> {
  const dropped: DroppedLine[] = [];
  const stream = boundedLines(max, (line) => dropped.push(line));
  const lines: string[] = [];
  stream.on("data", (chunk: Buffer) => lines.push(chunk.toString("utf8")));
  const ended = new Promise((resolve) => stream.on("end", resolve));
  for (const c of chunks) stream.write(Buffer.from(c, "utf8"));
  stream.end();
  await ended;
  return { lines, dropped };
}

describe("the MCP input held to a limit", () => {
  it("passes lines within the limit whole, one a chunk, however the chunks cut them", async () => {
    const { lines, dropped } = await feed(['{"a":1}\n{"b"', ':2}\n{"c":3}\n{"d":', "4}\n"], 10);
    expect(lines).toEqual(['{"a":1}\n', '{"b":2}\n', '{"c":3}\n', '{"d":4}\n']);
    expect(dropped).toEqual([]);
  });

  it("passes a line of exactly the limit and drops one a byte longer, going on after it", async () => {
    const { lines, dropped } = await feed(["aaaaa\nbbbbbb\n", "cc\n"], 5);
    expect(lines).toEqual(["aaaaa\n", "cc\n"]);
    expect(dropped).toEqual([{ bytes: 6, id: null }]);
  });

  it("counts bytes, not characters", async () => {
    const { lines, dropped } = await feed(["ééé\n", "éé\n"], 5);
    expect(lines).toEqual(["éé\n"]);
    expect(dropped).toEqual([{ bytes: 6, id: null }]);
  });

  it("drops a long line arriving in many chunks and reads its id from its end", async () => {
    const head = '{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"x":"';
    const chunks = [head, ...Array.from({ length: 100 }, () => "y".repeat(1000)), '"}},"id":42}\n{"ok":1}\n'];
    const { lines, dropped } = await feed(chunks, 1000);
    expect(lines).toEqual(['{"ok":1}\n']);
    expect(dropped).toHaveLength(1);
    expect(dropped[0].id).toBe(42);
    expect(dropped[0].bytes).toBe(chunks.join("").indexOf("\n"));
  });

  it("reads a string id, and no id from a line whose last member is nested", async () => {
    const long = "z".repeat(50);
    const { dropped } = await feed(
      [`{"params":{"a":"${long}"},"id":"call-7"}\n`, `{"params":{"a":"${long}","id":3}}\n`],
      20,
    );
    expect(dropped.map((d) => d.id)).toEqual(["call-7", null]);
  });

  it("reports a line over the limit that the input ends inside", async () => {
    const { lines, dropped } = await feed(["ok\n", "x".repeat(30)], 10);
    expect(lines).toEqual(["ok\n"]);
    expect(dropped).toEqual([{ bytes: 30, id: null }]);
  });
});
