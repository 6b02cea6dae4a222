/**
 * The MCP server over Streamable HTTP at `/mcp`, stateless: each POST is one JSON-RPC exchange with a
 * fresh server object and transport, so several servers behind a load balancer serve the same
 * clients (the extraction cache is all they share). Around the transport: a bearer token on every
 * request, a cap on the request body and a deadline for receiving it, at most `maxConcurrent`
 * requests at once (others wait up to `queueTimeoutMs`, then 503 with Retry-After), one message a
 * request (a batch is refused: each call takes its own slot), the body parsed only once a slot is
 * held, a slot held until its call's work has stopped, a deadline per tool call, the work of calls
 * whose clients went away stopped, idle connections closed, and a shutdown that finishes the
 * requests in flight.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { AbandonedCalls } from "../document/abandoned-calls.js";
import { CiteproofError } from "../errors.js";
import { INVALID_PARAMS, refusalMessage, screenMessage } from "./messages.js";
import { createMcpServer, type ServerEnv, type Work } from "./server.js";
import { Slots } from "./slots.js";

export const MCP_PATH = "/mcp";

export interface HttpLimits {
  /** Requests handled at once. */
  maxConcurrent: number;
  /** How long a request waits for a slot before 503. */
  queueTimeoutMs: number;
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
  /** Deadline for receiving a request's body, in milliseconds. */
  bodyTimeoutMs: number;
  /** Deadline for one tool call, in milliseconds. */
  callTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many milliseconds. */
  idleTimeoutMs: number;
}

export interface HttpServerOptions {
  env: ServerEnv;
  version: string;
  token: string;
  host: string;
  port: number;
  limits: HttpLimits;
  /** A line for the server's log (stderr). */
  log?: (line: string) => void;
  /** Origins (`https://app.example`) whose browser pages may call, besides loopback pages. */
  allowedOrigins?: readonly string[];
}

export interface RunningHttpServer {
  url: string;
  /** Stops taking requests, finishes those in flight, then resolves. */
  close(): Promise<void>;
}

/**
 * The document options of the calls the server runs side by side. The memory budget is the whole
 * process's: a call that split its extraction over several engine workers would size each as if it
 * ran alone, so with more than one call at once each extracts with the process's one engine, unless
 * the server was given a job count.
 */
export function concurrentOpenOptions(open: ServerEnv["open"], maxConcurrent: number): ServerEnv["open"] {
  return maxConcurrent > 1 && open.jobs === undefined ? { ...open, jobs: 1 } : open;
}

