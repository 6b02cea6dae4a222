// The MCP server, for real: `node dist/cli/main.js mcp` spoken to with the SDK's stdio client.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_MESSAGE_BYTES } from "../../src/mcp/bounded-lines.js";
import { MCP_HANDSHAKE } from "../helpers/mcp-stdio.js";

const root = resolve(import.meta.dirname, "../..");
const cli = join(root, "dist/cli/main.js");
const fixture = "test/fixtures/interfaces.pdf";
const cacheDir = mkdtempSync(join(tmpdir(), "citeproof-mcp-cache-"));
const scratch = join(root, "test/.tmp/mcp");

interface TextContent {
  type: "text";
  text: string;
}
interface CallResult {
  isError?: boolean;
  content: ({ type: string } & Record<string, unknown>)[];
}

const evidence = [
  {
    id: "q1",
    kind: "quotation",
    page: 1,
    text: "Salt corrosion was the most common defect on the older hulls",
  },
  { id: "q2", kind: "quotation", page: 1, text: "Work on the northern quay begins in October" },
  { id: "p1", kind: "page", page: 2 },
  { id: "q3", kind: "quotation", text: "the budget was approved" },
];

let client: Client;
let stderr = "";

async function connect(args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", ...args],
    cwd: root,
    env: { ...process.env, CITEPROOF_CACHE_DIR: cacheDir } as Record<string, string>,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const c = new Client({ name: "citeproof-test", version: "1.0.0" });
  await c.connect(transport);
  return c;
}

async function call(name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

function json(result: CallResult): Record<string, unknown> {
  const text = result.content.find((c) => c.type === "text") as TextContent | undefined;
  expect(text).toBeDefined();
  return JSON.parse(text!.text);
}

function errorOf(result: CallResult): { code: string; message: string } {
  expect(result.isError).toBe(true);
  return (json(result) as { error: { code: string; message: string } }).error;
}

const verifyPage = { name: "verify", arguments: { pdf: fixture, evidence: [{ kind: "page", page: 1 }] } };

/**
 * Writes an initialize handshake and then `messages` (each written with its members in the order
 * given) to `citeproof mcp` on stdin, closes it, and returns the replies read from stdout.
 */
function serveLines(messages: Record<string, unknown>[]) {
  const lines = [...MCP_HANDSHAKE, ...messages.map((m) => ({ jsonrpc: "2.0", ...m }))];
  const run = spawnSync(process.execPath, [cli, "mcp", "--no-cache"], {
    cwd: root,
    input: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
    encoding: "utf8",
    timeout: 60_000,
  });
  const replies = run.stdout
    .trim()
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l));
  return { status: run.status, stderr: run.stderr, replies };
}

beforeAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  client = await connect();
});

