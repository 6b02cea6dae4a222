// `prepare` (npm runs it on `npm install` in a clone, on `npm install -g <folder>` and on `npm pack`):
// build dist/. A global install of a folder (`npm install -g .`) links the folder as it is, so when its
// dependencies were never installed this installs them from the lockfile first.
import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
// npm prepares a git dependency in a clone under its cache and installs the dependencies there itself.
const npmGitClone = root.split(sep).includes("_cacache");

if (!existsSync(tsc)) {
  if (npmGitClone) {
    console.error(
      "citeproof: npm prepared this git clone without installing its dependencies; install from a clone or a packed tarball instead (README, Install)",
    );
    process.exit(1);
  }
  // The outer npm's settings reach scripts as npm_config_*; the inner install must be local, not global,
  // and real: `npm pack --dry-run` still runs prepare, which needs the compiler to build what it lists.
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (/^npm_config_(global|location|prefix|install_links|dry_run)$/i.test(key)) delete env[key];
  execFileSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: root,
    env,
    stdio: "inherit",
  });
}
// A clean build: what is packed or linked is exactly what the sources make, no module left from an old build.
rmSync(join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: root, stdio: "inherit" });
execFileSync(process.execPath, [join(root, "scripts", "bundle-cli.mjs")], { cwd: root, stdio: "inherit" });
execFileSync(process.execPath, [join(root, "scripts", "derivation-manifest.mjs")], {
  cwd: root,
  stdio: "inherit",
});
