// What a page costs and what a call leaves behind. ToUnicode bombs: a ToUnicode map makes each glyph
// yield 30 to 200 characters, over pages of 2,000 to 100,000 glyphs (the smallest files about 1 KB),
// each through `cite-check` of a quote the bomb prints; the answer must be a verdict or a coded error,
// with the process's peak memory under the budget, and a page whose glyphs yield more than a glyph
// may never answers `verified`. Resident memory: a `serve` runs `anchors` on a page of 120,000
// equation labels (not in the sample), then a ToUnicode bomb of 900,000 characters; once it rests its resident memory must
// come back within 256 MiB (the budget's reserve outside the engine) of what it held after an ordinary
// call: the engine's memory, grown large, is let go, and what remains is garbage V8 has not yet taken.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { classify, cli, emptyStats, runCli } from "./child-run.mjs";
import { labelFloodPdf } from "./label-flood.mjs";
import { toUnicodeBombPdf } from "./tounicode-bomb.mjs";

const paper = fileURLToPath(new URL("../../test/fixtures/paper.pdf", import.meta.url));
const MAX_PER_GLYPH = 64;
const RESIDENT_SLACK_MB = 256;

export async function pageMemoryAttack(dir, { sample }) {
  mkdirSync(dir, { recursive: true });
  const stats = emptyStats();
  stats.missed = 0;
  const citations = join(dir, "citations.json");
  writeFileSync(
    citations,
    JSON.stringify([{ quote: "AAAA", page: 1, bounding_box: { left: 0, bottom: 0, right: 612, top: 792 } }]),
  );
  const shapes = sample
    ? [
        [50_000, 100],
        [5_000, 100],
      ]
    : [2_000, 10_000, 50_000, 100_000].flatMap((g) => [30, 65, 100, 200].map((p) => [g, p]));
  for (const [glyphs, perGlyph] of shapes) {
    const file = join(dir, `bomb-${glyphs}-${perGlyph}.pdf`);
    writeFileSync(file, toUnicodeBombPdf(glyphs, perGlyph));
    const name = `${glyphs} glyphs x ${perGlyph}`;
    const run = await runCli(
      ["cite-check", file, "--citations", citations, "--json", "--no-cache", "--serve", "never"],
      { timeoutMs: 120_000 },
    );
    classify(stats, name, run);
    const verdict = /"verdict": "(\w+)"/.exec(run.stdout)?.[1];
    // Trusted text from a map the bound refuses: a wrong reading taken for the page's.
    if (perGlyph > MAX_PER_GLYPH && verdict?.startsWith("verified")) {
      stats.missed++;
      stats.worst += `${name}: ${verdict}; `;
    }
  }
  await residentServe(join(dir, "serve"), stats, citations, sample ? 0 : 120_000);
  const { worst, ...row } = stats;
  if (worst) process.stderr.write(`page memory: ${worst}\n`);
  return row;
}

/** Resident memory of a `serve` after big calls, against what it holds after an ordinary one. */
async function residentServe(dir, stats, citations, labels) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const env = {
    ...process.env,
    XDG_RUNTIME_DIR: dir,
    CITEPROOF_CACHE_DIR: join(dir, "cache"),
    CITEPROOF_SERVE: "",
  };
  const server = spawn(process.execPath, [cli, "serve", "--idle-timeout-ms", "300000"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  await new Promise((resolve) => {
    server.stderr.on("data", (d) => {
      log += d;
      if (log.includes("listening on")) resolve();
    });
    server.once("exit", resolve);
  });
  const rssMb = () => {
    const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
    return {
      now: Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024),
      peak: Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024),
    };
  };
  const rest = () => new Promise((r) => setTimeout(r, 1500));
  try {
    const evidence = join(dir, "evidence.json");
    writeFileSync(evidence, JSON.stringify([{ kind: "page", page: 1 }]));
    await runCli(["verify", paper, "--evidence", evidence, "--json", "--no-cache"], {
      env,
      timeoutMs: 60_000,
    });
    await rest();
    const baseline = rssMb().now;
    const flood = join(dir, "flood.pdf");
    writeFileSync(flood, labelFloodPdf(labels));
    const bomb = join(dir, "bomb.pdf");
    writeFileSync(bomb, toUnicodeBombPdf(30_000, 30));
    const calls = [
      [`serve: anchors on ${labels.toLocaleString("en")} labels`, ["anchors", flood, "--json", "--no-cache"]],
      [
        "serve: cite-check of a ToUnicode bomb",
        ["cite-check", bomb, "--citations", citations, "--json", "--no-cache"],
      ],
    ];
    for (const [name, args] of labels > 0 ? calls : calls.slice(1)) {
      const run = await runCli(args, { env, timeoutMs: 120_000 });
      // The client's own peak is not the server's: the server's is read below.
      classify(stats, name, { ...run, peakMb: 0 });
      await rest();
      const { now, peak } = rssMb();
      stats.peakMb = Math.max(stats.peakMb, peak);
      process.stderr.write(
        `page memory: ${name}: resident ${now} MiB after (${baseline} after an ordinary call, peak ${peak})\n`,
      );
      if (now > baseline + RESIDENT_SLACK_MB) {
        stats.missed++;
        stats.worst += `${name}: holds ${now} MiB after the call (${baseline} before); `;
      }
    }
  } finally {
    server.kill("SIGTERM");
    if (server.exitCode === null) await once(server, "exit");
  }
}
