// The agent's call: verify of 20 quotations on a cached 16-page paper (the corpus's typical paper, else
// the test fixtures' paper), each call's quotations new to the server (so its results are not in the
// results cache: the page records are), with some naming the wrong page and some false:
// - over MCP HTTP (`citeproof mcp --http`, the SDK's own client), 20 concurrent clients;
// - over MCP stdio (`citeproof mcp`), one client with 20 calls in flight at once;
// - through `citeproof serve`, 20 `citeproof verify` processes at once (each pays Node's start).
// Figures: p50 and p99 latency per call, calls per second, errors; the server's CPU per call; the
// size of a call's JSON answer. Targets (HTTP): p50 <= 50 ms, p99 <= 150 ms, no error.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { measure } from "./lib/measure.mjs";
import { benchOut, cliPath, corpusDir, root } from "./lib/paths.mjs";
import { makeQuotations } from "./lib/quotations.mjs";
import { startServe } from "./lib/start-serve.mjs";

const CLIENTS = 20;
// Node flags for the servers (`--cpu-prof` to see where a call's time goes): $CITEPROOF_BENCH_SERVER_FLAGS.
const nodeFlags = (process.env.CITEPROOF_BENCH_SERVER_FLAGS ?? "").split(" ").filter(Boolean);
const CALLS_PER_CLIENT = 10;
const QUOTATIONS = 20;
const TOKEN = "bench-token-0123456789abcdef";
const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : "n/a");
const mark = (ok) => (ok ? "OK" : "MISS");

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The server process's CPU so far (user + sys, every thread), in seconds, from /proc. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

function summary(label, latencies, wallS, errors, cpuS, extra = "") {
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  return {
    p50,
    p99,
    line:
      `${label}: p50 ${ms(p50)} ms, p99 ${ms(p99)} ms, ${ms(latencies.length / wallS)} calls/s, ` +
      `${Number.isFinite(cpuS) ? `server cpu ${ms((cpuS * 1000) / latencies.length)} ms a call, ` : ""}${errors} error(s)${extra}`,
  };
}

