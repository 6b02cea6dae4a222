// `citeproof serve`: calls sent through it print exactly what the CLI prints in-process; a missing,
// stale or foreign socket, a refusal and a server that goes away mid-call all make the CLI run the
// command itself; `serve` refuses a folder or socket that is not the user's own.
// A call the server takes loads the socket client alone (no ES module, no package).
import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repeatedPagesPdf } from "../../scripts/attack/label-flood.mjs";
import { MAX_CALLS_IN_FLIGHT } from "../../src/cli/serve-lanes.js";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";

const tmp = tempDir();
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill("SIGKILL");
  tmp.remove();
});
let counter = 0;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI without blocking this process (a test may answer on the socket meanwhile). */
function cli(args: string[], env: Record<string, string>, script = cliPath, cwd = repoRoot): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** A runtime directory of this test's own, and the environment that points the CLI at it. */
function runtime(): { env: Record<string, string>; dir: string; socket: string } {
  const root = join(tmp.dir, `run-${counter++}`);
  mkdirSync(root, { mode: 0o700 });
  const cache = join(tmp.dir, `cache-${counter++}`);
  const dir = join(root, "citeproof");
  return {
    env: { XDG_RUNTIME_DIR: root, CITEPROOF_CACHE_DIR: cache, CITEPROOF_SERVE: "" },
    dir,
    socket: join(dir, "serve.sock"),
  };
}

/** Starts `citeproof serve` and resolves once it listens (or with its exit when it cannot). */
function startServe(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; log: () => string; exit?: Run }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, "serve", "--idle-timeout-ms", "120000"], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
    });
    servers.push(child);
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      if (stderr.includes("citeproof serve: listening on")) resolve({ child, log: () => stderr });
    });
    child.on("close", (status) => resolve({ child, log: () => stderr, exit: { status, stdout, stderr } }));
  });
}

const PAPER = fixture("paper");
const evidence = join(tmp.dir, "evidence.json");
writeFileSync(
  evidence,
  JSON.stringify([
    { id: "a", kind: "quotation", page: 5, text: "reduced the mean squared error by roughly a third" },
    { id: "b", kind: "quotation", page: 3, text: "reduced the mean squared error by roughly a third" },
    { id: "c", kind: "page", page: 9 },
  ]),
);
const VERIFY = ["verify", PAPER, "--evidence", evidence];