export async function serveHttp(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { limits } = options;
  const env = { ...options.env, open: concurrentOpenOptions(options.env.open, limits.maxConcurrent) };
  const slots = new Slots(limits.maxConcurrent);
  // One for every request's server object: made per server, it costs a millisecond a request.
  const validator = new AjvJsonSchemaValidator();
  const abandoned = new AbandonedCalls();
  const inFlight = new Set<Promise<void>>();
  const expected = digest(options.token);
  const local = isLoopback(options.host);
  const origins = new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase()));
  let closing = false;
  // Node checks the headers' deadline only every connectionsCheckingInterval (30 s by default).
  const checkEvery = Math.max(50, Math.min(1000, Math.floor(limits.bodyTimeoutMs / 2)));
  const timeouts = {
    headersTimeout: limits.bodyTimeoutMs,
    requestTimeout: 0,
    connectionsCheckingInterval: checkEvery,
  };
  const server: HttpServer = createServer(timeouts, (req, res) => {
    const handled = handle(req, res).catch((error: unknown) => {
      options.log?.(`citeproof mcp: request failed: ${(error as Error).message}`);
      if (!res.headersSent) refuse(res, 500, "internal error");
      else res.destroy();
    });
    inFlight.add(handled);
    void handled.finally(() => inFlight.delete(handled));
  });
  server.keepAliveTimeout = limits.idleTimeoutMs;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== MCP_PATH) return refuse(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    const foreign = foreignRequest(req, local, origins);
    if (foreign) return refuse(res, 403, foreign);
    if (!authorized(req.headers.authorization, expected))
      return refuse(res, 401, "a bearer token is required (Authorization: Bearer <token>)", {
        "WWW-Authenticate": 'Bearer realm="citeproof"',
      });
    if (closing)
      return refuse(res, 503, "the server is shutting down", { "Retry-After": "1", Connection: "close" });
    if (req.method !== "POST")
      return refuse(res, 405, "this server is stateless: send each JSON-RPC message by POST", {
        Allow: "POST",
      });
    const body = await readBody(req, limits);
    if ("refused" in body)
      return refuse(res, body.refused.status, body.refused.message, { Connection: "close" });
    // The body is only read, never parsed, before a slot is taken: parsing (and every message a body
    // holds) is work, and work waits its turn within --max-concurrent.
    const release = await slots.acquire(limits.queueTimeoutMs);
    if (release === undefined)
      return refuse(res, 503, `busy: ${limits.maxConcurrent} calls are running; try again`, {
        "Retry-After": String(Math.max(1, Math.ceil(limits.queueTimeoutMs / 1000))),
      });
    // A client gone while its request waited for a slot: nothing is run for it.
    if (req.socket.destroyed) {
      release();
      return;
    }
    const work: Work = { calls: new Set(), running: new Set() };
    // A client that goes away mid-call abandons it: once only such calls run, their work is stopped,
    // so no call waits for a slot behind work nobody will read.
    const tracked = abandoned.begin();
    const left = () => {
      if (!res.writableFinished) tracked.abandon();
    };
    req.socket.once("close", left);
    try {
      const screened = screenMessage(body.text);
      if ("refused" in screened) {
        const { refused } = screened;
        options.log?.(
          `citeproof mcp: refused ${refused.batch === undefined ? "a message" : `a batch of ${refused.batch} messages`} (${refused.code})`,
        );
        res.writeHead(refused.code === INVALID_PARAMS ? 200 : 400, {
          "Content-Type": "application/json",
        });
        res.end(refusalMessage(refused));
        return;
      }
      options.log?.(`citeproof mcp: ${describe(screened.message)}`);
      const mcp = createMcpServer(env, options.version, work, limits.callTimeoutMs, validator);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await mcp.connect(transport);
      try {
        await transport.handleRequest(req, res, screened.message);
        if (!res.writableFinished) await new Promise<void>((r) => res.once("close", () => r()));
      } finally {
        await transport.close();
        await mcp.close();
      }
    } finally {
      // A call answered CALL_TIMEOUT still holds its slot until its work has stopped: the slots
      // bound the work running, not only the answers pending.
      while (work.running.size > 0) await Promise.allSettled([...work.running]);
      tracked.end();
      req.socket.off("close", left);
      release();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(listenError(error, options)));
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${MCP_PATH}`,
    async close() {
      closing = true;
      const stopped = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      server.closeIdleConnections();
      await stopped;
    },
  };
}

/**
 * Why a request comes from where this server does not answer (DNS rebinding, a page of another site),
 * as the MCP transport asks: a server on loopback answers only a Host naming loopback, and a request
 * carrying an Origin only from a loopback page or an origin allowed with --allow-origin.
 */
function foreignRequest(
  req: IncomingMessage,
  local: boolean,
  origins: ReadonlySet<string>,
): string | undefined {
  if (local) {
    const host = hostnameOf(`http://${req.headers.host ?? ""}`);
    if (host === undefined || !isLoopback(host))
      return `the Host header ${JSON.stringify(req.headers.host ?? "")} does not name this server (a server on loopback answers localhost, 127.0.0.1 and [::1])`;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const originHost = hostnameOf(origin);
  if (origins.has(origin.toLowerCase()) || (originHost !== undefined && isLoopback(originHost)))
    return undefined;
  return `requests from the origin ${JSON.stringify(origin)} are not accepted (allow it with --allow-origin)`;
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return undefined;
  }
}

/** localhost, 127.0.0.0/8 and ::1 (a name or an address as written, brackets removed). */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** Why the server cannot listen, as a coded error naming the address. */
function listenError(error: NodeJS.ErrnoException, options: HttpServerOptions): CiteproofError {
  const where = `${options.host.includes(":") ? `[${options.host}]` : options.host}:${options.port}`;
  if (error.code === "EADDRINUSE")
    return new CiteproofError("USAGE", `cannot listen on ${where}: the port is in use`);
  if (error.code === "EACCES")
    return new CiteproofError(
      "ACCESS_DENIED",
      `cannot listen on ${where}: not allowed (a port below 1024 needs privileges)`,
    );
  return new CiteproofError("USAGE", `cannot listen on ${where} (${error.code ?? error.message})`);
}

/** `tools/call verify`, `tools/list`: what a request asks, for the log. */
function describe(message: Record<string, unknown>): string {
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  const name = method === "tools/call" && typeof params?.name === "string" ? ` ${params.name}` : "";
  return typeof method === "string" ? `${method}${name}`.slice(0, 200) : "response";
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  const m = /^Bearer (\S+)\s*$/i.exec(header ?? "");
  return m !== null && timingSafeEqual(digest(m[1]), expected);
}

type Body = { text: string } | { refused: { status: number; message: string } };

/** Reads a body up to the cap and within the deadline; a client that stalls is cut off. */
function readBody(req: IncomingMessage, limits: HttpLimits): Promise<Body> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBodyBytes)
    return Promise.resolve(tooLarge(limits.maxBodyBytes));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: Body) => {
      clearTimeout(timer);
      req.removeAllListeners("data");
      resolve(body);
    };
    const timer = setTimeout(() => {
      finish({
        refused: {
          status: 408,
          message: `the request body did not arrive within ${limits.bodyTimeoutMs} ms`,
        },
      });
    }, limits.bodyTimeoutMs);
    req.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limits.maxBodyBytes) finish(tooLarge(limits.maxBodyBytes));
      else chunks.push(chunk);
    });
    req.once("error", () => finish({ refused: { status: 400, message: "the request was cut off" } }));
    req.once("end", () => finish({ text: Buffer.concat(chunks).toString("utf8") }));
  });
}

function tooLarge(limit: number): Body {
  return { refused: { status: 413, message: `the request body is over the limit of ${limit} bytes` } };
}

/** A refusal as the transport writes its own: a JSON-RPC error with no id. */
function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(body);
}
