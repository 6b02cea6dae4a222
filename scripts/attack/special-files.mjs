// Special files where a PDF, an evidence file or a cache entry is expected: a FIFO, a device, a
// directory, a socket. Each must be a coded error at once (never a wait for a writer).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export async function specialFileAttack(dir) {
  mkdirSync(dir, { recursive: true });
  const evidence = join(dir, "evidence.json");
  writeFileSync(evidence, JSON.stringify([{ kind: "page", page: 1 }]));
  const fifo = join(dir, "fifo.pdf");
  spawnSync("mkfifo", [fifo]);
  const socket = join(dir, "socket.pdf");
  const server = createServer().listen(socket);
  await new Promise((resolve) => server.once("listening", resolve));
  const folder = join(dir, "folder.pdf");
  mkdirSync(folder);
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, hangs: 0 };
  const cases = [
    [fifo, evidence],
    ["/dev/zero", evidence],
    [socket, evidence],
    [folder, evidence],
    [fileURLToPath(new URL("../../test/fixtures/paper.pdf", import.meta.url)), fifo],
  ];
  for (const [pdf, ev] of cases) {
    stats.tried++;
    const run = await new Promise((resolve) => {
      const child = spawnSync(
        process.execPath,
        [cli, "verify", pdf, "--evidence", ev, "--json", "--timeout-ms", "5000"],
        {
          timeout: 10_000,
          encoding: "utf8",
          killSignal: "SIGKILL",
        },
      );
      resolve(child);
    });
    if (run.error?.code === "ETIMEDOUT") stats.hangs++;
    else if (run.status === 2 && !/"INTERNAL"/.test(run.stdout)) stats.coded++;
    else if (run.status === 0 || run.status === 1) stats.verdicts++;
    else stats.crashes++;
  }
  server.close();
  return stats;
}
