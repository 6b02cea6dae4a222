// `citeproof mcp --http` with clients that go away mid-call: in each round, as many clients as the
// server has slots send `anchors` on a page of 120,000 equation labels and disconnect 150 ms later;
// then a `verify` of one page must be answered within its own 10 s deadline, not kept waiting for a
// slot behind the abandoned work. An answer past the deadline is a hang; a 5xx other than 503 or an
// INTERNAL a crash; a 503 (no slot came free) a coded refusal, which also fails the row: the
// abandoned work was not stopped.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { labelFloodPdf } from "./label-flood.mjs";
import { postHeaders, repo, startMcpHttp } from "./mcp-http-server.mjs";

const SLOTS = 2;
const DEADLINE_MS = 10_000;

const call = (id, name, args) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

export async function httpDisconnectAttack(dir, { rounds }) {
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, hangs: 0, peakMb: 0, worst: "" };
  mkdirSync(dir, { recursive: true });
  const flood = join(dir, "flood.pdf");
  writeFileSync(flood, labelFloodPdf(120_000));
  const { child, url, stop } = await startMcpHttp([
    "--allow-root",
    repo,
    "--allow-root",
    dir,
    "--no-cache",
    "--max-concurrent",
    String(SLOTS),
    "--queue-timeout-ms",
    "60000",
  ]);
  try {
    for (let round = 0; round < rounds; round++) {
      const gone = Array.from({ length: SLOTS }, (_, k) => {
        const controller = new AbortController();
        const sent = fetch(url, {
          method: "POST",
          headers: postHeaders(),
          body: call(`gone-${round}-${k}`, "anchors", { pdf: flood }),
          signal: controller.signal,
        }).catch(() => {});
        setTimeout(() => controller.abort(), 150);
        return sent;
      });
      await Promise.all(gone);
      stats.tried++;
      const started = Date.now();
      let status;
      let body;
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: postHeaders(),
          body: call(`live-${round}`, "verify", {
            pdf: "test/fixtures/paper.pdf",
            evidence: [{ kind: "page", page: 1 }],
          }),
          signal: AbortSignal.timeout(DEADLINE_MS),
        });
        status = response.status;
        body = JSON.parse(await response.text());
      } catch (error) {
        stats.hangs++;
        stats.worst += `round ${round}: the call after the abandoned ones: ${error?.name ?? error} after ${Date.now() - started} ms; `;
        continue;
      }
      const text = body?.result?.content?.[0]?.text;
      const code = body?.result?.isError ? JSON.parse(text)?.error?.code : undefined;
      if ((status >= 500 && status !== 503) || code === "INTERNAL") {
        stats.crashes++;
        stats.worst += `round ${round}: ${status} ${String(text).slice(0, 200)}; `;
      } else if (status === 200 && body?.result && !body.result.isError) stats.verdicts++;
      else {
        stats.coded++;
        stats.hangs++;
        stats.worst += `round ${round}: refused behind abandoned work (${status} ${String(text ?? JSON.stringify(body)).slice(0, 160)}); `;
      }
    }
    stats.peakMb = Math.round(
      Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
    );
    if (child.exitCode !== null) {
      stats.crashes++;
      stats.worst += `the server exited ${child.exitCode}; `;
    }
  } finally {
    await stop();
  }
  const { worst, ...row } = stats;
  if (worst) process.stderr.write(`HTTP disconnect: ${worst}\n`);
  return row;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "citeproof-disconnect-"));
  console.log(await httpDisconnectAttack(dir, { rounds: Number(process.argv[2] ?? 3) }));
}