/** Runs `calls` concurrently in `lanes` lanes, each lane one call after the other; latency per call. */
async function lanes(count, perLane, call) {
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, lane) => {
      for (let n = 0; n < perLane; n++) {
        const t = performance.now();
        try {
          if (!(await call(lane, n))) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, errors, wallS: (performance.now() - started) / 1000 };
}

function waitFor(child, pattern) {
  let log = "";
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (c) => {
      log += String(c);
      const m = pattern.exec(log);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${log.trim()}`)));
  });
}

export async function run() {
  const sdk = (path) =>
    import(
      pathToFileURL(join(root, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", path)).href
    );
  const { Client } = await sdk("client/index.js");
  const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
  const { StdioClientTransport } = await sdk("client/stdio.js");
  const typical = join(corpusDir, "acm-sigplan-lregex.pdf");
  const pdf = existsSync(typical) ? typical : join(root, "test", "fixtures", "paper.pdf");
  const dir = benchOut("mcp-http", String(process.pid));
  mkdirSync(dir, { recursive: true });
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, TOKEN);
  const cache = join(dir, "cache");
  // Every call of every transport gets quotations of its own: 4 pools of CLIENTS x CALLS_PER_CLIENT calls.
  const calls = CLIENTS * CALLS_PER_CLIENT;
  const pool = makeQuotations(pdf, {
    count: 4 * calls * QUOTATIONS,
    wrongPage: 4 * calls,
    falseCount: 4 * calls,
    seed: 38,
  });
  let next = 0;
  const evidence = () => {
    const records = pool.slice(next, next + QUOTATIONS);
    next += QUOTATIONS;
    return records;
  };
  const args = (records) => ({ pdf, evidence: records });
  const serverArgs = ["--allow-root", dirname(pdf), "--cache-dir", cache];
  const lines = [
    `load ${loadavg()[0].toFixed(1)}; ${pdf}, ${QUOTATIONS} quotations a call, each call's new to the server`,
  ];
  const children = [];
  try {
    // HTTP.
    const http = spawn(
      process.execPath,
      [
        ...nodeFlags,
        cliPath,
        "mcp",
        "--http",
        "127.0.0.1:0",
        "--token-file",
        tokenFile,
        ...serverArgs,
        "--queue-timeout-ms",
        "60000",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    children.push(http);
    const url = await waitFor(http, /serving (http:\/\/\S+)/);
    const connect = async () => {
      const c = new Client({ name: "citeproof-bench", version: "1.0.0" });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        }),
      );
      return c;
    };
    // Fill the cache: the page records (and the token index) of the paper.
    const warmer = await connect();
    const first = await warmer.callTool({ name: "verify", arguments: args(evidence()) });
    const answerBytes = Buffer.byteLength(JSON.stringify(first));
    await warmer.close();
    const clients = await Promise.all(Array.from({ length: CLIENTS }, connect));
    const verified = (r) => !r.isError;
    const cpuBefore = cpuOf(http.pid);
    const h = await lanes(CLIENTS, CALLS_PER_CLIENT, (k) =>
      clients[k].callTool({ name: "verify", arguments: args(evidence()) }).then(verified),
    );
    const httpFig = summary(
      `mcp http, ${CLIENTS} clients x ${CALLS_PER_CLIENT} calls (--max-concurrent 4)`,
      h.latencies,
      h.wallS,
      h.errors,
      cpuOf(http.pid) - cpuBefore,
      `; answer ${(answerBytes / 1024).toFixed(1)} KiB`,
    );
    lines.push(
      `${httpFig.line}; p50 <= 50 ms ${mark(httpFig.p50 <= 50)}, p99 <= 150 ms ${mark(httpFig.p99 <= 150)}, no error ${mark(h.errors === 0)}`,
    );
    await Promise.all(clients.map((c) => c.close()));

    // stdio: one client, CLIENTS calls in flight.
    const stdio = new Client({ name: "citeproof-bench", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...nodeFlags, cliPath, "mcp", ...serverArgs],
      stderr: "ignore",
    });
    await stdio.connect(transport);
    await stdio.callTool({ name: "verify", arguments: args(evidence()) });
    const stdioPid = transport.pid;
    const cpuStdio = cpuOf(stdioPid);
    const o = await lanes(CLIENTS, CALLS_PER_CLIENT, () =>
      stdio.callTool({ name: "verify", arguments: args(evidence()) }).then(verified),
    );
    lines.push(
      summary(
        `mcp stdio, ${CLIENTS} calls in flight x ${CALLS_PER_CLIENT}`,
        o.latencies,
        o.wallS,
        o.errors,
        cpuOf(stdioPid) - cpuStdio,
      ).line,
    );
    await stdio.close();

    // serve: CLIENTS verify processes at once, through a resident server.
    const runtime = join(dir, "runtime");
    mkdirSync(runtime, { recursive: true, mode: 0o700 });
    const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
    const serve = await startServe(cliPath, env);
    children.push(serve);
    const files = [];
    const verifyVia = async () => {
      const file = join(dir, `evidence-${next}.json`);
      writeFileSync(file, JSON.stringify(evidence()));
      files.push(file);
      const r = await measure(
        process.execPath,
        [cliPath, "verify", pdf, "--evidence", file, "--json", "--cache-dir", cache],
        { env },
      );
      return (r.code === 0 || r.code === 1) && r.stdout.startsWith("{");
    };
    await verifyVia();
    const cpuServe = cpuOf(serve.pid);
    const v = await lanes(CLIENTS, 2, verifyVia);
    lines.push(
      summary(
        `serve, ${CLIENTS} verify processes at once x 2 (each its own Node start)`,
        v.latencies,
        v.wallS,
        v.errors,
        cpuOf(serve.pid) - cpuServe,
      ).line,
    );
    return lines;
  } finally {
    for (const child of children) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const l of await run()) console.log(l);
}
