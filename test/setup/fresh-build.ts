/**
 * Tests import `src/` directly, but worker threads, child processes and the CLI run the built `dist/`.
 * Before any test runs, rebuild when a source file is newer than what was built from it (or was never
 * built), so a run never mixes fresh sources with stale workers.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function staleSource(): string | undefined {
  // The build's last step: the derivation manifest (scripts/derivation-manifest.mjs).
  if (!existsSync(join(root, "dist", "derivation-manifest.json")))
    return join(root, "src", "util", "derivation-graph.ts");
  const buildConfig = statSync(join(root, "tsconfig.json")).mtimeMs;
  // The CLI's bundle (scripts/bundle-cli.mjs) is made from the built modules: none may be newer.
  const bundle = join(root, "dist", "bundle", "cli.js");
  const bundledAt = existsSync(bundle) ? statSync(bundle).mtimeMs : -1;
  for (const source of sources(join(root, "src"))) {
    const built = join(root, "dist", relative(join(root, "src"), source)).replace(/\.ts$/, ".js");
    if (!existsSync(built)) return source;
    const builtAt = statSync(built).mtimeMs;
    if (builtAt < statSync(source).mtimeMs || builtAt < buildConfig || builtAt > bundledAt) return source;
  }
  return undefined;
}

export default function setup(): void {
  const stale = staleSource();
  if (stale === undefined) return;
  process.stderr.write(`tests: ${relative(root, stale)} is newer than dist/; building first\n`);
  // The build is incremental, and its record does not notice an output deleted since: start it afresh.
  const built = join(root, "dist", relative(join(root, "src"), stale)).replace(/\.ts$/, ".js");
  if (!existsSync(built)) rmSync(join(root, "dist", ".tsbuildinfo"), { force: true });
  execFileSync(
    process.execPath,
    [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  for (const step of ["bundle-cli.mjs", "derivation-manifest.mjs"])
    execFileSync(process.execPath, [join(root, "scripts", step)], { cwd: root, stdio: "inherit" });
}
