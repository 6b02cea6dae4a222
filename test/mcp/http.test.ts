// `citeproof mcp --http`: the SDK's own client over loopback, bearer tokens, bodies over the cap, a
// client that stalls, more calls than slots, a call over its deadline, and SIGTERM with a call in flight.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { type AddressInfo, connect, createServer } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";

const TOKEN = "s3cret-token-for-tests-0123456789";
const PDF = fixture("interfaces");

let work: ReturnType<typeof tempDir>;
let tokenFile: string;
beforeAll(() => {
  work = tempDir("citeproof-http-");
  tokenFile = join(work.dir, "token");
  writeFileSync(tokenFile, `${TOKEN}\n`);
});
afterAll(() => work.remove());

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

async function startServer(extra: string[] = []): Promise<Served> {
  const child = spawn(
    process.execPath,
    [
      cliPath,
      "mcp",
      "--http",
      "127.0.0.1:0",
      "--token-file",
      tokenFile,
      "--allow-root",
      join(repoRoot, "test"),
      ...extra,
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, CITEPROOF_CACHE_DIR: join(work.dir, "cache") },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk) => {
      err += String(chunk);
      const m = /serving (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  return { child, url, stderr: () => err };
}

/** A raw POST with the token, as any HTTP client sends it. */
function post(url: string, body: string): Promise<Response> {
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    Authorization: `Bearer ${TOKEN}`,
  };
  return fetch(url, { method: "POST", headers, body });
}

/** Resolves once the server's log shows `pattern` (a request it has started on). */
function waitForLog(served: Served, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const check = setInterval(() => {
      if (pattern.test(served.stderr())) {
        clearInterval(check);
        resolve();
      }
    }, 5);
  });
}

async function stop(served: Served): Promise<number | null> {
  if (served.child.exitCode !== null) return served.child.exitCode;
  served.child.kill("SIGTERM");
  const [code] = await once(served.child, "exit");
  return code as number | null;
}

async function client(url: string, token = TOKEN): Promise<Client> {
  const c = new Client({ name: "citeproof-test", version: "1.0.0" });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return c;
}

const verifyArgs = { pdf: PDF, evidence: [{ id: "p1", kind: "page", page: 1 }] };

function textOf(result: unknown): Record<string, unknown> {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return JSON.parse(content.find((c) => c.type === "text")?.text ?? "null");
}

