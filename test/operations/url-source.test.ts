// A URL as the cited source of verify and locate: fetched once from an HTTP server on loopback, its
// kind from its content and the media type served together; a declaration the content contradicts is
// CONTENT_INVALID, and an agent's call never reaches a loopback address unless its server allows it.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlowLocateReport } from "../../src/checks/flow-locate.js";
import type { FlowVerifyReport } from "../../src/checks/flow-verify.js";
import { fetchedKind } from "../../src/document/flow/media-type.js";
import type { CiteproofError } from "../../src/errors.js";
import { locateOperation } from "../../src/operations/locate.js";
import type { OperationContext } from "../../src/operations/operation.js";
import { verifyOperation } from "../../src/operations/verify.js";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { CORPUS_EVIDENCE, CORPUS_QUOTE } from "../helpers/flow-source.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const FLOW = join(repoRoot, "test", "fixtures", "flow");
const MARKDOWN = readFileSync(join(FLOW, "corpus.md"));
const HTML = readFileSync(join(FLOW, "corpus.html"));

/** A page in a legacy encoding: ASCII markup around `body`, already encoded. */
function legacyPage(body: number[], meta = ""): Uint8Array {
  const head = Buffer.from(
    `<!doctype html><html><head>${meta}<title>t</title></head><body><h1>Travels</h1><p>`,
  );
  return Buffer.concat([head, Buffer.from(body), Buffer.from("</p></body></html>")]);
}
/** ASCII text and bytes already encoded, in order. */
const encoded = (...parts: (string | number[])[]) =>
  parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part, "latin1")] : part));
// windows-1252: curly quotes at 0x93/0x94, é at 0xE9; iso-8859-2: Łódź; Shift_JIS: 東京.
const CP1252_BODY = encoded("She wrote ", [0x93], "the caf", [0xe9], " was closed", [0x94], " that day.");
const LATIN2_BODY = encoded("The train from ", [0xa3, 0xf3, 0x64, 0xbc], " arrived late that night.");
const SJIS_BODY = encoded("The station called ", [0x93, 0x8c, 0x8b, 0x9e], " lies far to the east.");
const UTF8_BOM = [0xef, 0xbb, 0xbf];

let server: Server;
let base: string;
let work: ReturnType<typeof tempDir>;
let ctx: OperationContext;

