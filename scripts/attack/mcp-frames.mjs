// Malformed MCP frames, seeded, sent to `citeproof mcp` over stdio (all in one session) and over HTTP
// (one POST each), then a valid call that must still be answered. Every frame must get exactly one
// answer that is a coded refusal: a JSON-RPC error -32700/-32600/-32601/-32602 with a short message,
// or a tool result carrying a coded error other than INTERNAL. An INTERNAL, a -32603, a zod dump, a
// frame left unanswered, a 5xx or a server that exits is a crash; no answer within the deadline a hang.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cli, postHeaders, repo, startMcpHttp } from "./mcp-http-server.mjs";
import { rng } from "./seeded.mjs";

const pdf = "test/fixtures/paper.pdf";
const PROTOCOL_CODES = new Set([-32700, -32600, -32601, -32602]);

/**
 * The frames: [text, id the answer must carry]. `null`: the frame's id cannot be read, and the answer
 * carries null.
 */
export function hostileFrames(count, seed) {
  const random = rng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const call = (id, params) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
  const nested = (depth, open, close) => `${open.repeat(depth)}1${close.repeat(depth)}`;
  const makers = [
    () => [pick(["{", "not json", '{"jsonrpc":"2.0","id":', "\u0000\u0001", "{'a':1}", "[1,]", "{}}"]), null],
    () => [pick(["null", "1", '"text"', "true", "[]"]), null],
    (id) => [JSON.stringify([{ jsonrpc: "2.0", id, method: "tools/list" }]), null],
    () => [
      JSON.stringify(Array.from({ length: 100 }, (_, k) => ({ jsonrpc: "2.0", id: k, method: "ping" }))),
      null,
    ],
    (id) => [call(id, pick([null, [], "verify", 7])), id],
    (id) => [call(id, { name: pick([undefined, 7, null, ["verify"]]), arguments: {} }), id],
    (id) => [call(id, { name: "verify", arguments: pick([[], [1, 2], "pdf", 3, true]) }), id],
    (id) => [
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"verify","arguments":{"pdf":"${pdf}","__proto__":{"evidence":[]}}}}`,
      id,
    ],
    (id) => [
      call(id, {
        name: "verify",
        arguments: { pdf, evidence: [], [pick(["constructor", "toString", "Pdf", ""])]: 1 },
      }),
      id,
    ],
    (id) => [
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"verify","arguments":{"pdf":"${pdf}","evidence":${nested(pick([65, 5000, 100_000]), "[", "]")}}}}`,
      id,
    ],
    (id) => [
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"verify","arguments":{"pdf":${nested(pick([65, 5000]), '{"a":', "}")}}}}`,
      id,
    ],
    (id) => [call(id, { name: pick(["nope", "verify ", "VERIFY", "x".repeat(10_000)]), arguments: {} }), id],
    (id) => [
      JSON.stringify({ jsonrpc: "2.0", id, method: pick(["nope", "tools/nope", "x".repeat(100_000)]) }),
      id,
    ],
    (id) => [JSON.stringify({ jsonrpc: pick(["1.0", 2, undefined]), id, method: "tools/list" }), id],
    (id) => [JSON.stringify({ jsonrpc: "2.0", id }), id],
    (id) => [
      call(id, {
        name: "verify",
        arguments: { pdf: pick(["/etc/passwd", "/etc/none", "../../x.pdf", 7]), evidence: [] },
      }),
      id,
    ],
    (id) => [
      call(id, {
        name: "cite_check",
        arguments: {
          sources: [
            {
              url: pick([
                "http://127.0.0.1:1/a.pdf",
                "http://localhost/a.pdf",
                "http://169.254.169.254/",
                "http://[::1]/",
              ]),
            },
          ],
          citations: [{ quote: "x", page: 1, bounding_box: { left: 0, bottom: 0, right: 1, top: 1 } }],
        },
      }),
      id,
    ],
  ];
  return Array.from({ length: count }, (_, k) => makers[k % makers.length](`f${k}`));
}

/** Whether an answer is a coded refusal: a protocol error briefly told, or a coded tool error. */
export function codedAnswer(answer) {
  if (answer?.error) {
    const message = String(answer.error.message ?? "");
    return PROTOCOL_CODES.has(answer.error.code) && message.length < 2000 && !message.includes("\n");
  }
  const content = answer?.result?.content?.[0]?.text;
  if (answer?.result?.isError !== true || typeof content !== "string") return false;
  const code = JSON.parse(content)?.error?.code;
  return typeof code === "string" && code !== "INTERNAL";
}

const init = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "attack", version: "1" } },
};
const valid = JSON.stringify({
  jsonrpc: "2.0",
  id: "valid",
  method: "tools/call",
  params: { name: "verify", arguments: { pdf, evidence: [{ kind: "page", page: 1 }] } },
});

export async function mcpFrameAttack({ count, seed }) {
  const frames = hostileFrames(count, seed);
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, hangs: 0, worst: "" };
  await overStdio(frames, stats);
  await overHttp(frames, stats);
  const { worst, ...row } = stats;
  if (worst) process.stderr.write(`mcp frames: ${worst}\n`);
  return row;
}

async function overStdio(frames, stats) {
  const child = spawn(process.execPath, [cli, "mcp", "--no-cache"], {
    cwd: repo,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.resume();
  const lines = [
    JSON.stringify(init),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  ];
  child.stdin.end(`${[...lines, ...frames.map(([text]) => text), valid].join("\n")}\n`);
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const [status, signal] = await once(child, "exit");
  clearTimeout(timer);
  stats.tried += frames.length + 1;
  if (signal === "SIGKILL") {
    stats.hangs++;
    stats.worst += "stdio: hang; ";
    return;
  }
  const answers = out
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const byId = new Map();
  for (const a of answers) byId.set(JSON.stringify(a.id), [...(byId.get(JSON.stringify(a.id)) ?? []), a]);
  const nullAnswers = byId.get("null") ?? [];
  const nullFrames = frames.filter(([, id]) => id === null).length;
  for (const [, id] of frames.filter(([, id]) => id !== null)) {
    const got = byId.get(JSON.stringify(id)) ?? [];
    if (got.length === 1 && codedAnswer(got[0])) stats.coded++;
    else {
      stats.crashes++;
      stats.worst += `stdio ${id}: ${JSON.stringify(got).slice(0, 200)}; `;
    }
  }
  const codedNulls = nullAnswers.filter(codedAnswer).length;
  stats.coded += Math.min(codedNulls, nullFrames);
  if (codedNulls !== nullFrames || nullAnswers.length !== nullFrames) {
    stats.crashes += Math.abs(nullFrames - codedNulls) || 1;
    stats.worst += `stdio: ${nullAnswers.length} answers with id null for ${nullFrames} unreadable frames; `;
  }
  const last = byId.get('"valid"')?.[0];
  if (status === 0 && last?.result && !last.result.isError) stats.verdicts++;
  else {
    stats.crashes++;
    stats.worst += `stdio: the valid call after the frames: ${JSON.stringify(last).slice(0, 200)} (exit ${status}); `;
  }
}

async function overHttp(frames, stats) {
  const { child, url, stop } = await startMcpHttp(["--allow-root", repo, "--no-cache"]);
  try {
    const post = async (body) => {
      const response = await fetch(url, {
        method: "POST",
        headers: postHeaders(),
        body,
        signal: AbortSignal.timeout(60_000),
      });
      return { status: response.status, text: await response.text() };
    };
    for (const [text, id] of [...frames, [valid, "valid"]]) {
      stats.tried++;
      let answer;
      try {
        answer = await post(text);
      } catch (error) {
        if (error?.name === "TimeoutError") stats.hangs++;
        else stats.crashes++;
        stats.worst += `http ${id}: ${error?.name ?? error}; `;
        continue;
      }
      let body;
      try {
        body = JSON.parse(answer.text);
      } catch {
        body = undefined;
      }
      if (id === "valid") {
        if (answer.status === 200 && body?.result && !body.result.isError) stats.verdicts++;
        else {
          stats.crashes++;
          stats.worst += `http: the valid call: ${answer.status} ${answer.text.slice(0, 200)}; `;
        }
      } else if (answer.status < 500 && body?.id === id && codedAnswer(body)) stats.coded++;
      else {
        stats.crashes++;
        stats.worst += `http ${id}: ${answer.status} ${answer.text.slice(0, 200)}; `;
      }
    }
    if (child.exitCode !== null) {
      stats.crashes++;
      stats.worst += `http: the server exited ${child.exitCode}; `;
    }
  } finally {
    await stop();
  }
}
