/**
 * The CLI's side of `citeproof serve`: when a server of this build is listening on the user's own
 * socket, a call is sent to it and its output printed as it came; otherwise (no server, a stale or
 * foreign socket, a refusal, a server that goes away or does not answer in time) the caller runs
 * the command itself. Nothing is printed before the whole answer is in, so falling back is clean.
 */
import { createConnection } from "node:net";
import {
  buildId,
  notOurs,
  SERVE_PROTOCOL,
  type ServeReply,
  type ServeRequest,
  serveDir,
  servedEnvironment,
  socketPath,
} from "./serve-socket.cjs";
import { onWriteError } from "./stdout-guard.cjs";

/** How long to wait for an answer: twice the call's extraction deadline, and a margin. */
function answerDeadlineMs(args: readonly string[]): number {
  const at = args.indexOf("--timeout-ms");
  const given = at >= 0 ? Number(args[at + 1]) : Number.NaN;
  return 2 * (Number.isFinite(given) && given > 0 ? given : 60_000) + 5_000;
}

export interface ServedOutput {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

/** Runs a call through the server, or resolves undefined when the caller should run it itself. */
export function runThroughServe(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServedOutput | undefined> {
  const path = socketPath(env);
  if (notOurs(serveDir(env), "directory") !== undefined || notOurs(path, "socket") !== undefined)
    return Promise.resolve(undefined);
  const request: ServeRequest = {
    protocol: SERVE_PROTOCOL,
    build: buildId(),
    cwd: process.cwd(),
    env: servedEnvironment(env),
    args: [...args],
  };
  return new Promise((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    const socket = createConnection(path);
    const finish = (output: ServedOutput | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(output);
    };
    const timer = setTimeout(() => finish(undefined), answerDeadlineMs(args));
    // Written at once: the socket sends it as soon as it connects.
    socket.write(`${JSON.stringify(request)}\n`);
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (!chunk.includes(0x0a)) return;
      finish(parseReply(Buffer.concat(chunks)));
    });
    // Refused (a stale socket), reset, or closed before the answer: run in-process.
    socket.on("error", () => finish(undefined));
    socket.on("close", () => finish(undefined));
  });
}

/** Prints a served call's output and takes its exit code. */
export function printServed(output: ServedOutput): void {
  // A failure other than a reader gone away is rare: the error printer (an ES module) is loaded only then.
  onWriteError(process.stdout, (error) =>
    (require("./output-errors.js") as typeof import("./output-errors.js")).outputUnwritable(error),
  );
  process.stderr.write(output.stderr);
  process.stdout.write(output.stdout);
  process.exitCode = output.exitCode;
}

function parseReply(data: Buffer): ServedOutput | undefined {
  let reply: ServeReply;
  try {
    reply = JSON.parse(data.subarray(0, data.indexOf(0x0a)).toString("utf8")) as ServeReply;
  } catch {
    return undefined;
  }
  if (reply.protocol !== SERVE_PROTOCOL || "refused" in reply) return undefined;
  if (typeof reply.stdout !== "string" || typeof reply.stderr !== "string") return undefined;
  if (!Number.isInteger(reply.exitCode)) return undefined;
  return {
    stdout: Buffer.from(reply.stdout, "base64"),
    stderr: Buffer.from(reply.stderr, "base64"),
    exitCode: reply.exitCode,
  };
}
