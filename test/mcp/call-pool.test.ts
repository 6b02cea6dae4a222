// Tool calls on a pool of worker threads (`citeproof mcp --http --call-workers`): the answer a pooled
// call gives is the in-thread one, two calls at once run on two workers, and a pooled call stopped
// (its deadline passed, its client gone) has its work ended, not left running.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallPool } from "../../src/mcp/call-pool.js";
import { callTool, type ServerEnv } from "../../src/mcp/server.js";
import { fixture, INTERFACES_QUOTATIONS, repoRoot, tempDir } from "../helpers/fixture-files.js";

const PDF = fixture("interfaces");
const evidence = [
  ...INTERFACES_QUOTATIONS,
  { id: "q3", kind: "quotation", text: "the budget was approved in a hurry" },
  { id: "p1", kind: "page", page: 2 },
];

let work: ReturnType<typeof tempDir>;
let env: ServerEnv;
let uncached: ServerEnv;
const pool = new CallPool(2);
const never = new AbortController().signal;
beforeAll(() => {
  work = tempDir("citeproof-call-pool-");
  const roots = [join(repoRoot, "test")];
  env = { cwd: repoRoot, roots, open: { cacheDir: join(work.dir, "cache") } };
  uncached = { ...env, open: { noCache: true } };
});
afterAll(async () => {
  await pool.close();
  work.remove();
});

describe("CallPool", () => {
  it("answers a pooled call as the server's thread does, errors included", async () => {
    for (const args of [
      { pdf: PDF, evidence },
      { pdf: "/etc/passwd", evidence },
    ]) {
      const inThread = await callTool("verify", args, env);
      const pooled = await callTool("verify", args, env, undefined, undefined, { pool, left: never });
      expect(pooled).toEqual(inThread);
    }
    expect((await callTool("verify", { pdf: PDF, evidence }, env)).isError).toBeFalsy();
  });

  it("serves two calls at once on two workers", async () => {
    pool.servedBy.clear();
    const pooled = { pool, left: never };
    const answers = await Promise.all(
      [1, 2].map(() => callTool("verify", { pdf: PDF, evidence }, uncached, undefined, undefined, pooled)),
    );
    for (const answer of answers) expect(answer.isError).toBeFalsy();
    expect(pool.servedBy.size).toBe(2);
  });

  it("stops a pooled call's work at its deadline, and the pool serves on", async () => {
    let running: Promise<unknown> | undefined;
    const late = await callTool(
      "verify",
      { pdf: PDF, evidence },
      uncached,
      1,
      (w) => {
        running = w;
      },
      { pool, left: never },
    );
    expect(JSON.parse((late.content[0] as { text: string }).text).error.code).toBe("CALL_TIMEOUT");
    // Ended, not left to run to its end: the work has failed by the time the answer is out.
    await expect(running).rejects.toThrow(/stopped/);
    expect(
      (await callTool("verify", { pdf: PDF, evidence }, env, 60_000, undefined, { pool, left: never }))
        .isError,
    ).toBeFalsy();
  });

  it("drops a call stopped while it waits for a worker; the one running goes on", async () => {
    const one = new CallPool(1);
    try {
      const left = new AbortController();
      const task = { name: "verify", args: { pdf: PDF, evidence }, env: uncached };
      const running = one.run(task, never);
      const waiting = one.run(task, left.signal);
      left.abort();
      await expect(waiting).rejects.toThrow(/stopped/);
      expect((await running).isError).toBeFalsy();
      expect(one.servedBy.size).toBe(1);
    } finally {
      await one.close();
    }
  });

  it("stops a pooled call whose client went away", async () => {
    const left = new AbortController();
    let running: Promise<unknown> | undefined;
    const answer = callTool(
      "verify",
      { pdf: PDF, evidence },
      uncached,
      undefined,
      (w) => {
        running = w;
      },
      { pool, left: left.signal },
    );
    left.abort();
    await expect(running).rejects.toThrow(/stopped/);
    expect((await answer).isError).toBe(true);
  });
});
