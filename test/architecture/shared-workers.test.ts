// The fast project's files share their workers (vitest.config.ts, isolate: false): a file that changes
// something beyond itself (a spy on a shared module, fake timers, an environment variable) puts it back,
// or the files after it in the same worker would run against what it left.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/fixture-files.js";

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const ENV_SET = /process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]+)\])\s*=(?!=)/g;

/** What a test file changes beyond itself and does not put back. */
function leftChanged(source: string): string[] {
  const left: string[] = [];
  if (/vi\.spyOn\(/.test(source) && !/restoreAllMocks\(|\.mockRestore\(/.test(source))
    left.push("a spy never restored");
  if (/vi\.useFakeTimers\(/.test(source) && !/vi\.useRealTimers\(/.test(source))
    left.push("fake timers never made real again");
  const names = new Set([...source.matchAll(ENV_SET)].map((m) => m[1] ?? m[2]));
  for (const name of names) {
    const key = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const ref = `process\\.env(?:\\.${key}\\b|\\[${key}\\])`;
    // Put back: deleted, or given back a value saved before (a bare name, not a new value).
    const restored = new RegExp(`delete ${ref}|${ref}\\s*=\\s*[A-Za-z_$][\\w$.]*\\s*;`).test(source);
    if (!restored) left.push(`process.env ${name} never put back`);
  }
  return left;
}

describe("test files sharing a worker", () => {
  it("put back the spies, timers and environment variables they change", () => {
    const offenders = testFiles(join(repoRoot, "test"))
      .filter((path) => path !== fileURLToPath(import.meta.url))
      .map((path) => ({ file: relative(repoRoot, path), left: leftChanged(readFileSync(path, "utf8")) }))
      .filter((f) => f.left.length > 0);
    expect(offenders).toEqual([]);
  });

  it("tells a file that leaves one changed", () => {
    expect(leftChanged(`vi.spyOn(A.prototype, "f");`)).toEqual(["a spy never restored"]);
    expect(leftChanged(`vi.spyOn(A, "f"); afterAll(() => vi.restoreAllMocks());`)).toEqual([]);
    expect(leftChanged(`vi.useFakeTimers();`)).toEqual(["fake timers never made real again"]);
    expect(leftChanged(`process.env.CITEPROOF_CACHE_DIR = join(dir, "cache");`)).toEqual([
      "process.env CITEPROOF_CACHE_DIR never put back",
    ]);
    expect(
      leftChanged(
        `const saved = process.env.X; process.env.X = "1"; afterAll(() => { process.env.X = saved; });`,
      ),
    ).toEqual([]);
    expect(leftChanged(`process.env[KEY] = path; afterEach(() => { delete process.env[KEY]; });`)).toEqual(
      [],
    );
  });
});
