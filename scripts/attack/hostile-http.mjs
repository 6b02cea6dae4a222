// Hostile HTTP servers on loopback against `source fetch` and URL `cite-check`: a slow drip, a huge
// Content-Length, wrong content types, redirect loops and chains, a reset mid-body, a gzip bomb, a
// server that never answers, deep HTML, a bad status, and a genuine PDF for contrast. Each call runs
// under a 5 s deadline (2 s in the sample) and must answer with a verdict or a coded error within the deadline + 5 s,
// without a stack trace or a signal, and with the process's peak memory under the configured cap.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { classify, runCli } from "./child-run.mjs";

const fixture = (name) => fileURLToPath(new URL(`../../test/fixtures/${name}.pdf`, import.meta.url));

/** A gzip body of `mib` MiB of zeros: one 16 MiB member, repeated (gunzip reads every member). */
function gzipBomb(mib) {
  const member = gzipSync(Buffer.alloc(16 << 20), { level: 9 });
  return Buffer.concat(Array.from({ length: Math.ceil(mib / 16) }, () => member));
}

function behaviours(bombMib) {
  const pdf = readFileSync(fixture("paper"));
  const bomb = gzipBomb(bombMib);
  const hold = new Set();
  const routes = {
    "/ok.pdf": (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": pdf.length });
      res.end(pdf);
    },
    "/drip": (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.write("%PDF-1.7\n");
      const timer = setInterval(() => res.write(" "), 200);
      hold.add(timer);
      res.on("close", () => clearInterval(timer));
    },
    "/huge-length": (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": String(10 ** 12) });
      res.write(pdf);
      const timer = setInterval(() => res.write(Buffer.alloc(1 << 20, 0x20)), 20);
      hold.add(timer);
      res.on("close", () => clearInterval(timer));
    },
    "/pdf-as-html": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(pdf);
    },
    "/html-as-pdf": (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end("<html><body><p>not a pdf at all</p></body></html>");
    },
    "/binary-as-text": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end(Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0xa0, 0xa1]));
    },
    "/loop-a": (_req, res) => {
      res.writeHead(302, { location: "/loop-b" });
      res.end();
    },
    "/loop-b": (_req, res) => {
      res.writeHead(302, { location: "/loop-a" });
      res.end();
    },
    "/reset": (req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": pdf.length });
      res.write(pdf.subarray(0, pdf.length >> 1), () => req.socket.destroy());
    },
    "/gzip-bomb": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
      res.end(bomb);
    },
    "/silent": (req) => {
      hold.add(req);
    },
    "/deep-html": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<html><body>${"<div>".repeat(200_000)}deep</body></html>`);
    },
    "/status-599": (_req, res) => {
      res.writeHead(599, { "content-type": "text/html" });
      res.end("<p>odd</p>");
    },
  };
  for (let i = 0; i < 40; i++) {
    routes[`/chain-${i}`] = (_req, res) => {
      res.writeHead(301, { location: `/chain-${i + 1}` });
      res.end();
    };
  }
  return { routes, hold };
}

/** The behaviours a bounded sample tries; the full run tries them all. */
const SAMPLE = ["/ok.pdf", "/drip", "/huge-length", "/loop-a", "/reset", "/gzip-bomb", "/silent"];

export async function hostileHttpAttack(dir, { bombMib, sample = false }) {
  // The sample's deadline is shorter: a drip or a silent server costs the whole deadline.
  const DEADLINE_MS = sample ? 2000 : 5000;
  mkdirSync(dir, { recursive: true });
  const { routes, hold } = behaviours(bombMib);
  const server = createServer((req, res) => {
    const route = routes[new URL(req.url, "http://x").pathname];
    if (route) route(req, res);
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const citations = join(dir, "citations.json");
  writeFileSync(
    citations,
    JSON.stringify([
      { quote: "each of which carries", page: 1, bounding_box: { left: 0, bottom: 0, right: 612, top: 792 } },
    ]),
  );
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, hangs: 0, peakMb: 0, overCap: 0, worst: "" };
  const all = [...Object.keys(routes).filter((p) => !p.startsWith("/chain-")), "/chain-0"];
  const paths = sample ? SAMPLE : all;
  let n = 0;
  try {
    for (const path of paths) {
      const url = `${base}${path}`;
      const runDir = join(dir, `run-${n++}`);
      const calls = [
        ["run", "new", runDir],
        [
          "source",
          "fetch",
          "--run-dir",
          runDir,
          "--url",
          url,
          "--json",
          "--timeout-ms",
          String(DEADLINE_MS),
          "--cache-dir",
          join(dir, "cache"),
        ],
        [
          "cite-check",
          url,
          "--citations",
          citations,
          "--json",
          "--no-cache",
          "--timeout-ms",
          String(DEADLINE_MS),
        ],
      ];
      for (const args of sample && !["/ok.pdf", "/gzip-bomb"].includes(path) ? calls.slice(0, 2) : calls) {
        const run = await runCli(args, { timeoutMs: DEADLINE_MS + 5000 });
        if (args[0] === "run") continue;
        classify(stats, `${args[0]} ${path}`, run);
      }
    }
  } finally {
    for (const h of hold) {
      if (typeof h === "object" && h.socket) h.socket.destroy();
      else clearInterval(h);
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (stats.worst) process.stderr.write(`hostile HTTP: ${stats.worst}\n`);
  delete stats.worst;
  return stats;
}