beforeAll(async () => {
  work = tempDir("citeproof-url-source-");
  ctx = { cwd: work.dir, access: "anywhere", open: { cacheDir: join(work.dir, "cache") } };
  server = createServer((req, res) => {
    const routes: Record<string, [string, Uint8Array | string]> = {
      // Raw file hosts serve Markdown as text/plain: the content says Markdown.
      "/notes": ["text/plain; charset=utf-8", MARKDOWN],
      "/page": ["text/html; charset=utf-8", HTML],
      "/cp1252": ["text/html; charset=windows-1252", legacyPage(CP1252_BODY)],
      // The header wins over the page's own <meta>.
      "/latin2": ["text/html; charset=ISO-8859-2", legacyPage(LATIN2_BODY, '<meta charset="utf-8">')],
      "/sjis": ['text/html; charset="shift_jis"', legacyPage(SJIS_BODY)],
      "/sjis-text": ["text/plain; charset=shift_jis", new Uint8Array(SJIS_BODY)],
      // A byte-order mark wins over the header.
      "/bom": [
        "text/html; charset=windows-1252",
        Buffer.concat([
          Buffer.from(UTF8_BOM),
          Buffer.from(legacyPage([]).toString().replace("<p>", "<p>Łódź is a city of four words and more.")),
        ]),
      ],
      // A login page where a PDF was promised.
      "/paper.pdf": ["application/pdf", "<!doctype html><html><body><p>Please sign in</p></body></html>"],
    };
    const route = routes[new URL(req.url ?? "/", "http://x").pathname];
    if (route === undefined) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": route[0] });
    res.end(route[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  work.remove();
});

async function refused(run: Promise<unknown>): Promise<CiteproofError> {
  try {
    await run;
  } catch (error) {
    return error as CiteproofError;
  }
  throw new Error("not refused");
}

describe("verify and locate on a URL", () => {
  it("verifies against Markdown served as text/plain: PASS, and FAIL for a changed word", async () => {
    const report = (await verifyOperation.run(
      { source: `${base}/notes`, evidence: CORPUS_EVIDENCE },
      ctx,
    )) as FlowVerifyReport;
    expect(report.document.kind).toBe("markdown");
    expect(report.document.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.results.map((r) => r.verdict)).toEqual(["PASS", "FAIL"]);
  });

  it("verifies against an HTML page, and a wrong section is named", async () => {
    const report = (await verifyOperation.run(
      { source: `${base}/page`, evidence: [{ kind: "quotation", text: CORPUS_QUOTE, section: "Methods" }] },
      ctx,
    )) as FlowVerifyReport;
    expect(report.document.kind).toBe("html");
    expect(report.results[0]).toMatchObject({ verdict: "FAIL", reason: "wrong-section" });
  });

  it("locates words in a fetched page with the section to cite", async () => {
    const report = (await locateOperation.run(
      { source: `${base}/page`, text: CORPUS_QUOTE },
      ctx,
    )) as FlowLocateReport;
    expect(report.count).toBe(1);
    expect(report.occurrences[0]?.section).toBe("1 Introduction");
  });

  it("decodes a page in the charset its Content-Type names: after a byte-order mark, before its <meta>", async () => {
    const check = async (path: string, text: string) => {
      const report = (await verifyOperation.run(
        { source: `${base}${path}`, evidence: [{ kind: "quotation", text }] },
        ctx,
      )) as FlowVerifyReport;
      return report.results[0]!.verdict;
    };
    expect(await check("/cp1252", "“the café was closed”")).toBe("PASS");
    expect(await check("/latin2", "The train from Łódź arrived late")).toBe("PASS");
    expect(await check("/sjis", "The station called 東京 lies far")).toBe("PASS");
    expect(await check("/sjis-text", "The station called 東京 lies far")).toBe("PASS");
    expect(await check("/bom", "Łódź is a city of four words")).toBe("PASS");
    // The same letters in another city's name are not there.
    expect(await check("/latin2", "The train from Lodz arrived late")).toBe("FAIL");
  });

  it("refuses a body its media type contradicts, and a 404, with coded errors", async () => {
    const wrong = await refused(
      verifyOperation.run({ source: `${base}/paper.pdf`, evidence: CORPUS_EVIDENCE }, ctx),
    );
    expect(wrong.code).toBe("CONTENT_INVALID");
    expect(wrong.message).toContain("application/pdf");
    const missing = await refused(
      verifyOperation.run({ source: `${base}/gone`, evidence: CORPUS_EVIDENCE }, ctx),
    );
    expect(missing.code).toBe("URL_HTTP_ERROR");
  });

  it("an agent's call does not reach a loopback address unless its server allows it", async () => {
    const agent: OperationContext = { ...ctx, access: [work.dir], privateUrls: "refuse" };
    const denied = await refused(
      verifyOperation.run({ source: `${base}/notes`, evidence: CORPUS_EVIDENCE }, agent),
    );
    expect(denied.code).toBe("ACCESS_DENIED");
    const allowed = (await verifyOperation.run(
      { source: `${base}/notes`, evidence: CORPUS_EVIDENCE },
      { ...agent, privateUrls: "allow" },
    )) as FlowVerifyReport;
    expect(allowed.results[0]?.verdict).toBe("PASS");
  });

  it("`citeproof verify <url> --evidence` prints the report and exits 1 on a FAIL", async () => {
    const evidence = join(work.dir, "e.json");
    writeFileSync(evidence, JSON.stringify(CORPUS_EVIDENCE));
    const run = await runCliInProcess([
      "verify",
      `${base}/notes`,
      "--evidence",
      evidence,
      "--json",
      "--no-cache",
    ]);
    expect(run.status).toBe(1);
    const doc = run.json as FlowVerifyReport;
    expect(doc.results.map((r) => r.verdict)).toEqual(["PASS", "FAIL"]);
  });
});

describe("a fetched body's kind", () => {
  it("takes the content's kind, with the media type settling plain text", () => {
    expect(fetchedKind("markdown", "text/plain", "u")).toBe("markdown");
    expect(fetchedKind("text", "text/markdown", "u")).toBe("markdown");
    expect(fetchedKind("text", "text/html", "u")).toBe("html");
    expect(fetchedKind("docx", null, "u")).toBe("docx");
    expect(fetchedKind("epub", "application/octet-stream", "u")).toBe("epub");
    expect(fetchedKind("jats", "application/xml", "u")).toBe("jats");
  });

  it("refuses a declaration the content contradicts", () => {
    expect(() => fetchedKind("html", "application/pdf", "u")).toThrow(/served as application\/pdf/);
    expect(() => fetchedKind("pdf", "text/html", "u")).toThrow(/content is pdf/);
    expect(() => fetchedKind("html", "application/vnd.oasis.opendocument.text", "u")).toThrow(
      /CONTENT_INVALID|served/,
    );
  });
});
