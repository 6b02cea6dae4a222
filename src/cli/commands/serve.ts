/**
 * `citeproof serve`: a resident process that runs CLI calls sent over the user's own socket, so
 * repeated calls skip start-up (Node, the engine's compile, the warm-up of the code) and share one
 * extraction worker. Calls run side by side, each exactly as the CLI runs it in-process, with an Io of
 * its own (its output collected and sent back whole, its exit code returned); it ends after an idle
 * timeout, or on SIGINT / SIGTERM. A call's relative paths are read from the working directory, so the
 * calls of one directory run together and a call from another waits until those in flight end
 * (serve-lanes.ts).
 */
import { chmodSync, linkSync, lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { join } from "node:path";
import type { Command } from "commander";
import { closeEngine } from "../../document/engine-client.js";
import { DEFAULT_TIMEOUT_MS } from "../../document/open.js";
import { CiteproofError } from "../../errors.js";
import type { CommandIo, Io } from "../cli-io.js";
import { EXIT_CLEAN, positiveInt, runAction } from "../io.js";
import { commandOf, preloadCommands, runProgram } from "../program.js";
import { Lanes, MAX_CALLS_IN_FLIGHT, NotStarted } from "../serve-lanes.js";
import { namesOwnStreams, SERVED_COMMANDS } from "../serve-mode.cjs";
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
  log = (line: string) => io.stderr.write(`citeproof serve: ${line}\n`);
  const dir = serveDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dirProblem = notOurs(dir, "directory");
  if (dirProblem)
    throw new CiteproofError("ACCESS_DENIED", `the serve folder is not safe to use: ${dirProblem}`);
  const path = socketPath();
  // The server listens on a socket of its own first, then links it to the shared name in one step that
  // fails when the name is taken: of two servers started together, one takes it and the other stops.
  const own = join(dir, `serve.${process.pid}.sock`);
  removeOrphans(dir);
  const server = createServer((socket) => receive(socket));
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new CiteproofError("ACCESS_DENIED", `cannot listen on ${path} (${error.code ?? error.message})`),
      ),
    );
    server.listen(own, () => resolve());
  });
  chmodSync(own, 0o600);
  let ino: number;
  try {
    ino = await claim(own, path);
  } catch (error) {
    server.close();
    rmSync(own, { force: true });
    throw error;
  }
  log(`listening on ${path}; ends after ${idleMs} ms without a call`);
  // A module that fails to load fails the call that runs it, with its own error.
  preloadCommands(SERVED_COMMANDS).catch(() => {});
  await new Promise<void>((resolve) => {
    const end = () => {
      clearTimeout(idle.timer);
      server.close();
      // The shared name is removed only while it is still this server's socket, never a successor's.
      if (inodeOf(path) === ino) rmSync(path, { force: true });
      rmSync(own, { force: true });
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

/**
 * Links the listening socket `own` to the shared name `path`, returning its inode. A name a live server
 * answers on is an error; a stale one (its server gone) is removed, if it is still the one found dead,
 * and the link tried again.
 */
async function claim(own: string, path: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      linkSync(own, path);
      return inodeOf(own) as number;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 3) throw linkError(path, error);
    }
    const problem = notOurs(path, "socket");
    if (problem === "absent") continue;
    if (problem) throw new CiteproofError("ACCESS_DENIED", `the serve socket is not safe to use: ${problem}`);
    const found = inodeOf(path);
    if (await answers(path))
      throw new CiteproofError("USAGE", `a citeproof serve is already listening on ${path}`);
    if (inodeOf(path) === found) rmSync(path, { force: true });
  }
}

/** Removes the own sockets of servers that are gone (killed before they could remove them), and ours. */
function removeOrphans(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^serve\.(\d+)\.sock$/.exec(name)?.[1];
    if (pid !== undefined && (Number(pid) === process.pid || !alive(Number(pid))))
      rmSync(join(dir, name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function linkError(path: string, error: unknown): CiteproofError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new CiteproofError("ACCESS_DENIED", `cannot listen on ${path} (${code})`);
}

function inodeOf(path: string): number | undefined {
  try {
    return lstatSync(path).ino;
  } catch {
    return undefined;
  }
}

/** Whether a server answers on the socket at `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = createConnection(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

let onIdle: () => void = () => {};
let onBusy: () => void = () => {};

/** A call received: its client's socket, its request line, when it came and how long it may wait. */
interface Call {
  socket: Socket;
  line: string;
  arrived: number;
  waitMs: number;
}

/** The longest request line read: a call is its arguments and environment, never a document. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** The server's own log (the serve command's stderr). */
let log: (line: string) => void = () => {};

const lanes = new Lanes(MAX_CALLS_IN_FLIGHT);
/** The clients of the calls running now. */
const running = new Set<Socket>();
let pending = 0;

/** Whether a call that is running has lost its client (its work is abandoned; nothing waits behind it). */
function abandonedWorkRuns(): boolean {
  for (const socket of running) if (socket.destroyed) return true;
  return false;
}

/** How often the engine is closed again while only abandoned calls run. */
const STOP_AGAIN_MS = 50;
let stopping: NodeJS.Timeout | undefined;

/**
 * Closes the engine while every running call's client is gone, and keeps closing it until that ends:
 * an abandoned call that had not yet begun its extraction when its client left would otherwise start
 * a fresh engine and run to its end.
 */
function stopAbandonedWork(): void {
  void closeEngine();
  if (stopping) return;
  stopping = setInterval(() => {
    if (running.size > 0 && [...running].every((s) => s.destroyed)) void closeEngine();
    else {
      clearInterval(stopping);
      stopping = undefined;
    }
  }, STOP_AGAIN_MS);
  stopping.unref();
}

function receive(socket: Socket): void {
  const chunks: Buffer[] = [];
  let size = 0;
  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
    if (!running.has(socket)) return;
    // Work whose client is gone is abandoned: nothing waits behind it, each waiting call is refused
    // now and its client runs it itself. Once every running call's client is gone, their extraction
    // is stopped too (the engine worker, which only they use, is closed and their pages fail).
    lanes.cancelWaiting();
    if ([...running].every((s) => s.destroyed)) stopAbandonedWork();
  });
  socket.on("data", (chunk: Buffer) => {
    const nl = chunk.indexOf(0x0a);
    size += nl === -1 ? chunk.length : nl;
    if (size > MAX_REQUEST_BYTES) {
      socket.removeAllListeners("data");
      log(`refused (a request over ${MAX_REQUEST_BYTES} bytes)`);
      socket.end(`${JSON.stringify(refusedReply(`a request over ${MAX_REQUEST_BYTES} bytes`))}\n`);
      return;
    }
    chunks.push(nl === -1 ? chunk : chunk.subarray(0, nl));
    if (nl === -1) return;
    socket.removeAllListeners("data");
    const line = Buffer.concat(chunks).toString("utf8");
    const call = { socket, line, arrived: Date.now(), waitMs: callDeadlineMs(line) };
    pending++;
    onBusy();
    void take(call);
  });
}

