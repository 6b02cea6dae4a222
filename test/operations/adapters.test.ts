// Each agent operation through the three interfaces — the CLI (`--json`, as a process), the MCP server's
// tool call and the pi extension's tool — gives the same JSON document. The commands that are operations
// of their own (sessions, evidence runs and their sources) have one adapter, the CLI: its `--json` document
// and exit code are those of the operation run directly, step by step, on twin stores made the same way.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callTool } from "../../src/mcp/server.js";
import type { AnyOperation, OperationContext } from "../../src/operations/operation.js";
import * as run from "../../src/operations/run.js";
import * as session from "../../src/operations/session.js";
import * as source from "../../src/operations/source.js";
import type { ExtensionAPI, PiToolDefinition } from "../../src/pi/api.js";
import citeproofExtension from "../../src/pi/extension.js";
import { startServer } from "../evidence/helpers.js";

const root = resolve(import.meta.dirname, "../..");
const cli = join(root, "dist/cli/main.js");
const pdf = join(root, "test/fixtures/interfaces.pdf");
const work = mkdtempSync(join(tmpdir(), "citeproof-adapters-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const tools = new Map<string, PiToolDefinition>();
citeproofExtension({
  registerTool: (tool) => tools.set(tool.name, tool),
  registerCommand: () => {},
} satisfies ExtensionAPI);
const env = { cwd: root, roots: [root], open: { noCache: true } };
const saved = { cacheDir: process.env.CITEPROOF_CACHE_DIR, keyFile: process.env.CITEPROOF_KEY_FILE };
process.env.CITEPROOF_CACHE_DIR = join(work, "cache");
process.env.CITEPROOF_KEY_FILE = join(work, "key");
afterAll(() => {
  if (saved.cacheDir === undefined) delete process.env.CITEPROOF_CACHE_DIR;
  else process.env.CITEPROOF_CACHE_DIR = saved.cacheDir;
  if (saved.keyFile === undefined) delete process.env.CITEPROOF_KEY_FILE;
  else process.env.CITEPROOF_KEY_FILE = saved.keyFile;
});

function file(name: string, value: unknown): string {
  const path = join(work, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

function viaCli(args: string[]): unknown {
  const run = spawnSync(process.execPath, [cli, ...args, "--json", "--no-cache"], {
    cwd: root,
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBeLessThan(2);
  return JSON.parse(run.stdout);
}

async function viaMcp(name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await callTool(name, args, env);
  const text = result.content.find((c) => c.type === "text") as { text: string };
  expect(result.isError, text.text).toBeFalsy();
  return JSON.parse(text.text);
}

async function viaPi(name: string, args: Record<string, unknown>): Promise<unknown> {
  const ctx = { cwd: root, ui: { notify: () => {} } };
  return (await tools.get(`citeproof_${name}`)!.execute("call", args, undefined, undefined, ctx)).details;
}

/** What differs by design: the CLI names the PNG it wrote; a cache makes a second run extract nothing. */
function comparable(doc: unknown): unknown {
  const { out: _out, extracted_pages: _pages, ...rest } = doc as Record<string, unknown>;
  return rest;
}

const evidence = [
  {
    id: "q1",
    kind: "quotation",
    page: 1,
    text: "Salt corrosion was the most common defect on the older hulls",
  },
  { id: "q2", kind: "quotation", page: 1, text: "Work on the northern quay begins in October" },
  { id: "p9", kind: "page", page: 9 },
  { id: "f1", kind: "figure", label: "1" },
];
const citations = [
  {
    id: "c1",
    quote: "Salt corrosion was the most common defect",
    page: 1,
    bounding_box: { left: 0, bottom: 0, right: 612, top: 792 },
  },
];

const cases: [string, Record<string, unknown>, () => string[]][] = [
  ["verify", { pdf, evidence }, () => ["verify", pdf, "--evidence", file("evidence.json", evidence)]],
  ["anchors", { pdf }, () => ["anchors", pdf]],
  [
    "locate",
    { pdf, text: "salt corrosion ... older hulls" },
    () => ["locate", pdf, "--text", "salt corrosion ... older hulls"],
  ],
  [
    "crop",
    { pdf, anchor: "figure:1", dpi: 60 },
    () => ["crop", pdf, "--anchor", "figure:1", "--dpi", "60", "--out", join(work, "crop.png")],
  ],
  [
    "check_text",
    { pdf, draft: 'The report says "Salt corrosion was the most common defect on the older hulls" (p. 1).' },
    () => [
      "check-text",
      pdf,
      file(
        "draft.txt",
        'The report says "Salt corrosion was the most common defect on the older hulls" (p. 1).',
      ),
    ],
  ],
  [
    "cite_check",
    { sources: [{ path: pdf }], citations },
    () => [
      "cite-check",
      "--request",
      file("request.json", { operation: "cite_check", sources: [{ path: pdf }], citations }),
    ],
  ],
];

describe("one operation, three interfaces", () => {
  it.each(cases)("%s gives the same document through the CLI, MCP and pi", async (name, args, cliArgs) => {
    const fromCli = comparable(viaCli(cliArgs()));
    expect(comparable(await viaMcp(name, args))).toEqual(fromCli);
    expect(comparable(await viaPi(name, args))).toEqual(fromCli);
  });
});

const fixtures = join(root, "test/fixtures");
const ctx: OperationContext = { cwd: root, access: "anywhere", open: { noCache: true } };

/** The CLI as a process, awaited (not spawnSync: `source fetch` asks a server this process runs). */
async function cliRun(args: string[]): Promise<{ status: number | null; doc: unknown }> {
  const child = spawn(process.execPath, [cli, ...args, "--json"], { cwd: root });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const status = await new Promise<number | null>((done) => child.on("close", done));
  expect(status, stderr).toBeLessThan(2);
  return { status, doc: JSON.parse(stdout) };
}

async function opRun(op: AnyOperation, input: unknown): Promise<{ status: number; doc: unknown }> {
  const result = await op.run(input, ctx);
  return { status: op.exitCode(result), doc: JSON.parse(JSON.stringify(op.json(result))) };
}

/** Times, event and run ids and digests over them differ between twins by design; folders by name. */
const VOLATILE = new Set(["at", "created", "stored", "event_id", "run_id", "result_sha256", "seal"]);
function twinComparable(doc: unknown, dir: string): unknown {
  if (typeof doc === "string") return doc.replaceAll(dir, "<dir>");
  if (Array.isArray(doc)) return doc.map((d) => twinComparable(d, dir));
  if (doc === null || typeof doc !== "object") return doc;
  return Object.fromEntries(
    Object.entries(doc).map(([k, v]) => [
      k,
      VOLATILE.has(k) || k.endsWith("_at") ? "<volatile>" : twinComparable(v, dir),
    ]),
  );
}

/** One step on both twins: the CLI on `a`, the operation on `b`; the same exit code and document. */
async function step(
  twins: { a: string; b: string },
  cliArgs: (dir: string) => string[],
  op: AnyOperation,
  input: (dir: string) => unknown,
): Promise<unknown> {
  const fromCli = await cliRun(cliArgs(twins.a));
  const fromOp = await opRun(op, input(twins.b));
  expect(fromOp.status, op.name).toBe(fromCli.status);
  expect(twinComparable(fromOp.doc, twins.b), op.name).toEqual(twinComparable(fromCli.doc, twins.a));
  return fromOp.doc;
}

describe("command operations: the CLI prints what the operation returns", () => {
  it("evidence runs and their sources", async () => {
    const twins = { a: join(work, "run-a"), b: join(work, "run-b") };
    const text = "Salt corrosion was the most common defect on the older hulls.\nRepairs begin in October.";
    const url = "https://example.org/harbour-report";
    await step(
      twins,
      (dir) => ["run", "new", dir, "--library-root", fixtures],
      run.runNewOperation,
      (dir) => ({ run_dir: dir, library_root: fixtures, gate: false }),
    );
    const registered = (await step(
      twins,
      (dir) => ["source", "register", "--run-dir", dir, "--url", url, "--text-file", file("text.txt", text)],
      source.sourceRegisterOperation,
      (dir) => ({ run_dir: dir, url, text, media_type: "text/plain", actor: "main" }),
    )) as { source_id: string };
    const sourceId = registered.source_id;
    const server = await startServer({
      "/notes.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        res.end("The northern quay was surveyed in spring.");
      },
    });
    try {
      const notes = `${server.base}/notes.txt`;
      await step(
        twins,
        (dir) => ["source", "fetch", "--run-dir", dir, "--url", notes, "--evidence-id", "web:notes"],
        source.sourceFetchOperation,
        (dir) => ({ run_dir: dir, url: notes, evidence_id: "web:notes", actor: "main" }),
      );
    } finally {
      await server.close();
    }
    await step(
      twins,
      (dir) => ["source", "local", "--run-dir", dir, "--file", join(fixtures, "interfaces.pdf")],
      source.sourceLocalOperation,
      (dir) => ({ run_dir: dir, file: join(fixtures, "interfaces.pdf"), actor: "main" }),
    );
    await step(
      twins,
      (dir) => ["source", "read", "--run-dir", dir, "--source-id", sourceId, "--start", "5", "--end", "20"],
      source.sourceReadOperation,
      (dir) => ({ run_dir: dir, source_id: sourceId, start: 5, end: 20, actor: "main" }),
    );
    await step(
      twins,
      (dir) => ["source", "spans", "--run-dir", dir, "--source-id", sourceId, "--query", "older hulls"],
      source.sourceSpansOperation,
      (dir) => ({ run_dir: dir, source_id: sourceId, query: "older hulls", context: 250, max_hits: 8 }),
    );
    for (const dir of [twins.a, twins.b]) {
      mkdirSync(join(dir, "records"), { recursive: true });
      const span = {
        claim: "defect",
        evidence_id: "web:harbour",
        source_id: sourceId,
        start: 0,
        end: 14,
        access: "web",
      };
      writeFileSync(
        join(dir, "records", "claims.json"),
        JSON.stringify([{ id: "c1", text: "Salt corrosion", spans: [span] }]),
      );
    }
    await step(
      twins,
      (dir) => ["run", "assemble", "--run-dir", dir],
      run.runAssembleOperation,
      (dir) => ({ run_dir: dir }),
    );
    await step(
      twins,
      (dir) => ["run", "verify", "--run-dir", dir],
      run.runVerifyOperation,
      (dir) => ({
        run_dir: dir,
      }),
    );
    await step(
      twins,
      (dir) => ["run", "report", "--run-dir", dir, "--format", "md"],
      run.runReportOperation,
      (dir) => ({ run_dir: dir, format: "md" }),
    );
    await step(
      twins,
      (dir) => ["run", "promote", "--run-dir", dir, "--check"],
      run.runPromoteOperation,
      (dir) => ({ run_dir: dir }),
    );
  });

  it("review sessions", async () => {
    const twins = { a: join(work, "session-a"), b: join(work, "session-b") };
    const original = join(fixtures, "prose-example.pdf");
    const evidence = [
      { id: "q1", kind: "quotation", page: 1, text: "a finite set of nodes" },
      { id: "p2", kind: "page", page: 2 },
      { id: "bad", kind: "quotation", page: 3, text: "a finite set of edges" },
    ];
    const draft = 'The model is defined on p. 1 as "a finite set of nodes". Page 2 sets it up; see p. 3.';
    const named = (dir: string) => ({ name: "demo", session: dir });
    const flags = (sub: string, dir: string, ...args: string[]) => [
      "session",
      sub,
      "demo",
      ...args,
      "--session",
      dir,
    ];
    await step(
      twins,
      (dir) => flags("new", dir, original, "--no-cache"),
      session.sessionNewOperation,
      (dir) => ({ ...named(dir), pdf: original }),
    );
    await step(
      twins,
      (dir) => flags("verify", dir, "--evidence", file("evidence.json", evidence), "--pdf", original),
      session.sessionVerifyOperation,
      (dir) => ({ ...named(dir), evidence, pdf: original }),
    );
    await step(twins, (dir) => flags("pool", dir), session.sessionPoolOperation, named);
    await step(twins, (dir) => flags("draft-input", dir), session.sessionDraftInputOperation, named);
    await step(
      twins,
      (dir) => flags("check-draft", dir, file("draft.txt", draft)),
      session.sessionCheckDraftOperation,
      (dir) => ({ ...named(dir), draft }),
    );
    await step(
      twins,
      (dir) => flags("check-text", dir, file("draft.txt", draft)),
      session.sessionCheckTextOperation,
      (dir) => ({ ...named(dir), draft }),
    );
    const moved = join(fixtures, "prose-example-moved.pdf");
    await step(
      twins,
      (dir) => flags("revise", dir, moved, "--no-cache"),
      session.sessionReviseOperation,
      (dir) => ({ ...named(dir), pdf: moved }),
    );
    await step(twins, (dir) => flags("compare", dir), session.sessionCompareOperation, named);
  });
});
