// The path race: a folder inside the root and a symlink to a folder outside it trade places in a
// loop (renameat2 RENAME_EXCHANGE through exchange-swap.py, or a symlink renamed over the name when
// that is not available) while every path-taking operation reads a PDF under that folder. An escape
// is any answer made from the outside PDF's bytes.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const dist = (name) => new URL(`../../dist/${name}`, import.meta.url).href;
const fixture = (name) => fileURLToPath(new URL(`../../test/fixtures/${name}.pdf`, import.meta.url));
const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");

async function startSwapper(root, inner, outside) {
  const decoy = join(root, "decoy");
  symlinkSync(outside, decoy);
  const exchange = spawnSync("python3", ["-c", "import ctypes; ctypes.CDLL(None).renameat2"]).status === 0;
  const child = exchange
    ? spawn("python3", [here("./exchange-swap.py"), inner, decoy], { stdio: ["ignore", "pipe", "ignore"] })
    : spawn(process.execPath, [here("./path-swap.mjs"), root, "docs", inner, outside], {
        stdio: ["ignore", "pipe", "ignore"],
      });
  await new Promise((resolve, reject) => {
    child.stdout.once("data", resolve);
    child.once("exit", (code) => reject(new Error(`swapper exited ${code}`)));
  });
  return { child, method: exchange ? "renameat2" : "symlink rename" };
}

export async function pathRaceAttack(dir, { calls }) {
  const { readAdmittedPdf } = await import(dist("source/allowed-root.js"));
  const { createRun } = await import(dist("evidence/run.js"));
  const { localSource } = await import(dist("evidence/sources.js"));
  const root = join(dir, "root");
  const inner = join(root, "docs");
  const outside = join(dir, "outside");
  mkdirSync(inner, { recursive: true });
  mkdirSync(outside);
  copyFileSync(fixture("paper"), join(inner, "a.pdf"));
  copyFileSync(fixture("cite-check"), join(outside, "a.pdf"));
  const outsideSha = sha(readFileSync(join(outside, "a.pdf")));
  const target = join(inner, "a.pdf");
  const env = { cwd: root, roots: [root], open: { cacheDir: join(dir, "cache"), timeoutMs: 20_000 } };
  const run = createRun(join(dir, "run"), { libraryRoot: root });
  const { child } = await startSwapper(root, inner, outside);
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, escapes: 0 };
  const attempt = async (fn) => {
    stats.tried++;
    try {
      const seen = await fn();
      stats.verdicts++;
      if (seen === outsideSha) stats.escapes++;
    } catch (error) {
      if (typeof error?.code === "string" && error.code !== "INTERNAL") stats.coded++;
      else stats.crashes++;
    }
  };
  const operations = [
    () => readAdmittedPdf(target, [root]).then((p) => p.sha256),
    () => localSource(run, target, { cacheDir: env.open.cacheDir }).then((r) => r.asset.sha256),
  ];
  try {
    for (let i = 0; i < calls; i++) {
      // Nine cheap reads to one `source local`: the count stays affordable.
      const op = i % 10 === 9 ? operations[1] : operations[0];
      await attempt(op);
    }
  } finally {
    child.kill("SIGTERM");
  }
  return stats;
}