describe("citeproof serve", () => {
  it("prints through the server exactly what the CLI prints in-process", async () => {
    const { env } = runtime();
    const inProcess = await cli([...VERIFY, "--json", "--serve", "never"], env);
    const text = await cli([...VERIFY, "--serve=never"], env);
    expect(inProcess.status).toBe(1);
    const server = await startServe(env);
    expect(server.exit).toBeUndefined();
    for (const [args, want] of [
      [[...VERIFY, "--json"], inProcess],
      [VERIFY, text],
      [[...VERIFY, "--json", "--serve", "auto"], inProcess],
    ] as const) {
      const served = await cli([...args], env);
      expect(served).toEqual(want);
    }
    // The CLI under its ES module path is the same build: the server takes its call too.
    expect(await cli([...VERIFY, "--json"], env, join(repoRoot, "dist", "cli", "main.js"))).toEqual(
      inProcess,
    );
    expect(server.log().match(/ran, exit 1/g)).toHaveLength(4);
    // Another environment (another cache) is not the server's to run: the CLI runs it itself.
    const other = await cli([...VERIFY, "--json"], { ...env, CITEPROOF_CACHE_DIR: join(tmp.dir, "other") });
    expect(other.stdout).toBe(inProcess.stdout);
    expect(server.log()).toContain("refused (another environment)");
    // A second server on the same socket is refused.
    const second = await startServe(env);
    expect(second.exit?.status).toBe(2);
    expect(second.exit?.stderr).toContain("already listening");
    server.child.kill("SIGTERM");
  });

  it("runs calls sent at once side by side, each with its own output, exit code and directory", async () => {
    const { env } = runtime();
    // Another directory, whose evidence file is named relative to it.
    const elsewhere = join(tmp.dir, `elsewhere-${counter++}`);
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "ev.json"), JSON.stringify([{ kind: "page", page: 2 }]));
    const calls: [string[], string][] = [
      [[...VERIFY, "--json"], repoRoot],
      [VERIFY, repoRoot],
      [["locate", PAPER, "--text", "mean squared error"], repoRoot],
      [["verify", PAPER, "--evidence", "ev.json"], elsewhere],
      [["verify", PAPER, "--evidence", "missing.json"], repoRoot],
      [[...VERIFY, "--json"], repoRoot],
    ];
    const inProcess = await Promise.all(
      calls.map(([args, cwd]) => cli([...args, "--serve", "never"], env, cliPath, cwd)),
    );
    expect(inProcess.map((r) => r.status)).toEqual([1, 1, 0, 0, 2, 1]);
    expect(inProcess[4].stderr).toContain("evidence file missing.json does not exist");
    const server = await startServe(env);
    const served = await Promise.all(calls.map(([args, cwd]) => cli(args, env, cliPath, cwd)));
    expect(served).toEqual(inProcess);
    expect(server.log().match(/ran, exit \d/g)).toHaveLength(calls.length);
    server.child.kill("SIGTERM");
  });

  it("runs in-process on a stale socket, and a new server replaces it", async () => {
    const { env, socket } = runtime();
    const want = await cli([...VERIFY, "--json", "--serve", "never"], env);
    const server = await startServe(env);
    server.child.kill("SIGKILL");
    await new Promise((resolve) => server.child.once("close", resolve));
    // The socket file is left behind with nobody listening on it.
    expect((await import("node:fs")).existsSync(socket)).toBe(true);
    expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
    const again = await startServe(env);
    expect(again.exit).toBeUndefined();
    expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
    expect(again.log()).toContain("ran, exit 1");
    again.child.kill("SIGTERM");
  });

  it("runs in-process when the server goes away in the middle of a call", async () => {
    const { env, dir, socket } = runtime();
    const want = await cli([...VERIFY, "--json", "--serve", "never"], env);
    mkdirSync(dir, { mode: 0o700 });
    let calls = 0;
    // A peer that takes the call and dies before it answers.
    const peer = createServer((s) =>
      s.on("data", () => {
        calls++;
        s.destroy();
      }),
    );
    await new Promise<void>((resolve) => peer.listen(socket, resolve));
    try {
      expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
      expect(calls).toBe(1);
    } finally {
      peer.close();
    }
  });

  it("runs in-process when what answers on the socket is not a server's reply", async () => {
    const { env, dir, socket } = runtime();
    const want = await cli([...VERIFY, "--json", "--serve", "never"], env);
    mkdirSync(dir, { mode: 0o700 });
    const replies = ["not json\n", `${JSON.stringify({ protocol: 1, stdout: 3 })}\n`, '{"protocol":99}\n'];
    let calls = 0;
    const peer = createServer((s) => s.on("data", () => s.end(replies[calls++])));
    await new Promise<void>((resolve) => peer.listen(socket, resolve));
    try {
      for (const _ of replies) expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
      expect(calls).toBe(replies.length);
    } finally {
      peer.close();
    }
  });

  it("uses neither a folder nor a socket that is not the user's own", async () => {
    const { env, dir, socket } = runtime();
    const want = await cli([...VERIFY, "--json", "--serve", "never"], env);
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o755);
    expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
    const open = await startServe(env);
    expect(open.exit?.status).toBe(2);
    expect(open.exit?.stderr).toMatch(/ACCESS_DENIED.*open to other users/);
    chmodSync(dir, 0o700);
    writeFileSync(socket, "not a socket");
    expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
    const file = await startServe(env);
    expect(file.exit?.status).toBe(2);
    expect(file.exit?.stderr).toMatch(/ACCESS_DENIED.*is not a socket/);
  });

  it.skipIf(!existsSync("/dev/full"))(
    "a served call's output that cannot be written: OUTPUT_UNWRITABLE, exit 2; a reader gone: the call's own exit",
    async () => {
      const { env } = runtime();
      const server = await startServe(env);
      const run = (stdout: "pipe" | number) =>
        new Promise<{ status: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [cliPath, ...VERIFY, "--json"], {
            cwd: repoRoot,
            env: { ...process.env, ...env },
            stdio: ["ignore", stdout, "pipe"],
          });
          // Closed before the answer is in: the first write meets EPIPE.
          child.stdout?.destroy();
          let stderr = "";
          child.stderr?.on("data", (d) => (stderr += d));
          child.on("close", (status) => resolve({ status, stderr }));
        });
      const full = await run(openSync("/dev/full", "w"));
      expect(full.status).toBe(2);
      expect(full.stderr).toMatch(
        /^citeproof: error \[OUTPUT_UNWRITABLE\]: cannot write to standard output \(ENOSPC\)/,
      );
      expect(full.stderr).not.toMatch(/\n\s+at /);
      expect(await run("pipe")).toEqual({ status: 1, stderr: "" });
      expect(server.log().match(/ran, exit 1/g)).toHaveLength(2);
      server.child.kill("SIGTERM");
    },
  );

  it("refuses a --serve mode it does not know", async () => {
    const { env } = runtime();
    const run = await cli([...VERIFY, "--json", "--serve", "always"], env);
    expect(run.status).toBe(2);
    expect(JSON.parse(run.stdout).error.code).toBe("USAGE");
  });

  it("a call a server takes loads the socket client alone: no ES module, no package, no program", async () => {
    const { env } = runtime();
    // A probe the CLI's process loads first: at exit it lists the CommonJS files it loaded and
    // Node's own modules (an ES module run loads the ES module job).
    const probe = join(tmp.dir, `probe-${counter++}.cjs`);
    const out = join(tmp.dir, `probe-${counter++}.json`);
    writeFileSync(
      probe,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));\n`,
    );
    const probed = async (args: string[]) => {
      const run = await cli(args, { ...env, NODE_OPTIONS: `--require ${probe}` });
      expect(run.status, run.stderr).toBe(1);
      return JSON.parse(readFileSync(out, "utf8")) as { files: string[]; builtins: string[] };
    };
    const esModuleRan = (builtins: string[]) =>
      builtins.includes("NativeModule internal/modules/esm/module_job");
    // In-process, the probe sees the program load: the CLI's bundle (CommonJS, so no ES module runs either).
    const inProcess = await probed([...VERIFY, "--json", "--serve", "never"]);
    expect(inProcess.files).toContain(join(repoRoot, "dist", "bundle", "cli.js"));
    expect(esModuleRan(inProcess.builtins)).toBe(false);
    const server = await startServe(env);
    expect(server.exit).toBeUndefined();
    const served = await probed([...VERIFY, "--json"]);
    expect(server.log().match(/ran, exit 1/g)).toHaveLength(1);
    expect(esModuleRan(served.builtins)).toBe(false);
    const dist = join(repoRoot, "dist", "cli");
    expect(served.files.filter((f) => f !== probe).sort()).toEqual(
      ["main.cjs", "serve-client.cjs", "serve-mode.cjs", "serve-socket.cjs", "stdout-guard.cjs"].map((f) =>
        join(dist, f),
      ),
    );
    server.child.kill("SIGTERM");
  });
});

/** A call as the CLI sends it, for a server started with `env`. */
function rawRequest(args: string[], env: Record<string, string>): string {
  const program = join(repoRoot, "dist", "bundle", "cli.js");
  const all: Record<string, string | undefined> = { ...process.env, ...env };
  const served: Record<string, string> = {};
  for (const key of Object.keys(all).sort())
    if (
      (key.startsWith("CITEPROOF_") || key === "XDG_CACHE_HOME" || key === "HOME") &&
      key !== "CITEPROOF_SERVE"
    )
      if (all[key] !== undefined) served[key] = all[key] as string;
  const build = `${process.version} ${program} ${statSync(program).mtimeMs}`;
  return `${JSON.stringify({ protocol: 1, build, cwd: repoRoot, env: served, args })}\n`;
}

/** Sends `data` on the server's socket and resolves with what comes back before it closes. */
function exchange(socket: string, data: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(socket);
    let got = "";
    s.on("data", (d) => (got += d));
    s.on("error", () => resolve(got));
    s.on("close", () => resolve(got));
    s.write(data);
  });
}

describe("citeproof serve started twice", () => {
  it("of servers started together one listens; the others stop, saying so", async () => {
    for (let round = 0; round < 3; round++) {
      const { env } = runtime();
      const started = await Promise.all(Array.from({ length: 4 }, () => startServe(env)));
      const listening = started.filter((s) => s.exit === undefined);
      expect(listening, started.map((s) => s.log()).join("\n")).toHaveLength(1);
      for (const s of started.filter((x) => x.exit !== undefined))
        expect(s.exit?.stderr).toContain("already listening");
      listening[0].child.kill("SIGTERM");
    }
  });

  it("a server that ends removes its socket, never a successor's", async () => {
    const { env, socket } = runtime();
    const want = await cli([...VERIFY, "--json", "--serve", "never"], env);
    const first = await startServe(env);
    // Its socket name is taken over (as a server finding it stale would), and a second server listens.
    rmSync(socket);
    const second = await startServe(env);
    expect(second.exit).toBeUndefined();
    first.child.kill("SIGTERM");
    await new Promise((resolve) => first.child.once("close", resolve));
    expect(existsSync(socket)).toBe(true);
    expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
    expect(second.log()).toContain("ran, exit 1");
    second.child.kill("SIGTERM");
    await new Promise((resolve) => second.child.once("close", resolve));
    expect(existsSync(socket)).toBe(false);
  });
});

describe("citeproof serve under clients that go away or send too much", () => {
  it("runs none of the calls whose clients went away while they waited, and nothing waits behind abandoned work", async () => {
    const { env, socket } = runtime();
    const want = await cli([...VERIFY, "--json", "--serve", "never"], env);
    const server = await startServe(env);
    const slow = rawRequest(["anchors", fixture("eq-layouts"), "--no-cache", "--json"], env);
    const clients = Array.from({ length: 5 }, () => {
      const s = connect(socket);
      s.on("error", () => {});
      s.write(slow);
      return s;
    });
    await new Promise((r) => setTimeout(r, 100));
    for (const s of clients) s.destroy();
    expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
    await new Promise((r) => setTimeout(r, 200));
    // The calls running when their clients went away (at most MAX_CALLS_IN_FLIGHT) may finish; the one
    // waiting behind them never starts.
    const ranForGone = server.log().match(/ran, exit \d+ in \d+ ms; its client had gone/g) ?? [];
    expect(ranForGone.length, server.log()).toBeLessThanOrEqual(MAX_CALLS_IN_FLIGHT);
    const refused = server
      .log()
      .match(/refused \((busy with a call whose client went away|its client went away)/g);
    expect(refused?.length ?? 0, server.log()).toBeGreaterThanOrEqual(5 - MAX_CALLS_IN_FLIGHT);
    server.child.kill("SIGTERM");
  });

  it("stops the extraction of a running call whose client went away", async () => {
    const { env, socket } = runtime();
    // 250 pages: seconds of extraction (one worker; fewer pages than are split between workers).
    const flood = join(tmp.dir, "pages.pdf");
    writeFileSync(flood, repeatedPagesPdf(250));
    const server = await startServe(env);
    const client = connect(socket);
    client.on("error", () => {});
    client.write(rawRequest(["anchors", flood, "--no-cache", "--json"], env));
    await new Promise((r) => setTimeout(r, 400));
    client.destroy();
    const started = Date.now();
    while (!/; its client had gone/.test(server.log()) && Date.now() - started < 60_000)
      await new Promise((r) => setTimeout(r, 20));
    // Run to its end the call exits 0 after seconds; stopped, its extraction fails at once.
    expect(server.log()).toMatch(/ran, exit 2 in \d+ ms; its client had gone/);
    server.child.kill("SIGTERM");
  });

  it("stops it too when the client went away before the extraction began", async () => {
    const { env, socket } = runtime();
    const flood = join(tmp.dir, "pages-early.pdf");
    writeFileSync(flood, repeatedPagesPdf(250));
    const server = await startServe(env);
    const client = connect(socket);
    client.on("error", () => {});
    client.write(rawRequest(["anchors", flood, "--no-cache", "--json"], env));
    // Gone while the call still loads its modules and opens the file: no engine runs yet to close.
    await new Promise((r) => setTimeout(r, 15));
    client.destroy();
    const started = Date.now();
    while (!/its client (had gone|went away)/.test(server.log()) && Date.now() - started < 60_000)
      await new Promise((r) => setTimeout(r, 20));
    // Never run to its end: refused before it started, or its extraction stopped.
    expect(server.log()).not.toMatch(/ran, exit 0 in \d+ ms; its client had gone/);
    expect(server.log()).toMatch(/ran, exit 2 in \d+ ms; its client had gone|refused \(its client went away/);
    server.child.kill("SIGTERM");
  });

  it("never reads a file of the caller's own streams (/dev/stdin, /proc/self) in the server", async () => {
    const { env, socket } = runtime();
    const server = await startServe(env);
    const link = join(tmp.dir, `stdin-link-${counter++}`);
    symlinkSync("/dev/stdin", link);
    for (const named of ["/dev/stdin", "/proc/self/fd/0", "/dev/fd/0", link]) {
      const request = rawRequest(["verify", PAPER, "--evidence", named, "--json"], env);
      const reply = await Promise.race([
        exchange(socket, request),
        new Promise<string>((r) => setTimeout(() => r("no answer"), 5000)),
      ]);
      expect(JSON.parse(reply).refused, named).toContain("would be the server's own");
    }
    // The CLI runs such a call itself, as it would without a server.
    const own = ["verify", PAPER, "--evidence", "/dev/stdin", "--json"];
    expect(await cli(own, env)).toEqual(await cli([...own, "--serve", "never"], env));
    expect(server.log()).not.toContain("ran, exit");
    server.child.kill("SIGTERM");
  });

  it("refuses a request line over 1 MiB, with or without its newline, and keeps serving", async () => {
    const { env, socket } = runtime();
    const want = await cli([...VERIFY, "--json", "--serve", "never"], env);
    const server = await startServe(env);
    for (const data of [Buffer.alloc(2 * 1024 * 1024, 0x61), `${"b".repeat(1024 * 1024 + 10)}\n`]) {
      const reply = JSON.parse(await exchange(socket, data)) as { refused?: string };
      expect(reply.refused).toContain("a request over 1048576 bytes");
    }
    expect(await cli([...VERIFY, "--json"], env)).toEqual(want);
    expect(server.log()).toContain("ran, exit 1");
    server.child.kill("SIGTERM");
  });
});
