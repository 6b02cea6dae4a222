// `citeproof serve` against its clients: five clients killed while their calls wait, then a CLI call
// that must be answered (through the server or in-process) within its own deadline; request lines
// over the 1 MiB bound, with and without their newline; requests naming the caller's own streams
// (/dev/stdin, /proc/self/fd/0), which the server must refuse; and rounds of four servers started at
// once, of which exactly one may listen. A refusal is coded; a server that dies, answers what it must
// refuse, or a second server listening is a crash; a call past its deadline a hang.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { join } from "node:path";
import { cli, runCli } from "./child-run.mjs";

const require = createRequire(import.meta.url);
const { buildId, servedEnvironment, socketPath } = require("../../dist/cli/serve-socket.cjs");
const paper = new URL("../../test/fixtures/paper.pdf", import.meta.url).pathname;
const slowPdf = new URL("../../test/fixtures/eq-layouts.pdf", import.meta.url).pathname;

export async function serveClientAttack(dir, { rounds }) {
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, hangs: 0, worst: "" };
  mkdirSync(dir, { recursive: true });
  const evidence = join(dir, "evidence.json");
  writeFileSync(evidence, JSON.stringify([{ id: "p", kind: "page", page: 1 }]));
  const fail = (what) => {
    stats.crashes++;
    stats.worst += `${what}; `;
  };
  let n = 0;
  const runtime = () => {
    const root = join(dir, `run-${n++}`);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    return {
      ...process.env,
      XDG_RUNTIME_DIR: root,
      CITEPROOF_CACHE_DIR: join(dir, "cache"),
      CITEPROOF_SERVE: "",
    };
  };
  const request = (args, env) =>
    `${JSON.stringify({ protocol: 1, build: buildId(), cwd: process.cwd(), env: servedEnvironment(env), args })}\n`;

  // Killed clients, then a call that must not wait behind their work.
  for (let round = 0; round < rounds; round++) {
    const env = runtime();
    const server = await startServe(env);
    if (!server.listening) {
      fail(`serve did not start: ${server.log()}`);
      continue;
    }
    const socket = socketPath(env);
    const clients = Array.from({ length: 5 }, () => {
      const s = connect(socket);
      s.on("error", () => {});
      s.write(request(["anchors", slowPdf, "--no-cache", "--json"], env));
      return s;
    });
    await new Promise((r) => setTimeout(r, 100));
    for (const s of clients) s.destroy();
    stats.tried++;
    const started = Date.now();
    const run = await runCli(["verify", paper, "--evidence", evidence, "--json"], { timeoutMs: 65_000, env });
    if (run.hung || Date.now() - started > 60_000) {
      stats.hangs++;
      stats.worst += "a call waited behind killed clients' work past its deadline; ";
    } else if (run.status === 0 || run.status === 1) stats.verdicts++;
    else fail(`the call after the killed clients: exit ${run.status} ${run.stderr.slice(0, 200)}`);

    // Lines over the bound, and the caller's own streams: each refused, the server alive after.
    const refusals = [
      Buffer.alloc(2 * 1024 * 1024, 0x61),
      `${"b".repeat(1024 * 1024 + 1)}\n`,
      request(["verify", paper, "--evidence", "/dev/stdin", "--json"], env),
      request(["verify", paper, "--evidence", "/proc/self/fd/0", "--json"], env),
    ];
    for (const data of refusals) {
      stats.tried++;
      const reply = await exchange(socket, data, 10_000);
      if (reply === undefined) {
        stats.hangs++;
        stats.worst += "a request the server must refuse went unanswered; ";
      } else if (/"refused"/.test(reply)) stats.coded++;
      else fail(`answered instead of refused: ${reply.slice(0, 120)}`);
    }
    if (server.child.exitCode !== null) fail(`serve exited ${server.child.exitCode}`);
    await server.stop();
  }

  // Servers started together: one listens.
  for (let round = 0; round < rounds * 2; round++) {
    const env = runtime();
    const started = await Promise.all(Array.from({ length: 4 }, () => startServe(env)));
    stats.tried++;
    const listening = started.filter((s) => s.listening).length;
    if (listening === 1) stats.verdicts++;
    else fail(`${listening} of 4 servers started together listen`);
    await Promise.all(started.map((s) => s.stop()));
  }
  const { worst, ...row } = stats;
  if (worst) process.stderr.write(`serve clients: ${worst}\n`);
  return row;
}

/** Starts `citeproof serve`; resolves once it listens or has exited. */
function startServe(env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "serve", "--idle-timeout-ms", "120000"], {
      env,
      stdio: ["pipe", "ignore", "pipe"],
    });
    let log = "";
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    };
    child.stderr.on("data", (d) => {
      log += d;
      if (log.includes("citeproof serve: listening on"))
        resolve({ child, listening: true, log: () => log, stop });
    });
    child.on("exit", () => resolve({ child, listening: false, log: () => log, stop }));
  });
}

/** Sends `data` and resolves with what comes back before the socket closes, or undefined after `ms`. */
function exchange(socket, data, ms) {
  return new Promise((resolve) => {
    const s = connect(socket);
    let got = "";
    const timer = setTimeout(() => {
      s.destroy();
      resolve(undefined);
    }, ms);
    const done = () => {
      clearTimeout(timer);
      resolve(got);
    };
    s.on("data", (d) => {
      got += d;
    });
    s.on("error", done);
    s.on("close", done);
    s.write(data);
  });
}
