/**
 * `citeproof serve`: a resident process that runs CLI calls sent over the user's own socket, so
 * repeated calls skip start-up (Node, the engine's compile, the warm-up of the code) and share one
 * extraction worker. Calls run side by side, each exactly as the CLI runs it in-process, with an Io of
 * its own (its output collected and sent back whole, its exit code returned); it ends after an idle
 * timeout, or on SIGINT / SIGTERM. A call's relative paths are read from the working directory, so the
 * calls of one directory run together and a call from another waits until those in flight end (Lanes).
 */
import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import type { Command } from "commander";
import { closeEngine } from "../../document/engine-client.js";
import { CiteproofError } from "../../errors.js";
import type { CommandIo, Io } from "../cli-io.js";
import { EXIT_CLEAN, positiveInt, runAction } from "../io.js";
import { commandOf, preloadCommands, runProgram } from "../program.js";
import { Lanes } from "../serve-lanes.js";
import { SERVED_COMMANDS } from "../serve-mode.cjs";
import {
  buildId,
  notOurs,
  SERVE_PROTOCOL,
  type ServeReply,
  type ServeRequest,
  serveDir,
  servedEnvironment,
  socketPath,
} from "../serve-socket.cjs";

export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

interface ServeFlags {
  idleTimeoutMs: string;
}

export function register(program: Command, io: CommandIo): void {
  program
    .command("serve")
    .description(
      "stay resident and run verify, check-text, cite-check and anchors calls sent by the CLI over a socket of the user's own",
    )
    .option(
      "--idle-timeout-ms <ms>",
      "end after this long without a call, in milliseconds",
      String(DEFAULT_IDLE_TIMEOUT_MS),
    )
    .action((flags: ServeFlags) =>
      runAction(io, false, async () => {
        const idleMs = positiveInt(flags.idleTimeoutMs, "--idle-timeout-ms") ?? DEFAULT_IDLE_TIMEOUT_MS;
        await serve(idleMs, io);
        return EXIT_CLEAN;
      }),
    );
}

async function serve(idleMs: number, io: Io): Promise<void> {
  const dir = serveDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dirProblem = notOurs(dir, "directory");
  if (dirProblem)
    throw new CiteproofError("ACCESS_DENIED", `the serve folder is not safe to use: ${dirProblem}`);
  const path = socketPath();
  await removeStale(path);
  const server = createServer((socket) => receive(socket, io));
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new CiteproofError("ACCESS_DENIED", `cannot listen on ${path} (${error.code ?? error.message})`),
      ),
    );
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  io.stderr.write(`citeproof serve: listening on ${path}; ends after ${idleMs} ms without a call\n`);
  // A module that fails to load fails the call that runs it, with its own error.
  preloadCommands(SERVED_COMMANDS).catch(() => {});
  await new Promise<void>((resolve) => {
    const end = () => {
      clearTimeout(idle.timer);
      server.close();
      rmSync(path, { force: true });
      resolve();
    };
    const idle = { timer: setTimeout(end, idleMs) };
    onIdle = () => {
      clearTimeout(idle.timer);
      idle.timer = setTimeout(end, idleMs);
    };
    onBusy = () => clearTimeout(idle.timer);
    process.once("SIGINT", end);
    process.once("SIGTERM", end);
  });
  await closeEngine();
}

/** A socket file left by a server that is gone is removed; one a live server answers on is an error. */
async function removeStale(path: string): Promise<void> {
  const problem = notOurs(path, "socket");
  if (problem === "absent") return;
  if (problem) throw new CiteproofError("ACCESS_DENIED", `the serve socket is not safe to use: ${problem}`);
  const live = await new Promise<boolean>((resolve) => {
    const probe = createConnection(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (live) throw new CiteproofError("USAGE", `a citeproof serve is already listening on ${path}`);
  rmSync(path, { force: true });
}

let onIdle: () => void = () => {};
let onBusy: () => void = () => {};
let pending = 0;

const lanes = new Lanes();

function receive(socket: Socket, io: Io): void {
  const chunks: Buffer[] = [];
  socket.on("error", () => socket.destroy());
  socket.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    if (!chunk.includes(0x0a)) return;
    socket.removeAllListeners("data");
    const line = Buffer.concat(chunks);
    pending++;
    onBusy();
    void (async () => {
      const started = Date.now();
      const reply = await answer(line.subarray(0, line.indexOf(0x0a)).toString("utf8"));
      io.stderr.write(
        `citeproof serve: ${"refused" in reply ? `refused (${reply.refused})` : `ran, exit ${reply.exitCode}`} in ${Date.now() - started} ms\n`,
      );
      if (!socket.destroyed) socket.end(`${JSON.stringify(reply)}\n`);
      if (--pending === 0) onIdle();
    })();
  });
}

async function answer(line: string): Promise<ServeReply> {
  let request: ServeRequest;
  try {
    request = JSON.parse(line) as ServeRequest;
  } catch {
    return { protocol: SERVE_PROTOCOL, refused: "the request is not JSON" };
  }
  const refused = refusal(request);
  if (refused) return { protocol: SERVE_PROTOCOL, refused };
  return { protocol: SERVE_PROTOCOL, ...(await runCollected(request)) };
}

function refusal(request: ServeRequest): string | undefined {
  if (request?.protocol !== SERVE_PROTOCOL) return "another protocol";
  if (request.build !== buildId()) return "another build of citeproof";
  if (!Array.isArray(request.args) || !request.args.every((a) => typeof a === "string"))
    return "bad arguments";
  if (typeof request.cwd !== "string") return "no working directory";
  const command = commandOf(request.args);
  if (command === undefined || !SERVED_COMMANDS.includes(command)) return "not a served command";
  if (JSON.stringify(request.env) !== JSON.stringify(servedEnvironment())) return "another environment";
  return undefined;
}

/** Runs the call as the CLI would, with an Io that collects its stdout and stderr. */
async function runCollected(
  request: ServeRequest,
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const collect = (into: Buffer[]) => ({ write: (chunk: string) => into.push(Buffer.from(chunk, "utf8")) });
  let exitCode: number;
  try {
    exitCode = await lanes.run(request.cwd, () =>
      runProgram([process.argv[0], process.argv[1], ...request.args], {
        stdout: collect(out),
        stderr: collect(err),
        cwd: process.cwd(),
        env: process.env,
      }),
    );
  } catch (error) {
    err.push(Buffer.from(`citeproof serve: ${error instanceof Error ? error.message : String(error)}\n`));
    exitCode = 2;
  }
  return {
    stdout: Buffer.concat(out).toString("base64"),
    stderr: Buffer.concat(err).toString("base64"),
    exitCode,
  };
}
