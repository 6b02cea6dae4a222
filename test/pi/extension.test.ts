// The pi extension's factory, driven by a small recording `pi` object: what it registers, and
// what its tools and its /citeproof command do when called (for real, against a fixture PDF).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const shipped = join(root, "dist/pi/extension.js");
const work = mkdtempSync(join(tmpdir(), "citeproof-pi-"));

interface Registered {
  name: string;
  label: string;
  description: string;
  parameters: { type: string; properties: Record<string, unknown>; required?: string[] };
  execute(
    id: string,
    params: Record<string, unknown>,
    signal: AbortSignal | undefined,
    onUpdate: undefined,
    ctx: unknown,
  ): Promise<{ content: { type: string; text?: string }[]; details?: unknown }>;
}
interface Command {
  description: string;
  handler(args: string, ctx: unknown): Promise<void>;
}

function fakePi() {
  const tools = new Map<string, Registered>();
  const commands = new Map<string, Command>();
  return {
    tools,
    commands,
    api: {
      registerTool: (tool: Registered) => tools.set(tool.name, tool),
      registerCommand: (name: string, options: Command) => commands.set(name, options),
    },
  };
}

function fakeCtx(cwd: string) {
  const notes: { message: string; level?: string }[] = [];
  return {
    notes,
    ctx: { cwd, ui: { notify: (message: string, level?: string) => notes.push({ message, level }) } },
  };
}

const evidence = [
  {
    id: "q1",
    kind: "quotation",
    page: 1,
    text: "Salt corrosion was the most common defect on the older hulls",
  },
  { id: "q2", kind: "quotation", page: 1, text: "Work on the northern quay begins in October" },
];

let pi: ReturnType<typeof fakePi>;

const savedCacheDir = process.env.CITEPROOF_CACHE_DIR;
beforeAll(async () => {
  process.env.CITEPROOF_CACHE_DIR = join(work, "cache");
  const mod = await import(pathToFileURL(shipped).href);
  pi = fakePi();
  mod.default(pi.api);
});

afterAll(() => {
  delete process.env.CITEPROOF_ALLOW_ROOTS;
  if (savedCacheDir === undefined) delete process.env.CITEPROOF_CACHE_DIR;
  else process.env.CITEPROOF_CACHE_DIR = savedCacheDir;
  rmSync(work, { recursive: true, force: true });
});

