// `citeproof mcp --http` on a free loopback port for an attack: a token file of its own, the URL it
// serves at once it listens, and a stop that waits for it and removes its folder.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = fileURLToPath(new URL("../..", import.meta.url));
export const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
export const TOKEN = "attack-token-0123456789abcdef";

/** Starts the server with `args` after the address and token; resolves once it serves. */
export async function startMcpHttp(args) {
  const dir = mkdtempSync(join(tmpdir(), "citeproof-attack-mcp-"));
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, TOKEN);
  const child = spawn(
    process.execPath,
    [cli, "mcp", "--http", "127.0.0.1:0", "--token-file", tokenFile, ...args],
    {
      cwd: repo,
      env: { ...process.env, CITEPROOF_CACHE_DIR: join(dir, "cache") },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const stop = async () => {
    child.kill("SIGTERM");
    if (child.exitCode === null && child.signalCode === null) await once(child, "exit").catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  let log = "";
  try {
    const url = await new Promise((resolve, reject) => {
      child.stderr.on("data", (d) => {
        log += d;
        const served = /serving (http:\/\/\S+)/.exec(log);
        if (served) resolve(served[1]);
      });
      child.once("exit", (code) => reject(new Error(`mcp --http exited ${code}: ${log}`)));
    });
    return { child, url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The headers of a POST to the server: JSON, the answers MCP clients take, the token; then `extra`. */
export function postHeaders(extra = {}) {
  return {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    Authorization: `Bearer ${TOKEN}`,
    ...extra,
  };
}
