// Starts a `citeproof serve` of the given CLI under `env` (its own XDG_RUNTIME_DIR, so that it answers
// only the runs given that env) and resolves once it listens.
import { spawn } from "node:child_process";

export function startServe(cli, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "serve", "--idle-timeout-ms", "600000"], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
      if (err.includes("citeproof serve: listening on")) resolve(child);
    });
    child.on("close", (code) => reject(new Error(`serve exited (${code}): ${err.trim()}`)));
  });
}