describe("citeproof mcp --http", () => {
  let served: Served;
  beforeAll(async () => {
    served = await startServer([
      "--max-concurrent",
      "4",
      "--queue-timeout-ms",
      "200",
      "--body-timeout-ms",
      "500",
      "--max-body-bytes",
      "100000",
    ]);
  });
  afterAll(async () => {
    if (served) await stop(served);
  });

  it("lists the tools and answers every one through the SDK's client", async () => {
    const c = await client(served.url);
    const tools = await c.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual([
      "verify",
      "anchors",
      "locate",
      "crop",
      "check_text",
      "cite_check",
    ]);
    const calls: [string, Record<string, unknown>, string][] = [
      ["verify", verifyArgs, "results"],
      ["anchors", { pdf: PDF }, "equations"],
      ["locate", { pdf: PDF, text: "Salt corrosion was the most common defect" }, "occurrences"],
      ["crop", { pdf: PDF, page: 1, dpi: 30 }, "widthPx"],
      [
        "check_text",
        { pdf: PDF, draft: 'It says "Salt corrosion was the most common defect on the older hulls" (p. 1).' },
        "citations",
      ],
      [
        "cite_check",
        {
          sources: [{ path: PDF }],
          citations: [
            { quote: "Salt corrosion", page: 1, bounding_box: { left: 0, bottom: 0, right: 612, top: 792 } },
          ],
        },
        "results",
      ],
    ];
    for (const [name, args, key] of calls) {
      const result = await c.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      expect(textOf(result), name).toHaveProperty(key);
    }
    const outside = await c.callTool({ name: "verify", arguments: { ...verifyArgs, pdf: "/etc/passwd" } });
    expect([outside.isError, (textOf(outside).error as { code: string }).code]).toEqual([
      true,
      "ACCESS_DENIED",
    ]);
    await c.close();
  });

  it("refuses a request without the token, or with a wrong one, with 401", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const none = await fetch(served.url, { method: "POST", headers, body });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await fetch(served.url, {
      method: "POST",
      headers: { ...headers, Authorization: "Bearer nope" },
      body,
    });
    expect(wrong.status).toBe(401);
    await expect(client(served.url, "not-the-token")).rejects.toMatchObject({ code: 401 });
  });

  it("refuses a body over the cap with 413, and keeps serving", async () => {
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "check_text", arguments: { pdf: PDF, draft: "x".repeat(200_000) } },
    });
    const r = await post(served.url, big);
    expect(r.status).toBe(413);
    const c = await client(served.url);
    expect((await c.callTool({ name: "verify", arguments: verifyArgs })).isError).toBeFalsy();
    await c.close();
  });

  it("refuses a JSON-RPC batch whole (-32600): none of its calls runs, and the log counts its messages", async () => {
    const call = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "verify", arguments: verifyArgs },
    });
    const notes = Array.from({ length: 1500 }, () => ({
      jsonrpc: "2.0",
      method: "notifications/initialized",
    }));
    const logBefore = served.stderr().length;
    const r = await post(served.url, JSON.stringify([call(1), call(2), ...notes]));
    expect(r.status).toBe(400);
    const answer = (await r.json()) as { id: unknown; error: { code: number; message: string } };
    expect(answer.id).toBeNull();
    expect(answer.error.code).toBe(-32600);
    expect(answer.error.message).toContain("batches are not accepted");
    const log = served.stderr().slice(logBefore);
    expect(log).toContain("refused a batch of 1502 messages");
    expect(log).not.toContain("tools/call");
    expect(log.length).toBeLessThan(500);
  });

  it("answers malformed messages with their JSON-RPC codes, briefly, and keeps serving", async () => {
    const notJson = await post(served.url, "{not json");
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const nested = `${"[".repeat(40_000)}${"]".repeat(40_000)}`;
    const deep = await post(
      served.url,
      `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"verify","arguments":{"pdf":"${PDF}","evidence":${nested}}}}`,
    );
    expect(deep.status).toBe(400);
    const deepAnswer = (await deep.json()) as { id: number; error: { code: number; message: string } };
    expect([deepAnswer.id, deepAnswer.error.code]).toEqual([8, -32600]);
    expect(deepAnswer.error.message).toContain("nested deeper than 64");
    const arrayArgs = await post(
      served.url,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "verify", arguments: [1] },
      }),
    );
    const invalid = (await arrayArgs.json()) as { id: number; error: { code: number; message: string } };
    expect([invalid.id, invalid.error.code]).toEqual([7, -32602]);
    expect(invalid.error.message).toContain("params.arguments must be an object");
    expect(invalid.error.message).not.toContain("\n");
    const c = await client(served.url);
    expect((await c.callTool({ name: "verify", arguments: verifyArgs })).isError).toBeFalsy();
    await c.close();
  });

  it("answers a loopback Host only, and a page's Origin only from loopback or --allow-origin (DNS rebinding)", async () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(served.url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            Authorization: `Bearer ${TOKEN}`,
            ...headers,
          },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end(list);
      });
    const port = new URL(served.url).port;
    expect(await status({ Host: `attacker.example:${port}` })).toBe(403);
    expect(await status({ Host: `192.168.1.5:${port}` })).toBe(403);
    expect(await status({ Origin: "https://attacker.example" })).toBe(403);
    expect(await status({ Origin: "null" })).toBe(403);
    expect(await status({ Host: `localhost:${port}` })).toBe(200);
    expect(await status({ Host: `[::1]:${port}`, Origin: "http://localhost:3000" })).toBe(200);
    expect(await status({})).toBe(200);
  });

  it("cuts off a client that stalls in its body with 408, while others are served", async () => {
    const socket = connect(Number(new URL(served.url).port), "127.0.0.1");
    await once(socket, "connect");
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
    );
    let answer = "";
    socket.on("data", (chunk) => {
      answer += String(chunk);
    });
    const c = await client(served.url);
    expect((await c.callTool({ name: "verify", arguments: verifyArgs })).isError).toBeFalsy();
    await c.close();
    await once(socket, "close");
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("closes on a client that stalls in its headers, with 408", async () => {
    const socket = connect(Number(new URL(served.url).port), "127.0.0.1");
    await once(socket, "connect");
    socket.write(`POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\n`);
    let answer = "";
    socket.on("data", (chunk) => {
      answer += String(chunk);
    });
    await once(socket, "close");
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("50 concurrent calls with --max-concurrent 4: each answered or refused with 503, none lost", async () => {
    // A server of its own with the default body deadline: the shared one's 500 ms deadline (for the
    // stalled-body case) can cut off a connection whose headers wait on a loaded machine, which is
    // that deadline at work, not a call lost.
    const served = await startServer(["--max-concurrent", "4", "--queue-timeout-ms", "200"]);
    try {
      await fiftyConcurrentCalls(served);
    } finally {
      await stop(served);
    }
  });
});

/** Fifty clients call verify at once; afterwards a fresh client is still answered. */
async function fiftyConcurrentCalls(served: Served): Promise<void> {
  const clients = await Promise.all(Array.from({ length: 50 }, () => client(served.url)));
  const outcomes = await Promise.allSettled(
    clients.map((c) => c.callTool({ name: "verify", arguments: verifyArgs })),
  );
  const answered = outcomes.filter((o) => o.status === "fulfilled" && !o.value.isError).length;
  const refused = outcomes.filter(
    (o) => o.status === "rejected" && (o.reason as { code?: number }).code === 503,
  ).length;
  expect(answered + refused).toBe(50);
  expect(answered).toBeGreaterThan(0);
  await Promise.all(clients.map((c) => c.close()));
  const after = await client(served.url);
  expect((await after.callTool({ name: "verify", arguments: verifyArgs })).isError).toBeFalsy();
  await after.close();
}

describe("citeproof mcp --http deadlines and shutdown", () => {
  it("CALL_TIMEOUT: a call over --call-timeout-ms answers with its code", async () => {
    const served = await startServer(["--call-timeout-ms", "1", "--no-cache"]);
    try {
      const c = await client(served.url);
      const result = await c.callTool({ name: "anchors", arguments: { pdf: fixture("eq-layouts") } });
      expect(result.isError).toBe(true);
      expect((textOf(result).error as { code: string }).code).toBe("CALL_TIMEOUT");
      await c.close();
    } finally {
      await stop(served);
    }
  });

  it("503 with Retry-After once a request has waited --queue-timeout-ms for a slot", async () => {
    const served = await startServer(["--max-concurrent", "1", "--queue-timeout-ms", "1", "--no-cache"]);
    try {
      const slow = await client(served.url);
      const holding = slow.callTool({ name: "anchors", arguments: { pdf: fixture("eq-layouts") } });
      await waitForLog(served, /tools\/call anchors/);
      const r = await post(served.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
      expect(r.status).toBe(503);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await holding).isError).toBeFalsy();
      await slow.close();
    } finally {
      await stop(served);
    }
  });

  it("finishes a call in flight on SIGTERM, then exits 0", async () => {
    const served = await startServer(["--no-cache"]);
    const c = await client(served.url);
    const call = c.callTool({ name: "anchors", arguments: { pdf: fixture("eq-layouts") } });
    await waitForLog(served, /tools\/call anchors/);
    served.child.kill("SIGTERM");
    const result = await call;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const [code] = await once(served.child, "exit");
    expect(code).toBe(0);
    expect(served.stderr()).toContain("citeproof mcp: stopped");
  });

  it("USAGE: --http without --token-file, a bad address", async () => {
    for (const args of [
      ["--http", "8080"],
      ["--http", "nope", "--token-file", "x"],
      ["--host", "0.0.0.0"],
    ]) {
      const child = spawn(process.execPath, [cliPath, "mcp", ...args], {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let err = "";
      child.stderr.on("data", (c) => {
        err += String(c);
      });
      const [code] = await once(child, "exit");
      expect(code, args.join(" ")).toBe(2);
      expect(err).toContain("[USAGE]");
    }
  });
});

describe("citeproof mcp --http --allow-origin", () => {
  it("answers pages of the origins it allows, and only those", async () => {
    const served = await startServer(["--allow-origin", "https://app.example"]);
    try {
      const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
      const status = async (origin: string) =>
        (
          await fetch(served.url, {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
              Authorization: `Bearer ${TOKEN}`,
              Origin: origin,
            },
            body: list,
          })
        ).status;
      expect(await status("https://app.example")).toBe(200);
      expect(await status("https://APP.example")).toBe(200);
      expect(await status("https://other.example")).toBe(403);
      expect(await status("http://app.example")).toBe(403);
    } finally {
      await stop(served);
    }
  });
});

describe("citeproof mcp --http on a port in use", () => {
  it("USAGE naming the address, not INTERNAL", async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    const port = (taken.address() as AddressInfo).port;
    try {
      const child = spawn(
        process.execPath,
        [cliPath, "mcp", "--http", `127.0.0.1:${port}`, "--token-file", tokenFile],
        { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
      );
      let err = "";
      child.stderr.on("data", (c) => {
        err += String(c);
      });
      const [code] = await once(child, "exit");
      expect(code).toBe(2);
      expect(err).toContain("[USAGE]");
      expect(err).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
      expect(err).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });
});
