// URL sources against an HTTP server on loopback: success, HTTP errors, redirects (at the limit,
// past it, in a loop), a body that is not a PDF, bodies over 256 MiB, and a stall past the deadline.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Citation, CiteCheckInput } from "../../src/checks/cite-check/request.js";
import { citeCheck } from "../../src/checks/cite-check/run.js";
import { sha256Hex } from "../../src/source/file.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";

const PDF_BYTES = readFileSync(fixture("cite-check"));
const CITATION: Citation = {
  quote: "The quick brown fox jumps over the lazy dog.",
  page: 1,
  bounding_box: { left: 66, bottom: 690, right: 400, top: 716 },
};
const LIMIT = 256 * 1024 * 1024;

let server: Server;
let base: string;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    if (path === "/paper.pdf") {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": PDF_BYTES.length });
      res.end(PDF_BYTES);
    } else if (path.startsWith("/hop/")) {
      const n = Number(path.slice(5));
      res.writeHead(302, { location: n > 1 ? `/hop/${n - 1}` : "/paper.pdf" });
      res.end();
    } else if (path === "/loop-a") {
      res.writeHead(301, { location: "/loop-b" });
      res.end();
    } else if (path === "/loop-b") {
      res.writeHead(301, { location: "/loop-a" });
      res.end();
    } else if (path === "/page.html") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><p>%PDF-1.7 is mentioned here</p>");
    } else if (path === "/declared-huge.pdf") {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": String(LIMIT + 1) });
      res.write("%PDF-1.7\n");
    } else if (path === "/streamed-huge.pdf") {
      // No length declared: the cap must hold while the body streams in.
      res.writeHead(200, { "content-type": "application/pdf" });
      const chunk = Buffer.alloc(4 * 1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent <= LIMIT + chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once("drain", pump);
            return;
          }
        }
        res.end();
      };
      res.write("%PDF-1.7\n");
      pump();
    } else if (path === "/stall.pdf") {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.write("%PDF-1.7\n");
      // ...and nothing more.
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not here");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function input(url: string, extra: Partial<CiteCheckInput> = {}): CiteCheckInput {
  return {
    source: { url },
    citations: [CITATION],
    normalization: "none",
    timeoutMs: 60_000,
    maxOutputChars: 200_000,
    ...extra,
  };
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error("expected a tool error");
}

describe("URL sources", () => {
  it("checks a PDF fetched over http, hashing the bytes it extracts", async () => {
    const report = await citeCheck(input(`${base}/paper.pdf`), { noCache: true });
    expect(report.source).toMatchObject({
      origin: `${base}/paper.pdf`,
      sha256: sha256Hex(PDF_BYTES),
      pages: 7,
    });
    expect(report.results[0].verdict).toBe("verified_exact");
  });

  it("settles the expected hash of a fetched PDF before extraction", async () => {
    const report = await citeCheck(input(`${base}/paper.pdf`, { expectedSha256: "f".repeat(64) }), {
      noCache: true,
    });
    expect(report.results[0].reason).toBe("source_hash_mismatch");
    expect(report.source.pages).toBeNull();
  });

  it("follows up to five redirects and no more", async () => {
    const five = await citeCheck(input(`${base}/hop/5`), { noCache: true });
    expect(five.results[0].verdict).toBe("verified_exact");
    expect(await errorCode(citeCheck(input(`${base}/hop/6`), { noCache: true }))).toBe(
      "URL_TOO_MANY_REDIRECTS",
    );
  });

  it("stops a redirect loop", async () => {
    expect(await errorCode(citeCheck(input(`${base}/loop-a`), { noCache: true }))).toBe(
      "URL_TOO_MANY_REDIRECTS",
    );
  });

  it("reports an HTTP error as a tool error", async () => {
    expect(await errorCode(citeCheck(input(`${base}/missing.pdf`), { noCache: true }))).toBe(
      "URL_HTTP_ERROR",
    );
  });

  it("rejects a body that does not start with %PDF-", async () => {
    expect(await errorCode(citeCheck(input(`${base}/page.html`), { noCache: true }))).toBe("NOT_PDF");
  });

  it("rejects a body over 256 MiB, declared or streamed", async () => {
    expect(await errorCode(citeCheck(input(`${base}/declared-huge.pdf`), { noCache: true }))).toBe(
      "URL_TOO_LARGE",
    );
    expect(await errorCode(citeCheck(input(`${base}/streamed-huge.pdf`), { noCache: true }))).toBe(
      "URL_TOO_LARGE",
    );
  });

  it("gives up on a server that stalls past the deadline", async () => {
    const started = Date.now();
    expect(
      await errorCode(citeCheck(input(`${base}/stall.pdf`, { timeoutMs: 1000 }), { noCache: true })),
    ).toBe("URL_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("takes a URL as the CLI's source, with a JSON error document on failure", async () => {
    const work = tempDir();
    try {
      const citations = join(work.dir, "c.json");
      writeFileSync(citations, JSON.stringify([CITATION]));
      // The CLI runs in a child process; this process's server answers it, so the child must not block us.
      const ok = await spawnCli([`${base}/paper.pdf`, "--citations", citations, "--json", "--no-cache"]);
      expect(ok.status).toBe(0);
      expect(JSON.parse(ok.stdout).results[0].verdict).toBe("verified_exact");
      const bad = await spawnCli([`${base}/missing.pdf`, "--citations", citations, "--json", "--no-cache"]);
      expect(bad.status).toBe(2);
      expect(JSON.parse(bad.stdout).error.code).toBe("URL_HTTP_ERROR");
      const ftp = await spawnCli(["ftp://example.org/a.pdf", "--citations", citations, "--json"]);
      expect(ftp.status).toBe(2);
      expect(JSON.parse(ftp.stdout).error.message).toContain("http or https");
    } finally {
      work.remove();
    }
  });
});

function spawnCli(args: string[]): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, "cite-check", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    child.on("close", (status) => resolve({ status, stdout }));
  });
}
