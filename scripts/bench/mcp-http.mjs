// MCP over HTTP: 20 concurrent clients (the SDK's own) calling verify on PDFs already in the cache,
// against one `citeproof mcp --http` server. Figures: p50 and p99 latency per call, calls per second
// over the whole run, and the calls that failed (target: none).
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { benchOut, cliPath, root } from "./lib/paths.mjs";

const CLIENTS = 20;
const CALLS_PER_CLIENT = 10;
const TOKEN = "bench-token-0123456789abcdef";
const s = (x) => (Number.isFinite(x) ? x.toFixed(1) : "n/a");

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function run() {
  const sdk = (path) =>
    import(
      pathToFileURL(join(root, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", path)).href
    );
  const { Client } = await sdk("client/index.js");
  const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
  const dir = benchOut("mcp-http", String(process.pid));
  mkdirSync(dir, { recursive: true });
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, TOKEN);
  const fixtures = join(root, "test", "fixtures");
  const pdfs = readdirSync(fixtures)
    .filter((f) => f.endsWith(".pdf") && f !== "encrypted.pdf")
    .map((f) => join(fixtures, f));
  const server = spawn(
    process.execPath,
    [
      cliPath,
      "mcp",
      "--http",
      "127.0.0.1:0",
      "--token-file",
      tokenFile,
      "--allow-root",
      fixtures,
      "--cache-dir",
      join(dir, "cache"),
      "--max-concurrent",
      "4",
      "--queue-timeout-ms",
      "60000",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  const url = await new Promise((resolve, reject) => {
    server.stderr.on("data", (c) => {
      log += String(c);
      const m = /serving (http:\/\/\S+)/.exec(log);
      if (m) resolve(m[1]);
    });
    server.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  const connect = async () => {
    const c = new Client({ name: "citeproof-bench", version: "1.0.0" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    return c;
  };
  const args = (i) => ({
    pdf: pdfs[i % pdfs.length],
    evidence: [
      { kind: "page", page: 1 },
      { kind: "quotation", page: 1, text: "words the page may or may not print" },
    ],
  });
  try {
    // Fill the cache: one call per PDF.
    const warmer = await connect();
    for (let i = 0; i < pdfs.length; i++) await warmer.callTool({ name: "verify", arguments: args(i) });
    await warmer.close();
    const clients = await Promise.all(Array.from({ length: CLIENTS }, connect));
    const latencies = [];
    let errors = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (c, k) => {
        for (let n = 0; n < CALLS_PER_CLIENT; n++) {
          const t = performance.now();
          try {
            const r = await c.callTool({ name: "verify", arguments: args(k * CALLS_PER_CLIENT + n) });
            if (r.isError) errors++;
          } catch {
            errors++;
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
    const wallS = (performance.now() - started) / 1000;
    await Promise.all(clients.map((c) => c.close()));
    latencies.sort((a, b) => a - b);
    return [
      `mcp http: ${CLIENTS} clients x ${CALLS_PER_CLIENT} verify calls on ${pdfs.length} cached PDFs (--max-concurrent 4): ` +
        `p50 ${s(percentile(latencies, 50))} ms, p99 ${s(percentile(latencies, 99))} ms, ${s(latencies.length / wallS)} calls/s, ` +
        `${errors} error(s) (target: none) ${errors === 0 ? "OK" : "MISS"}`,
    ];
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}
