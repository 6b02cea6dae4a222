// Nested and oversized inputs, and MCP frames over the limit. Each input must end in a coded error
// (or, for the call sent after them, a verdict); INTERNAL, a stack trace, a server that stops
// answering or exits is a crash, a call past its deadline a hang.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dist = (name) => new URL(`../../dist/${name}`, import.meta.url).href;
const repo = fileURLToPath(new URL("../..", import.meta.url));
const pdf = "test/fixtures/paper.pdf";

function nested(depth) {
  let value = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

export async function badInputAttack() {
  const { callOperation, agentOperation } = await import(dist("operations/agent-call.js"));
  const { MAX_MESSAGE_BYTES } = await import(dist("mcp/bounded-lines.js"));
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, hangs: 0 };
  const ctx = { cwd: repo, access: [repo], open: { noCache: true } };
  const deep = nested(100_000);
  const page = { kind: "page", page: 1 };
  const calls = [
    ["verify", { pdf, evidence: deep }],
    ["verify", { pdf, evidence: [{ ...page, id: deep }] }],
    ["verify", { pdf, evidence: Array(100_001).fill(page) }],
    ["verify", { pdf, evidence: [{ kind: "quotation", page: 1, text: "w".repeat(20_001) }] }],
    ["verify", { pdf, evidence: Array(201).fill({ kind: "quotation", page: 1, text: "w".repeat(19_999) }) }],
    ["check_text", { pdf, draft: deep }],
    ["check_text", { pdf, draft: new Array(1_000_000).fill("word") }],
    ["cite_check", { sources: [{ path: pdf }], citations: deep }],
    ["anchors", { pdf: deep }],
    ["crop", { pdf, page: deep }],
  ];
  for (const [name, args] of calls) {
    stats.tried++;
    try {
      await callOperation(agentOperation(name), args, ctx);
      stats.crashes++; // accepted: none of these is a valid input
    } catch (error) {
      if (typeof error?.code === "string" && error.code !== "INTERNAL") stats.coded++;
      else stats.crashes++;
    }
  }

  // The MCP server, as a client would meet it: a frame over the limit, a line that is not JSON and a
  // call nested 100,000 deep, then a valid call that must still be answered.
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "attack", version: "1" } },
  };
  const call = (id, args) =>
    JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { name: "verify", arguments: args }, id });
  const frames = [
    call(2, { pdf, evidence: [{ kind: "quotation", page: 1, text: "x".repeat(MAX_MESSAGE_BYTES) }] }),
    '{"jsonrpc":"2.0","id":3,"method":',
    `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"verify","arguments":{"pdf":"${pdf}","evidence":${"[".repeat(100_000)}${"]".repeat(100_000)}}},"id":4}`,
    call(5, { pdf, evidence: [page] }),
  ];
  const lines = [
    JSON.stringify(init),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  ];
  const run = spawnSync(process.execPath, [fileURLToPath(dist("cli/main.js")), "mcp", "--no-cache"], {
    cwd: repo,
    input: `${[...lines, ...frames].join("\n")}\n`,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  // Judged: the oversized frame, the nested call (each a coded refusal) and the valid call after them.
  stats.tried += 3;
  if (run.error || run.signal) {
    stats.hangs++;
    return stats;
  }
  const replies = new Map();
  for (const line of run.stdout.split("\n")) {
    if (!line.trim()) continue;
    const reply = JSON.parse(line);
    replies.set(reply.id, reply);
  }
  const coded = (reply) =>
    reply?.error?.code === -32600 ||
    (reply?.result?.isError && !/INTERNAL/.test(reply.result.content[0].text));
  for (const id of [2, 4]) {
    if (coded(replies.get(id))) stats.coded++;
    else stats.crashes++;
  }
  const answer = replies.get(5);
  if (run.status === 0 && answer?.result && !answer.result.isError) stats.verdicts++;
  else stats.crashes++;
  return stats;
}
