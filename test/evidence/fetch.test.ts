/**
 * Real HTTP retrievals against a server on loopback: HTML, PDF, 404, oversize, redirect loops and
 * caps, a stalled transfer, compressed bodies, unsupported content.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorDocument } from "../../src/error-document.js";
import { NEUTRAL_NAMING } from "../../src/errors.js";
import { assembleRun } from "../../src/evidence/assemble.js";
import { readEvents } from "../../src/evidence/events.js";
import { createRun } from "../../src/evidence/run.js";
import { fetchSource, readSource, searchSource } from "../../src/evidence/sources.js";
import { verifyRun } from "../../src/evidence/verify.js";
import { fetchBytes } from "../../src/source/url.js";
import {
  articleHtml,
  cleanTempDirs,
  FIXTURE_PDF,
  RESULT_SENTENCE,
  readJson,
  startServer,
  tempDir,
  writeRecords,
} from "./helpers.js";

let server: Awaited<ReturnType<typeof startServer>>;
let base: string;
const pdfBytes = readFileSync(FIXTURE_PDF);

beforeAll(async () => {
  const html = (body: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  };
  const redirect = (to: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
    res.writeHead(302, { location: to });
    res.end();
  };
  const routes: Parameters<typeof startServer>[0] = {
    "/page.html": html(articleHtml()),
    "/paper.pdf": (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": pdfBytes.length });
      res.end(pdfBytes);
    },
    "/download": (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(pdfBytes);
    },
    "/big": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("error", () => {});
      pump();
    },
    "/big-declared": (_req, res) => {
      res.on("error", () => {});
      res.writeHead(200, { "content-type": "text/plain", "content-length": String(50 * 1024 * 1024) });
      res.write("a".repeat(1024));
    },
    "/bomb": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      res.end(gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x61)));
    },
    "/gzip": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
      res.end(gzipSync(Buffer.from("<p>Compressed but readable.</p>")));
    },
    "/loop-a": redirect("/loop-b"),
    "/loop-b": redirect("/loop-a"),
    "/relative": redirect("page.html"),
    "/stall": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<p>the first part arrives, then nothing");
    },
    "/silent": () => {},
    "/image.png": (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    },
    "/deep.html": html(`${"<div>".repeat(200_000)}too deep`),
    "/bad-utf8.txt": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(Buffer.from([0x6f, 0x6e, 0x65, 0x20, 0xff, 0xfe, 0x20, 0x74, 0x77, 0x6f]));
    },
    "/latin1.txt": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" });
      res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    },
    "/server-error": (_req, res) => {
      res.writeHead(500);
      res.end("boom");
    },
  };
  for (let i = 1; i <= 8; i++) routes[`/hop/${i}`] = redirect(i === 1 ? "/page.html" : `/hop/${i - 1}`);
  server = await startServer(routes);
  base = server.base;
});

afterAll(async () => {
  await server.close();
  cleanTempDirs();
});

describe("fetchBytes", () => {
  it("retrieves a body with its media type and sha256", async () => {
    const got = await fetchBytes(`${base}/paper.pdf`);
    expect(got.status).toBe(200);
    expect(got.mediaType).toBe("application/pdf");
    expect(Buffer.from(got.bytes).equals(pdfBytes)).toBe(true);
    expect(got.redirects).toEqual([]);
  });

  it("answers a 404 or 500 with URL_HTTP_ERROR and the status", async () => {
    await expect(fetchBytes(`${base}/missing`)).rejects.toMatchObject({
      code: "URL_HTTP_ERROR",
      details: { status: 404 },
    });
    await expect(fetchBytes(`${base}/server-error`)).rejects.toMatchObject({
      code: "URL_HTTP_ERROR",
      details: { status: 500 },
    });
  });

  it("caps the size while streaming, by declared length, and after decompression", async () => {
    await expect(fetchBytes(`${base}/big`, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: "URL_TOO_LARGE",
    });
    await expect(fetchBytes(`${base}/big-declared`, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: "URL_TOO_LARGE",
      message: expect.stringContaining("declared"),
    });
    await expect(fetchBytes(`${base}/bomb`, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: "URL_TOO_LARGE",
    });
    const whole = await fetchBytes(`${base}/big`, { maxBytes: 8 * 1024 * 1024 });
    expect(whole.bytes.byteLength).toBe(4 * 1024 * 1024);
  });

  it("decompresses gzip bodies", async () => {
    const got = await fetchBytes(`${base}/gzip`);
    expect(Buffer.from(got.bytes).toString()).toBe("<p>Compressed but readable.</p>");
  });

  it("detects a redirect loop and enforces the redirect cap", async () => {
    await expect(fetchBytes(`${base}/loop-a`)).rejects.toMatchObject({
      code: "URL_TOO_MANY_REDIRECTS",
      message: expect.stringContaining("loop"),
    });
    await expect(fetchBytes(`${base}/hop/3`, { maxRedirects: 2 })).rejects.toMatchObject({
      code: "URL_TOO_MANY_REDIRECTS",
    });
    // Its document names the addresses redirected to, in the shape of its code (not INTERNAL).
    const capped = await fetchBytes(`${base}/hop/3`, { maxRedirects: 2 }).catch((e: unknown) => e);
    expect(errorDocument(capped, NEUTRAL_NAMING)).toMatchObject({
      code: "URL_TOO_MANY_REDIRECTS",
      details: { redirects: [`${base}/hop/2`, `${base}/hop/1`, `${base}/page.html`], limit: 2 },
    });
    const ok = await fetchBytes(`${base}/hop/3`, { maxRedirects: 3 });
    expect(ok.finalUrl).toBe(`${base}/page.html`);
    expect(ok.redirects).toEqual([`${base}/hop/2`, `${base}/hop/1`, `${base}/page.html`]);
  });

  it("stops a stalled transfer at the deadline", async () => {
    const started = Date.now();
    await expect(fetchBytes(`${base}/stall`, { timeoutMs: 300 })).rejects.toMatchObject({
      code: "URL_TIMEOUT",
    });
    await expect(fetchBytes(`${base}/silent`, { timeoutMs: 300 })).rejects.toMatchObject({
      code: "URL_TIMEOUT",
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("the deadline covers the whole transfer, redirects included", async () => {
    const slow = createServer((req, res) => {
      setTimeout(() => {
        res.writeHead(302, { location: `/next${req.url}` });
        res.end();
      }, 150);
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const port = (slow.address() as AddressInfo).port;
    try {
      // Each hop answers within the deadline; together they do not.
      await expect(
        fetchBytes(`http://127.0.0.1:${port}/a`, { timeoutMs: 400, maxRedirects: 10 }),
      ).rejects.toMatchObject({
        code: "URL_TIMEOUT",
      });
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it("refuses anything but http(s) and URLs with credentials; reports refused connections", async () => {
    await expect(fetchBytes("ftp://example.org/x")).rejects.toMatchObject({ code: "URL_INVALID" });
    await expect(fetchBytes("file:///etc/passwd")).rejects.toMatchObject({ code: "URL_INVALID" });
    await expect(fetchBytes("not a url")).rejects.toMatchObject({ code: "URL_INVALID" });
    await expect(fetchBytes(`http://user:pw@127.0.0.1:1/`)).rejects.toMatchObject({ code: "URL_INVALID" });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(fetchBytes(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: "URL_FETCH_FAILED" });
  });
});

describe("source fetch", () => {
  it("an HTML page becomes a snapshot with headings; a redirect's final URL is kept", async () => {
    const run = createRun(join(tempDir(), "run"));
    const receipt = await fetchSource(run, `${base}/relative`);
    expect(receipt.final_url).toBe(`${base}/page.html`);
    expect(receipt.url).toBe(`${base}/relative`);
    expect(receipt).toMatchObject({ access: "web", origin: "web", media_type: "text/html", created: true });
    expect(receipt.event).toMatchObject({ type: "fetch", fresh: true, url: `${base}/relative` });
    expect(receipt.event.detail).toContain("via 1 redirect");
    const snapshot = readJson<{ sections: { title: string }[] }>(
      join(run.dir, "sources", `${receipt.source_id}.json`),
    );
    expect(snapshot.sections.map((s) => s.title)).toEqual([
      "Group CBT for adolescent depression",
      "Abstract",
      "Methods",
      "Results",
      "Discussion",
    ]);
  });

  it("a PDF becomes a snapshot with its page map; accepted spans carry page and glyph boxes", async () => {
    const root = tempDir();
    const cacheDir = join(root, "cache");
    const run = createRun(join(root, "run"));
    const receipt = await fetchSource(run, `${base}/paper.pdf`, { cacheDir, paper: { pmid: "12345678" } });
    expect(receipt).toMatchObject({
      media_type: "application/pdf",
      pages: 2,
      origin: "oa-pdf",
      access: "full_text",
      asset: null,
    });
    const snapshot = readJson<{ text: string; document: { pages: { page: number; start: number }[] } }>(
      join(run.dir, "sources", `${receipt.source_id}.json`),
    );
    expect(snapshot.document.pages[0]).toEqual({ page: 1, start: 0 });
    const page2 = snapshot.document.pages[1].start;
    expect([...snapshot.text][page2 - 1]).toBe("\f");
    const hit = searchSource(run, receipt.source_id, "greater reduction in CDI-2 total score").hits[0];
    expect(hit.start).toBeGreaterThan(page2);
    writeRecords(run, {
      claims: [
        {
          id: "c1",
          text: "CBT reduced CDI-2",
          spans: [
            {
              claim: "CDI-2 fell",
              evidence_id: "pmid:12345678",
              source_id: receipt.source_id,
              start: hit.start,
              end: hit.end,
              access: "full_text",
            },
          ],
        },
      ],
    });
    const { result } = await assembleRun(run, { cacheDir });
    expect(result.diagnostics.unresolved).toEqual([]);
    const accepted = result.accepted[0];
    expect(accepted).toMatchObject({
      page: 2,
      // The heading as the PDF prints it, number included, found from its layout.
      section: "2 Results",
      excerpt: "greater reduction in CDI-2 total score",
    });
    expect(accepted.boxes).toHaveLength(1);
    // Without the extraction cache a retrieved PDF has no geometry: no boxes (with the reason), never
    // approximate ones, and the result is still the same evidence for verification.
    const elsewhere = join(root, "empty-cache");
    const bare = (await assembleRun(run, { cacheDir: elsewhere, write: false })).result.accepted[0];
    expect(bare).toMatchObject({
      page: 2,
      boxes: null,
      boxes_note: "the retrieved PDF is no longer in the extraction cache",
    });
    expect((await verifyRun(run, { cacheDir: elsewhere })).report.verdict).toBe("pass");
    const box = accepted.boxes![0];
    expect(box.page).toBe(2);
    // The glyph boxes agree with an independent extractor's word boxes (x exactly, y within the font box).
    let words: string;
    try {
      words = execFileSync("pdftotext", ["-bbox", "-f", "2", "-l", "2", FIXTURE_PDF, "-"], {
        encoding: "utf8",
      });
    } catch {
      return;
    }
    const word = (w: string) => {
      const m = new RegExp(`xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="([\\d.]+)" yMax="([\\d.]+)">${w}<`).exec(
        words,
      )!;
      return m.slice(1).map(Number);
    };
    const [xMin, yMin] = word("greater");
    const [, , xMax, yMax] = word("score");
    expect(Math.abs(box.left - xMin)).toBeLessThan(1);
    expect(Math.abs(box.right - xMax)).toBeLessThan(1);
    expect(box.bottom).toBeGreaterThanOrEqual(792 - yMax - 0.5);
    expect(box.top).toBeLessThanOrEqual(792 - yMin + 0.5);
  });

  it("recognises a PDF served without a PDF media type", async () => {
    const run = createRun(join(tempDir(), "run"));
    const receipt = await fetchSource(run, `${base}/download`, { cacheDir: join(tempDir(), "cache") });
    expect(receipt.media_type).toBe("application/pdf");
  });

  it("fails with a coded error, logging nothing, when the retrieval fails or the content is unusable", async () => {
    const run = createRun(join(tempDir(), "run"));
    await expect(fetchSource(run, `${base}/missing`)).rejects.toMatchObject({ code: "URL_HTTP_ERROR" });
    await expect(fetchSource(run, `${base}/image.png`)).rejects.toMatchObject({
      code: "CONTENT_NOT_SUPPORTED",
    });
    await expect(fetchSource(run, `${base}/stall`, { timeoutMs: 300 })).rejects.toMatchObject({
      code: "URL_TIMEOUT",
    });
    await expect(fetchSource(run, `${base}/big`, { maxBytes: 100_000 })).rejects.toMatchObject({
      code: "URL_TOO_LARGE",
    });
    expect(readEvents(run).events).toEqual([]);
  });

  it("refuses plain text that is not valid in its charset, and HTML nested too deep, logging nothing", async () => {
    const run = createRun(join(tempDir(), "run"));
    await expect(fetchSource(run, `${base}/bad-utf8.txt`)).rejects.toMatchObject({
      code: "EVIDENCE_INVALID",
      message: expect.stringContaining("not valid utf-8"),
    });
    await expect(fetchSource(run, `${base}/deep.html`)).rejects.toMatchObject({
      code: "CONTENT_NOT_SUPPORTED",
      details: { limit: 4096 },
    });
    expect(readEvents(run).events).toEqual([]);
    const latin = await fetchSource(run, `${base}/latin1.txt`);
    expect(readSource(run, latin.source_id).text).toBe("café");
  });

  it("fetches compressed HTML and keeps the sentence intact", async () => {
    const run = createRun(join(tempDir(), "run"));
    const receipt = await fetchSource(run, `${base}/gzip`);
    expect(receipt.length).toBe("Compressed but readable.".length);
    const page = await fetchSource(run, `${base}/page.html`);
    expect(searchSource(run, page.source_id, RESULT_SENTENCE).method).toBe("exact");
  });
});
