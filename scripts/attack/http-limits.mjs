// `citeproof mcp --http` against what slips past per-request limits: JSON-RPC batches of 100 tool
// calls, bodies just under the cap (16 MiB of small messages, of one long string, nested deep), a
// flood of concurrent calls over --max-concurrent, and requests with a foreign Host or Origin.
// Each request must be answered or refused with a code (4xx, 503, a JSON-RPC error, a coded tool
// error); a 5xx other than 503, an INTERNAL or a server that exits is a crash; a request unanswered
// within 60 s, or a small call kept waiting more than 15 s behind a big body, a hang. Peak MB: the
// server's peak resident memory (VmHWM), against the memory budget.
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { memoryCapMb } from "./child-run.mjs";
import { postHeaders, repo, startMcpHttp } from "./mcp-http-server.mjs";

const pdf = "test/fixtures/paper.pdf";
const MIB = 1024 * 1024;

const call = (id, name, args) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

export async function httpLimitAttack({ sample }) {
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, hangs: 0, peakMb: 0, overCap: 0, worst: "" };
  const { child, url, stop } = await startMcpHttp(["--allow-root", repo, "--max-concurrent", "2"]);
  try {
    const judge = (name, outcome) => {
      stats.tried++;
      if (outcome.hung) {
        stats.hangs++;
        stats.worst += `${name}: hang; `;
        return;
      }
      const { status, body } = outcome;
      const text = body?.result?.content?.[0]?.text;
      const toolCode = body?.result?.isError ? JSON.parse(text)?.error?.code : undefined;
      if ((status >= 500 && status !== 503) || toolCode === "INTERNAL" || body?.error?.code === -32603) {
        stats.crashes++;
        stats.worst += `${name}: ${status} ${JSON.stringify(body).slice(0, 200)}; `;
      } else if (status === 200 && body?.result && !body.result.isError) stats.verdicts++;
      else stats.coded++;
    };
    const post = (body, headers = {}) => send(url, body, headers);

    // Batches of 100 calls: refused whole, none run.
    const anchors = (k) => Array.from({ length: 100 }, (_, i) => call(k * 100 + i, "anchors", { pdf }));
    const batches = await Promise.all([0, 1, 2, 3].map((k) => post(JSON.stringify(anchors(k)))));
    for (const [k, b] of batches.entries()) judge(`batch ${k}`, b);

    // Bodies under the 16 MiB cap, each while a small call is timed: it must not wait behind them.
    const bodies = [
      [
        "16 MiB of small messages",
        `[${Array(Math.floor((16 * MIB - 2) / 3))
          .fill("{}")
          .join(",")}]`.slice(0, 16 * MIB - 1),
      ],
      [
        "16 MiB string",
        JSON.stringify(call("big", "check_text", { pdf, draft: "w ".repeat(8 * MIB - 200) })),
      ],
      [
        "nested 1,000,000 deep",
        `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"verify","arguments":{"pdf":"${pdf}","evidence":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}}}`,
      ],
    ];
    for (const [name, body] of bodies.slice(0, sample ? 2 : 3)) {
      const big = post(body);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      const small = await post(JSON.stringify({ jsonrpc: "2.0", id: "small", method: "tools/list" }));
      const waited = Date.now() - started;
      judge(`${name}: the big request`, await big);
      if (waited > 15_000) judge(`${name}: a small call waited ${waited} ms`, { hung: true });
      else judge(`${name}: the small call`, small);
    }

    // More calls than slots: each answered or refused with 503.
    const flood = await Promise.all(
      Array.from({ length: sample ? 20 : 60 }, (_, i) =>
        post(JSON.stringify(call(`v${i}`, "verify", { pdf, evidence: [{ kind: "page", page: 1 }] }))),
      ),
    );
    for (const [i, f] of flood.entries()) judge(`flood ${i}`, f);

    // A foreign Host or Origin (DNS rebinding, another site's page): 403.
    const port = new URL(url).port;
    for (const headers of [
      { Host: `rebind.example:${port}` },
      { Origin: "https://evil.example" },
      { Origin: "null" },
    ]) {
      const answer = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), headers);
      if (answer.status !== 403) answer.status = 500;
      judge(`foreign ${JSON.stringify(headers)}`, answer);
    }
    if (child.exitCode !== null) {
      stats.crashes++;
      stats.worst += `the server exited ${child.exitCode}; `;
    }
    stats.peakMb = peakMb(child.pid);
    if (stats.peakMb > memoryCapMb()) stats.overCap++;
  } finally {
    await stop();
  }
  const { worst, ...row } = stats;
  if (worst) process.stderr.write(`http limits: ${worst}\n`);
  return row;
}

/** A POST with the token; resolves with the status and parsed body, or `hung` after 60 s. */
function send(url, body, headers) {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: "POST", headers: postHeaders(headers) });
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ hung: true });
    }, 60_000);
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        let parsed;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode, body: parsed });
      });
    });
    req.on("error", () => {
      clearTimeout(timer);
      resolve({ status: 599, body: undefined });
    });
    req.end(body);
  });
}

/** The process's peak resident memory in MiB (VmHWM), 0 where /proc is not there. */
function peakMb(pid) {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}
