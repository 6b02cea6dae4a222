// A command loads the modules its job needs: a PDF verify loads no flow checks, no HTTP client, no
// other operation's input schemas and no result schemas. Each file the run loads is named (a loader hook, a
// CommonJS preload), and each file of the CLI's bundle stands for the modules it holds.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/fixture-files.js";
import { modulesLoaded as filesLoaded } from "../helpers/loaded-modules.js";

const dir = mkdtempSync(join(tmpdir(), "citeproof-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The URLs of the modules a CLI run loads, in order, each file of the CLI's bundle as the modules it holds. */
function modulesLoaded(args: string[]): string[] {
  return filesLoaded(dir, args).flatMap(bundledModules);
}

/** The modules a file of the CLI's bundle holds (dist/bundle/modules.json), as URLs; any other URL as it is. */
function bundledModules(url: string): string[] {
  const bundle = pathToFileURL(join(repoRoot, "dist", "bundle")).href;
  if (!url.startsWith(`${bundle}/`)) return [url];
  const modules = JSON.parse(
    readFileSync(join(repoRoot, "dist", "bundle", "modules.json"), "utf8"),
  ) as Record<string, string[]>;
  const held = modules[url.slice(bundle.length + 1)];
  expect(held, url).toBeDefined();
  return held.map((m) => pathToFileURL(join(repoRoot, m)).href);
}

describe("a command loads what its job needs", () => {
  it("a PDF verify loads no flow checks, no HTTP client, no other operation's schemas, no result schemas", () => {
    const evidence = join(dir, "evidence.json");
    writeFileSync(evidence, JSON.stringify([{ kind: "page", page: 1 }]));
    const loaded = modulesLoaded([
      "verify",
      "test/fixtures/paper.pdf",
      "--evidence",
      evidence,
      "--json",
      "--no-cache",
      "--serve",
      "never",
    ]);
    // The run did load the verify command and the checks (so the hook saw it).
    expect(loaded.some((u) => u.endsWith("/dist/cli/commands/verify.js"))).toBe(true);
    expect(loaded.some((u) => u.endsWith("/dist/operations/schemas/documents.js"))).toBe(true);
    for (const module of [
      "/dist/checks/flow-verify.js",
      "/dist/source/url.js",
      "/dist/operations/schemas/index.js",
      "/dist/operations/schemas/run.js",
      "/dist/report/run/index.js",
      // The results' schemas: only the agent operations' output schemas need them.
      "/dist/checks/result.js",
    ])
      expect(loaded.filter((u) => u.endsWith(module))).toEqual([]);
  });
});