afterAll(async () => {
  await client?.close();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

describe("citeproof mcp", () => {
  it("lists its tools with JSON-schema inputs", async () => {
    const { tools } = await client.listTools();
    const verify = tools.find((t) => t.name === "verify");
    expect(verify).toBeDefined();
    expect(verify!.inputSchema.type).toBe("object");
    expect(verify!.inputSchema.required).toEqual(["evidence"]);
    expect(Object.keys(verify!.inputSchema.properties ?? {})).toContain("evidence");
    for (const tool of tools) expect(tool.description?.length ?? 0).toBeGreaterThan(40);
    // Only cite_check may reach beyond local files (a URL source).
    const openWorld = tools.filter((t) => t.annotations?.openWorldHint).map((t) => t.name);
    expect(openWorld).toEqual(["cite_check"]);
  });

  it("verify returns the document `citeproof verify --json` prints", async () => {
    const result = await call("verify", { pdf: fixture, evidence });
    expect(result.isError).toBeFalsy();
    const report = json(result) as { results: { id: string; verdict: string; reason: string }[] };
    expect(report.results.map((r) => [r.id, r.verdict, r.reason])).toEqual([
      ["q1", "PASS", "found"],
      ["q2", "FAIL", "wrong-page"],
      ["p1", "FLAG", "no-quotation"],
      ["q3", "UNANCHORED", "no-page"],
    ]);
    const file = join(scratch, "evidence.json");
    writeFileSync(file, JSON.stringify(evidence));
    let cliOut = "";
    try {
      execFileSync(process.execPath, [cli, "verify", fixture, "--evidence", file, "--json"], {
        cwd: root,
        env: { ...process.env, CITEPROOF_CACHE_DIR: cacheDir },
        encoding: "utf8",
      });
    } catch (error) {
      // Exit 1: a record FAILs; the document is still on stdout.
      cliOut = (error as { stdout: string }).stdout;
    }
    expect(report).toEqual(JSON.parse(cliOut));
  });

  it("reads PDFs given by absolute path inside the root", async () => {
    const result = await call("verify", { pdf: join(root, fixture), evidence: [{ kind: "page", page: 3 }] });
    const report = json(result) as { results: { verdict: string; reason: string }[] };
    expect(report.results[0]).toMatchObject({ verdict: "FAIL", reason: "no-such-page" });
  });

  it("a path outside the allowed roots is a coded tool error, and the server lives on", async () => {
    const denied = errorOf(await call("verify", { pdf: "/etc/hostname", evidence: [] }));
    expect(denied.code).toBe("ACCESS_DENIED");
    expect(denied.message).toContain("/etc/hostname");

    // A symlink inside the root that leads outside it is judged by where it leads.
    const link = join(scratch, "outside.pdf");
    symlinkSync("/etc/hostname", link);
    expect(errorOf(await call("verify", { pdf: link, evidence: [] })).code).toBe("ACCESS_DENIED");

    // Outside the roots, one answer whatever exists there.
    const exists = errorOf(await call("verify", { pdf: "/etc/passwd", evidence: [] }));
    const absent = errorOf(await call("verify", { pdf: "/etc/no-such-file", evidence: [] }));
    expect([exists.code, absent.code]).toEqual(["ACCESS_DENIED", "ACCESS_DENIED"]);
    expect(absent.message.replace("no-such-file", "passwd")).toBe(exists.message);

    const missing = errorOf(await call("verify", { pdf: "test/fixtures/no-such.pdf", evidence: [] }));
    expect(missing.code).toBe("FILE_NOT_FOUND");

    const notPdf = join(scratch, "notes.pdf");
    writeFileSync(notPdf, "just some text, no header");
    expect(errorOf(await call("verify", { pdf: notPdf, evidence: [] })).code).toBe("NOT_PDF");

    const damaged = join(scratch, "damaged.pdf");
    writeFileSync(damaged, "%PDF-1.4\nthis is not really a pdf\n%%EOF\n");
    expect(errorOf(await call("verify", { pdf: damaged, evidence: [] })).code).toBe("DAMAGED_PDF");

    const alive = await call("verify", { pdf: fixture, evidence: [{ kind: "page", page: 1 }] });
    expect(alive.isError).toBeFalsy();
    expect(stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it("bad arguments are coded tool errors naming the argument or record", async () => {
    const noEvidence = errorOf(await call("verify", { pdf: fixture }));
    expect(noEvidence).toMatchObject({ code: "USAGE" });
    expect(noEvidence.message).toContain('"evidence"');

    const badRecord = errorOf(
      await call("verify", { pdf: fixture, evidence: [{ kind: "page", page: 1 }, { kind: "quotation" }] }),
    );
    expect(badRecord.code).toBe("EVIDENCE_INVALID");
    expect(badRecord.message).toContain('argument "evidence[1].text" is missing');

    const unknownArg = errorOf(await call("verify", { pdf: fixture, evidence: [], pages: 3 }));
    expect(unknownArg.code).toBe("USAGE");
    expect(unknownArg.message).toContain('"pages"');

    const unknownTool = errorOf(await call("no_such_tool", {}));
    expect(unknownTool.code).toBe("USAGE");

    const alive = await call("verify", { pdf: fixture, evidence: [] });
    expect(json(alive)).toMatchObject({ results: [] });
  });

  it("cite_check takes the request form and returns the document `cite-check --json` prints", async () => {
    const request = {
      sources: [{ path: fixture }],
      citations: [
        {
          id: "inside",
          quote: "Salt corrosion was the most common defect",
          page: 1,
          bounding_box: { left: 0, bottom: 0, right: 612, top: 792 },
        },
        {
          id: "outside",
          quote: "Salt corrosion was the most common defect",
          page: 1,
          bounding_box: { left: 0, bottom: 0, right: 20, top: 20 },
        },
      ],
    };
    const result = await call("cite_check", request);
    expect(result.isError).toBeFalsy();
    const report = json(result) as { results: { id: string; verdict: string }[] };
    expect(report.results.map((r) => [r.id, r.verdict])).toEqual([
      ["inside", "verified_exact"],
      ["outside", "unmatched"],
    ]);
    const file = join(scratch, "request.json");
    writeFileSync(
      file,
      JSON.stringify({ operation: "cite_check", ...request, sources: [{ path: join(root, fixture) }] }),
    );
    const cliRun = spawnSync(process.execPath, [cli, "cite-check", "--request", file, "--json"], {
      cwd: root,
      env: { ...process.env, CITEPROOF_CACHE_DIR: cacheDir },
      encoding: "utf8",
    });
    expect(cliRun.status).toBe(1);
    // The first of the two runs extracts the cited page, the second reads it from the cache.
    const { extracted_pages: first, ...served } = report as Record<string, unknown>;
    const { extracted_pages: second, ...printed } = JSON.parse(cliRun.stdout) as Record<string, unknown>;
    expect(served).toEqual(printed);
    expect([first, second]).toEqual([1, 0]);

    const denied = errorOf(await call("cite_check", { ...request, sources: [{ path: "/etc/hostname" }] }));
    expect(denied.code).toBe("ACCESS_DENIED");
    const badBox = errorOf(
      await call("cite_check", {
        ...request,
        citations: [{ quote: "x", page: 1, bounding_box: { left: 5, bottom: 0, right: 1, top: 1 } }],
      }),
    );
    expect(badBox.code).toBe("USAGE");
    expect(badBox.message).toContain("citations[0].bounding_box");
  });

  it("cite_check fetches no URL on a loopback or private address, and tells nothing of its host, unless --allow-private-urls", async () => {
    let hits = 0;
    const host = createServer((_req, res) => {
      hits++;
      res.writeHead(418);
      res.end();
    });
    await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
    const port = (host.address() as AddressInfo).port;
    const citations = [{ quote: "x", page: 1, bounding_box: { left: 0, bottom: 0, right: 10, top: 10 } }];
    try {
      for (const url of [
        `http://127.0.0.1:${port}/a.pdf`,
        `http://localhost:${port}/a.pdf`,
        `http://[::ffff:127.0.0.1]:${port}/a.pdf`,
        `http://169.254.169.254/latest/meta-data`,
        `http://10.0.0.1:${port}/a.pdf`,
      ]) {
        const refused = errorOf(await call("cite_check", { sources: [{ url }], citations }));
        expect(refused.code, url).toBe("ACCESS_DENIED");
        expect(refused.message).toContain("loopback, private or link-local");
        expect(refused.message).toContain("--allow-private-urls");
        expect(refused.message).not.toContain("418");
      }
      expect(hits).toBe(0);
      const allowing = await connect(["--allow-private-urls"]);
      try {
        const reached = (await allowing.callTool({
          name: "cite_check",
          arguments: { sources: [{ url: `http://127.0.0.1:${port}/a.pdf` }], citations },
        })) as CallResult;
        expect(errorOf(reached).code).toBe("URL_HTTP_ERROR");
        expect(hits).toBe(1);
      } finally {
        await allowing.close();
      }
    } finally {
      host.close();
    }
  });

  it("answers calls made at the same time, each with its own result", async () => {
    const results = await Promise.all([
      call("verify", { pdf: fixture, evidence: [{ id: "a", kind: "page", page: 1 }] }),
      call("verify", { pdf: "/etc/hostname", evidence: [] }),
      call("verify", { pdf: fixture, evidence: [{ id: "b", kind: "page", page: 7 }] }),
    ]);
    expect((json(results[0]) as { results: { id: string }[] }).results[0].id).toBe("a");
    expect(errorOf(results[1]).code).toBe("ACCESS_DENIED");
    expect((json(results[2]) as { results: { reason: string }[] }).results[0].reason).toBe("no-such-page");
  });

  it("check_text reads a draft's citations and returns the document `check-text --json` prints", async () => {
    const draft =
      'The survey found that "Salt corrosion was the most common defect on the older hulls" (p. 1). ' +
      "The drying law is Eq. (1) and the schedule is in Fig. (1). Nothing is on p. 9. See pp. 3-4.\n";
    const result = await call("check_text", { pdf: fixture, draft });
    expect(result.isError).toBeFalsy();
    const report = json(result) as {
      citations: { anchor: string; verdict: string }[];
      unsupported_forms: { written: string }[];
    };
    const seen = report.citations.map((c) => `${c.anchor} ${c.verdict}`).sort();
    expect(seen).toEqual(["Eq. (1) PASS", "Fig. (1) PASS", "p. 1 PASS", "p. 9 FAIL"]);
    expect(report.unsupported_forms.map((u) => u.written)).toEqual(["pp. 3-4"]);
    const file = join(scratch, "draft.txt");
    writeFileSync(file, draft);
    const cliRun = spawnSync(process.execPath, [cli, "check-text", fixture, file, "--json"], {
      cwd: root,
      env: { ...process.env, CITEPROOF_CACHE_DIR: cacheDir },
      encoding: "utf8",
    });
    expect(cliRun.status).toBe(1);
    expect(report).toEqual(JSON.parse(cliRun.stdout));
    expect(errorOf(await call("check_text", { pdf: fixture })).message).toContain('"draft"');
  });

  it("answers a call still running when the client closes stdin, then exits", () => {
    const run = serveLines([{ method: "tools/call", params: verifyPage, id: 2 }]);
    expect(run.status).toBe(0);
    const answer = run.replies.find((r) => r.id === 2);
    expect(answer?.result?.isError).toBeFalsy();
    expect(JSON.parse(answer!.result!.content[0].text).results[0].verdict).toBe("FLAG");
  });

  it("drops a message over 10 MiB with a JSON-RPC error naming the limit, and serves the next call", () => {
    const big = "x".repeat(MAX_MESSAGE_BYTES + 1);
    const run = serveLines([
      {
        method: "tools/call",
        params: { name: "check_text", arguments: { pdf: fixture, draft: big } },
        id: 2,
      },
      { method: "tools/call", params: verifyPage, id: 3 },
    ]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("over the limit of 10485760 bytes");
    const refused = run.replies.find((r) => r.id === 2);
    expect(refused?.error?.code).toBe(-32600);
    expect(refused?.error?.message).toContain("10485760");
    const answer = run.replies.find((r) => r.id === 3);
    expect(JSON.parse(answer.result.content[0].text).results[0].verdict).toBe("FLAG");
  });

  it("answers malformed lines with JSON-RPC -32700, -32600 or -32602, says so on stderr, and serves on", () => {
    const args = (a: unknown) => ({ name: "verify", arguments: a });
    const lines = [
      ...MCP_HANDSHAKE.map((m) => JSON.stringify(m)),
      "not json{",
      "",
      JSON.stringify([{ jsonrpc: "2.0", id: 9, method: "tools/list" }]),
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: args([1, 2]) }),
      `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"anchors","arguments":{"pdf":"${fixture}","__proto__":{"x":1}}}}`,
      `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"verify","arguments":{"pdf":"${fixture}","evidence":${"[".repeat(5000)}${"]".repeat(5000)}}}}`,
      JSON.stringify({ id: 11, method: "tools/list" }),
      JSON.stringify({ jsonrpc: "2.0", id: 12 }),
      JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: verifyPage }),
    ];
    const run = spawnSync(process.execPath, [cli, "mcp", "--no-cache"], {
      cwd: root,
      input: `${lines.join("\n")}\n`,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    const replies = run.stdout
      .trim()
      .split("\n")
      .map(
        (l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: unknown },
      );
    const errors = replies.filter((r) => r.error).map((r) => [r.id, r.error?.code]);
    expect(errors).toEqual([
      [null, -32700],
      [null, -32600],
      [3, -32602],
      [4, -32602],
      [6, -32600],
      [11, -32600],
      [12, -32600],
    ]);
    const arrayArgs = replies.find((r) => r.id === 3)?.error?.message ?? "";
    expect(arrayArgs).toContain("params.arguments must be an object (got an array)");
    expect(arrayArgs).not.toContain("\n");
    expect(replies.find((r) => r.id === 4)?.error?.message).toContain('"__proto__"');
    expect(replies.find((r) => r.id === 5)?.result).toBeDefined();
    expect(run.stderr).toMatch(/^citeproof mcp: serving MCP over stdio/);
    expect(run.stderr).toContain("not JSON");
  });

  it("anchors returns the document `citeproof anchors --json` prints", async () => {
    const result = await call("anchors", { pdf: fixture });
    const doc = json(result) as {
      equations: { label: string; page: number }[];
      figures: { label: string; page: number }[];
      rejectedEquationCandidates: { label: string; reasons: string[] }[];
    };
    expect(doc.equations.map((e) => [e.label, e.page])).toEqual([["1", 1]]);
    expect(doc.figures.map((f) => [f.label, f.page])).toEqual([["1", 2]]);
    expect(doc.rejectedEquationCandidates.map((c) => c.label)).toEqual(["2"]);
    const cliRun = spawnSync(process.execPath, [cli, "anchors", fixture, "--json"], {
      cwd: root,
      env: { ...process.env, CITEPROOF_CACHE_DIR: cacheDir },
      encoding: "utf8",
    });
    expect(cliRun.status).toBe(0);
    expect(doc).toEqual(JSON.parse(cliRun.stdout));
  });

  it("verify takes a quotation's endPage (words across a page break)", async () => {
    const text = "wave respondent of while for the the hours measured study every respondent measured";
    const across = { kind: "quotation", page: 1, endPage: 2, text };
    const result = await call("verify", { pdf: "test/fixtures/page-break.pdf", evidence: [across] });
    const report = json(result) as { results: { verdict: string; reason: string }[] };
    expect(report.results.map((r) => [r.verdict, r.reason])).toEqual([["PASS", "found"]]);
  });

  it("locate returns the document `citeproof locate --json` prints; empty text is a coded error", async () => {
    const text = "Salt corrosion was the most common defect";
    const result = await call("locate", { pdf: fixture, text });
    expect(result.isError).toBeFalsy();
    const doc = json(result) as { count: number; occurrences: { page: number }[] };
    expect([doc.count, doc.occurrences[0].page]).toEqual([1, 1]);
    const cliRun = spawnSync(process.execPath, [cli, "locate", fixture, "--text", text, "--json"], {
      cwd: root,
      env: { ...process.env, CITEPROOF_CACHE_DIR: cacheDir },
      encoding: "utf8",
    });
    expect(cliRun.status).toBe(0);
    expect(doc).toEqual(JSON.parse(cliRun.stdout));
    expect(errorOf(await call("locate", { pdf: fixture, text: " " }))).toEqual({
      code: "USAGE",
      message: 'argument "text" is empty: give the words to find',
    });
  });

  it("crop returns the PNG as image content, the same image and report `citeproof crop` makes", async () => {
    const result = await call("crop", { pdf: fixture, anchor: "equation:1", dpi: 110 });
    expect(result.isError).toBeFalsy();
    const image = result.content.find((c) => c.type === "image") as unknown as {
      data: string;
      mimeType: string;
    };
    expect(image.mimeType).toBe("image/png");
    const png = Buffer.from(image.data, "base64");
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    const info = json(result) as { page: number; widthPx: number; heightPx: number };
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([info.widthPx, info.heightPx]);
    expect(info.page).toBe(1);

    const out = join(scratch, "eq1.png");
    const cliRun = spawnSync(
      process.execPath,
      [cli, "crop", fixture, "--anchor", "equation:1", "--dpi", "110", "--out", out, "--json"],
      { cwd: root, env: { ...process.env, CITEPROOF_CACHE_DIR: cacheDir }, encoding: "utf8" },
    );
    expect(cliRun.status).toBe(0);
    const { out: written, ...cliInfo } = JSON.parse(cliRun.stdout);
    expect(written).toBe(out);
    expect(info).toEqual(cliInfo);
    expect(readFileSync(out).equals(png)).toBe(true);

    const box = { left: 72, bottom: 600, right: 300, top: 720 };
    const boxed = json(await call("crop", { pdf: fixture, page: 2, box, dpi: 72 })) as {
      widthPx: number;
      heightPx: number;
      box: typeof box;
    };
    expect(boxed.box).toEqual(box);
    expect(Math.abs(boxed.widthPx - 228)).toBeLessThanOrEqual(1);
    expect(Math.abs(boxed.heightPx - 120)).toBeLessThanOrEqual(1);

    expect(errorOf(await call("crop", { pdf: fixture, anchor: "figure:9" })).code).toBe("ANCHOR_NOT_FOUND");
    expect(errorOf(await call("crop", { pdf: fixture, page: 3 })).code).toBe("PAGE_OUT_OF_RANGE");
    const empty = { left: 10, bottom: 10, right: 5, top: 20 };
    expect(errorOf(await call("crop", { pdf: fixture, page: 1, box: empty })).code).toBe("BOX_INVALID");
    expect(errorOf(await call("crop", { pdf: fixture, page: 1, dpi: 600 })).message).toContain(
      "million pixels",
    );
    expect(errorOf(await call("crop", { pdf: fixture, box })).message).toContain('"page"');
  });

  it("--allow-root replaces the default root", async () => {
    const other = await connect(["--allow-root", scratch]);
    try {
      const result = (await other.callTool({
        name: "verify",
        arguments: { pdf: fixture, evidence: [] },
      })) as CallResult;
      expect(errorOf(result).code).toBe("ACCESS_DENIED");
    } finally {
      await other.close();
    }
  });
});