/**
 * Answers a call: refused at once when the server will not run it, else run in its lane once its turn
 * comes, unless its client went away or it waited past its own deadline by then.
 */
async function take(call: Call): Promise<void> {
  const request = parseRequest(call.line);
  if ("refused" in request) return settle(call, request);
  if (abandonedWorkRuns() && lanes.wouldWait(request.cwd))
    return settle(call, busy("a call whose client went away"));
  let ms = 0;
  let reply: ServeReply;
  try {
    reply = await lanes.run(request.cwd, async () => {
      if (call.socket.destroyed) return refusedReply("its client went away before it started");
      if (Date.now() - call.arrived > call.waitMs)
        return busy(`calls that kept it waiting past its own deadline of ${call.waitMs} ms`);
      running.add(call.socket);
      const started = Date.now();
      try {
        return { protocol: SERVE_PROTOCOL, ...(await runCollected(request)) };
      } finally {
        ms = Date.now() - started;
        running.delete(call.socket);
      }
    });
  } catch (error) {
    reply =
      error instanceof NotStarted
        ? busy("a call whose client went away")
        : {
            protocol: SERVE_PROTOCOL,
            stdout: "",
            stderr: Buffer.from(
              `citeproof serve: ${error instanceof Error ? error.message : String(error)}\n`,
            ).toString("base64"),
            exitCode: 2,
          };
  }
  settle(call, reply, ms);
}

/** Sends a call its reply when its client is still there, logs it, and counts it done. */
function settle(call: Call, reply: ServeReply, ms = 0): void {
  log(
    `${"refused" in reply ? `refused (${reply.refused})` : `ran, exit ${reply.exitCode}`} in ${ms} ms${call.socket.destroyed ? "; its client had gone" : ""}`,
  );
  if (!call.socket.destroyed) call.socket.end(`${JSON.stringify(reply)}\n`);
  if (--pending === 0) onIdle();
}

function refusedReply(why: string): ServeReply {
  return { protocol: SERVE_PROTOCOL, refused: why };
}

function busy(behind: string): ServeReply {
  return refusedReply(`busy with ${behind}`);
}

/** How long a call may wait for its turn: its own deadline (`--timeout-ms`, else the default). */
function callDeadlineMs(line: string): number {
  let args: unknown;
  try {
    args = (JSON.parse(line) as ServeRequest)?.args;
  } catch {
    return DEFAULT_TIMEOUT_MS;
  }
  if (!Array.isArray(args)) return DEFAULT_TIMEOUT_MS;
  const at = args.indexOf("--timeout-ms");
  const given = at >= 0 ? Number(args[at + 1]) : Number.NaN;
  return Number.isFinite(given) && given > 0 ? given : DEFAULT_TIMEOUT_MS;
}

/** The request a line holds, or the refusal it gets. */
function parseRequest(line: string): ServeRequest | Extract<ServeReply, { refused: string }> {
  let request: ServeRequest;
  try {
    request = JSON.parse(line) as ServeRequest;
  } catch {
    return { protocol: SERVE_PROTOCOL, refused: "the request is not JSON" };
  }
  const refused = refusal(request);
  return refused ? { protocol: SERVE_PROTOCOL, refused } : request;
}

function refusal(request: ServeRequest): string | undefined {
  if (request?.protocol !== SERVE_PROTOCOL) return "another protocol";
  if (request.build !== buildId()) return "another build of citeproof";
  if (!Array.isArray(request.args) || !request.args.every((a) => typeof a === "string"))
    return "bad arguments";
  if (typeof request.cwd !== "string") return "no working directory";
  const own = namesOwnStreams(request.args, request.cwd);
  if (own !== undefined) return `${own} would be the server's own, not the caller's`;
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
    exitCode = await runProgram([process.argv[0], process.argv[1], ...request.args], {
      stdout: collect(out),
      stderr: collect(err),
      cwd: process.cwd(),
      env: process.env,
    });
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