describe("pi extension", () => {
  it("registers the tools, with JSON-schema parameters, and the /citeproof command", () => {
    expect([...pi.tools.keys()]).toEqual(
      expect.arrayContaining(["citeproof_verify", "citeproof_cite_check"]),
    );
    for (const tool of pi.tools.values()) {
      expect(tool.label).toMatch(/^citeproof /);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.parameters.type).toBe("object");
      expect(typeof tool.execute).toBe("function");
    }
    expect(pi.tools.get("citeproof_verify")!.parameters.required).toEqual(["evidence"]);
    expect(pi.commands.get("citeproof")?.description).toContain("verify");
  });

  it("citeproof_verify checks the records against the PDF, paths from the session's directory", async () => {
    const verify = pi.tools.get("citeproof_verify")!;
    const { ctx } = fakeCtx(join(root, "test/fixtures"));
    const result = await verify.execute(
      "call-1",
      { pdf: "@interfaces.pdf", evidence },
      undefined,
      undefined,
      ctx,
    );
    const doc = JSON.parse(result.content[0].text!);
    expect(doc.results.map((r: { verdict: string; reason: string }) => [r.verdict, r.reason])).toEqual([
      ["PASS", "found"],
      ["FAIL", "wrong-page"],
    ]);
    expect(result.details).toEqual(doc);
  });

  it("citeproof_locate finds the words to cite", async () => {
    const locate = pi.tools.get("citeproof_locate")!;
    const { ctx } = fakeCtx(root);
    const result = await locate.execute(
      "call-l",
      { pdf: "test/fixtures/interfaces.pdf", text: "salt corrosion was the most common defect" },
      undefined,
      undefined,
      ctx,
    );
    const doc = JSON.parse(result.content[0].text!);
    expect([doc.count, doc.occurrences[0].page]).toEqual([1, 1]);
  });

  it("citeproof_crop hands the model the image", async () => {
    const crop = pi.tools.get("citeproof_crop")!;
    const { ctx } = fakeCtx(root);
    const result = await crop.execute(
      "call-c",
      { pdf: "test/fixtures/interfaces.pdf", anchor: "figure:1" },
      undefined,
      undefined,
      ctx,
    );
    const image = result.content.find((c) => c.type === "image") as unknown as {
      data: string;
      mimeType: string;
    };
    expect(image.mimeType).toBe("image/png");
    const png = Buffer.from(image.data, "base64");
    const info = result.details as { page: number; widthPx: number; heightPx: number };
    expect(info.page).toBe(2);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([info.widthPx, info.heightPx]);
  });

  it("a tool problem is thrown as the error document (pi marks the call as failed)", async () => {
    const verify = pi.tools.get("citeproof_verify")!;
    const { ctx } = fakeCtx(root);
    const denied = await verify
      .execute("call-2", { pdf: "/etc/hostname", evidence }, undefined, undefined, ctx)
      .then(
        () => undefined,
        (error: Error) => error,
      );
    const document = JSON.parse(denied!.message);
    expect(document.error.code).toBe("ACCESS_DENIED");
    expect(document.error.details).toEqual({
      option: "allow_root",
      hint: "add one with CITEPROOF_ALLOW_ROOTS",
    });
    await expect(
      verify.execute(
        "call-3",
        { pdf: "test/fixtures/interfaces.pdf", evidence: [{ kind: "x" }] },
        undefined,
        undefined,
        ctx,
      ),
    ).rejects.toThrow(/"code":"EVIDENCE_INVALID".*evidence\[0\]/);
    const aborted = AbortSignal.abort();
    await expect(
      verify.execute("call-4", { pdf: "test/fixtures/interfaces.pdf", evidence }, aborted, undefined, ctx),
    ).rejects.toThrow(/cancelled/);
  });

  it("CITEPROOF_ALLOW_ROOTS replaces the session directory as the allowed root", async () => {
    const verify = pi.tools.get("citeproof_verify")!;
    const outside = join(work, "papers");
    mkdirSync(outside);
    cpSync(join(root, "test/fixtures/interfaces.pdf"), join(outside, "p.pdf"));
    const { ctx } = fakeCtx(root);
    const args = { pdf: join(outside, "p.pdf"), evidence: [{ kind: "page", page: 1 }] };
    await expect(verify.execute("c", args, undefined, undefined, ctx)).rejects.toThrow(/ACCESS_DENIED/);
    process.env.CITEPROOF_ALLOW_ROOTS = outside;
    try {
      const result = await verify.execute("c", args, undefined, undefined, ctx);
      expect(JSON.parse(result.content[0].text!).results[0].verdict).toBe("FLAG");
    } finally {
      delete process.env.CITEPROOF_ALLOW_ROOTS;
    }
  });

  it("/citeproof verify and /citeproof report", async () => {
    const command = pi.commands.get("citeproof")!;
    writeFileSync(join(work, "evidence.json"), JSON.stringify(evidence));
    const { ctx, notes } = fakeCtx(work);
    cpSync(join(root, "test/fixtures/interfaces.pdf"), join(work, "paper with spaces.pdf"));

    await command.handler('verify "paper with spaces.pdf" evidence.json', ctx);
    expect(notes[0].level).toBe("warning");
    expect(notes[0].message).toContain("PASS  [q1]");
    expect(notes[0].message).toContain("FAIL  [q2]");

    await command.handler('report "paper with spaces.pdf" evidence.json out.html', ctx);
    expect(notes[1].message).toContain(`report written to ${join(work, "out.html")}`);
    const html = readFileSync(join(work, "out.html"), "utf8");
    expect(html.match(/<section class="result /g)).toHaveLength(2);

    writeFileSync(
      join(work, "draft.txt"),
      'They write that "Salt corrosion was the most common defect" (p. 1), and more on p. 5.\n',
    );
    await command.handler("check-text 'paper with spaces.pdf' draft.txt", ctx);
    expect(notes.at(-1)!.level).toBe("warning");
    expect(notes.at(-1)!.message).toMatch(/PASS.*p\. 1/);
    expect(notes.at(-1)!.message).toMatch(/FAIL.*p\. 5/);
    notes.pop();

    await command.handler("report paper.pdf", ctx);
    expect(notes[2]).toMatchObject({ level: "error" });
    expect(notes[2].message).toContain("[USAGE]");

    await command.handler("frobnicate", ctx);
    expect(notes[3].level).toBe("error");

    await command.handler("", ctx);
    expect(notes[4]).toMatchObject({ level: "info" });
    expect(notes[4].message).toContain("/citeproof report");
  });

  it.skipIf(spawnSync("mkfifo", ["--version"]).status !== 0)(
    "/citeproof reads a named file through one descriptor: a FIFO is refused at once",
    async () => {
      const command = pi.commands.get("citeproof")!;
      const { ctx, notes } = fakeCtx(work);
      cpSync(join(root, "test/fixtures/interfaces.pdf"), join(work, "fifo-paper.pdf"));
      expect(spawnSync("mkfifo", [join(work, "pipe.json")]).status).toBe(0);
      await command.handler("verify fifo-paper.pdf pipe.json", ctx);
      expect(notes.at(-1)).toMatchObject({ level: "error" });
      expect(notes.at(-1)!.message).toMatch(/\[FILE_UNREADABLE\].*is a FIFO, not a regular file/);
    },
  );

  it("installs as a one-line module in .pi/extensions that re-exports the shipped file", async () => {
    const dir = join(work, ".pi/extensions");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "citeproof.js");
    writeFileSync(file, `export { default } from ${JSON.stringify(pathToFileURL(shipped).href)};\n`);
    const mod = await import(pathToFileURL(file).href);
    const again = fakePi();
    mod.default(again.api);
    expect(again.tools.size).toBe(pi.tools.size);
    expect(existsSync(file)).toBe(true);
  });

  it("cuts a long answer for the model and keeps the whole document in details", async () => {
    const { toPiResult, MAX_TOOL_TEXT } = await import(pathToFileURL(shipped).href);
    const big = {
      results: Array.from({ length: 5000 }, (_, i) => ({ id: `r${i}`, message: "x".repeat(20) })),
    };
    const result = toPiResult({ json: big });
    expect(result.content[0].text.length).toBeLessThan(MAX_TOOL_TEXT + 200);
    expect(result.content[0].text).toContain("truncated");
    expect(result.details).toBe(big);
  });
});
