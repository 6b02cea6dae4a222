// The package's bin runs the CLI from the build's bundle (dist/bundle/, scripts/bundle-cli.mjs): it
// loads the bundle's files and none of tsc's modules of the CLI, and prints byte for byte what tsc's
// modules print for the same call, a batch's pool of workers and the engine's worker included.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { modulesLoaded } from "../helpers/loaded-modules.js";
import { cliPath } from "../helpers/run-cli.js";

const dist = join(repoRoot, "dist");
const bundle = join(dist, "bundle");
const scratch = tempDir();
afterAll(() => scratch.remove());

/** Runs the program from tsc's modules (dist/cli/program.js), as the CLI did before its bundle. */
const unbundled = join(scratch.dir, "unbundled.mjs");
writeFileSync(
  unbundled,
  `const { runProgram } = await import(${JSON.stringify(pathToFileURL(join(dist, "cli", "program.js")).href)});
process.exitCode = await runProgram([process.execPath, "citeproof", ...process.argv.slice(2)]);
`,
);

/** Runs `script` with `args`; the bin is told to run the call itself (no `citeproof serve`). */
function run(script: string[], args: string[]) {
  const own = script.includes(cliPath) ? ["--serve", "never"] : [];
  const out = spawnSync(process.execPath, [...script, ...args, ...own], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, CITEPROOF_SERVE: "" },
    timeout: 60_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

const evidence = join(scratch.dir, "evidence.json");
writeFileSync(
  evidence,
  JSON.stringify([
    { id: "q", kind: "quotation", page: 5, text: "reduced the mean squared error by roughly a third" },
    { id: "x", kind: "quotation", page: 5, text: "words this page does not print" },
    { id: "e", kind: "equation", label: "3" },
    { id: "p", kind: "page", page: 9 },
  ]),
);
const jobs = join(scratch.dir, "jobs.jsonl");
writeFileSync(
  jobs,
  `${[
    { id: "v", pdf: fixture("paper"), verify: [{ id: "p1", kind: "page", page: 1 }] },
    { id: "t", pdf: fixture("prose-example"), check_text: "As written, p. 1 holds it." },
  ]
    .map((j) => JSON.stringify(j))
    .join("\n")}\n`,
);

const VERIFY = ["verify", fixture("paper"), "--evidence", evidence, "--json", "--no-cache"];

describe("the CLI's bundle", () => {
  it("is what the bin runs: the bundle's files load, tsc's modules of the CLI do not", () => {
    const urls = modulesLoaded(scratch.dir, [...VERIFY, "--serve", "never"], 1);
    const ours = urls.filter((u) => u.startsWith(pathToFileURL(dist).href));
    expect(ours.some((u) => u.endsWith("/dist/bundle/cli.js"))).toBe(true);
    expect(ours.some((u) => u.endsWith("/dist/bundle/engine-worker.js"))).toBe(true);
    // Besides the bundle, only the entry's own CommonJS modules (main.cjs loaded them first).
    expect(ours.filter((u) => !u.includes("/dist/bundle/") && !u.endsWith(".cjs"))).toEqual([]);
  });

  it("prints byte for byte what tsc's modules print: a cold verify, its text form, a batch", () => {
    for (const args of [
      VERIFY,
      ["verify", fixture("paper"), "--evidence", evidence, "--no-cache"],
      ["anchors", fixture("paper"), "--json", "--no-cache"],
    ]) {
      const want = run([unbundled], args);
      expect(want.stdout.length).toBeGreaterThan(0);
      expect(run([cliPath], args)).toEqual(want);
    }
    const results = (name: string) => join(scratch.dir, `${name}.jsonl`);
    // The progress lines name each job's time: the rest is compared.
    const batch = (script: string[], name: string) => {
      const r = run(script, ["batch", jobs, "--out", results(name), "--jobs", "1", "--no-cache"]);
      return { ...r, stderr: r.stderr.replace(/\(\d+(\.\d+)? ms\)/g, "(ms)") };
    };
    const want = batch([unbundled], "want");
    expect(want.status, want.stderr).toBe(0);
    expect(batch([cliPath], "got")).toEqual(want);
    const lines = (name: string) =>
      readFileSync(results(name), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        // A line's time, and its seal over it, differ run to run.
        .map(({ batch: { ms, seal, ...rest }, ...line }) => ({ ...line, batch: rest }));
    expect(lines("got")).toEqual(lines("want"));
    expect(lines("got").map((l) => l.id)).toEqual(["v", "t"]);
    expect(lines("got").map((l) => l.batch.exit)).toEqual([0, 0]);
  });

  it("holds a worker of each name its modules start one by (`new URL('./x.js', import.meta.url)`)", () => {
    const started = new Set<string>();
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
      );
    for (const file of walk(join(repoRoot, "src")))
      for (const m of readFileSync(file, "utf8").matchAll(
        /new URL\("\.\/([\w-]+\.js)", import\.meta\.url\)/g,
      ))
        started.add(m[1]);
    expect([...started].sort()).toEqual(["engine-worker.js", "worker.js"]);
    for (const name of started) expect(existsSync(join(bundle, name)), name).toBe(true);
  });

  it("names the licence of each package whose code it holds", () => {
    const modules = JSON.parse(readFileSync(join(bundle, "modules.json"), "utf8")) as Record<
      string,
      string[]
    >;
    // Each package's folder: the path up to the name after its last node_modules.
    const folders = new Set(
      Object.values(modules)
        .flat()
        .map((m) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(m)?.[1])
        .filter((p): p is string => p !== undefined),
    );
    const notices = readFileSync(join(bundle, "THIRD-PARTY-LICENSES.txt"), "utf8");
    const named = [...folders].map((folder) => {
      const { name, version } = JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8"));
      expect(notices, folder).toContain(`${name}@${version} (`);
      return name;
    });
    expect(named).toContain("zod");
  });
});
