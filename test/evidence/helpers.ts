import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { type AssemblyResult, assembleRun } from "../../src/evidence/assemble.js";
import type { ReasonCode } from "../../src/evidence/reasons.js";
import { createRun, type RunInfo } from "../../src/evidence/run.js";
import { localSource } from "../../src/evidence/sources.js";
import { verifyRun } from "../../src/evidence/verify.js";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const FIXTURE_PDF = join(REPO, "test", "fixtures", "evidence-paper.pdf");

const made: string[] = [];

export function tempDir(prefix = "citeproof-ev-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Asserts that an assembly produced the reason code (optionally at a path). Every test that shows a
 * reason code being produced goes through here: the coverage test counts these calls per code.
 */
export function expectCode(result: AssemblyResult, code: ReasonCode, path?: string): void {
  const hits = result.diagnostics.unresolved.filter(
    (u) => u.code === code && (path === undefined || u.path === path),
  );
  expect(
    hits.length,
    `${code}${path ? ` at ${path}` : ""} in ${JSON.stringify(result.diagnostics.unresolved)}`,
  ).toBeGreaterThan(0);
}

export function codes(result: AssemblyResult): string[] {
  return result.diagnostics.unresolved.map((u) => u.code);
}

export function writeRecords(
  run: RunInfo,
  records: { claims?: unknown; extractions?: unknown; appraisals?: unknown; report?: unknown },
): void {
  for (const [name, value] of Object.entries(records)) {
    if (value === undefined) continue;
    writeFileSync(
      join(run.dir, "records", `${name}.json`),
      typeof value === "string" ? value : JSON.stringify(value, null, 1),
    );
  }
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** An HTTP server on loopback with the given routes; closes with `close()`. */
export async function startServer(
  routes: Record<string, Route>,
): Promise<{ base: string; close: () => Promise<void>; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    hits.push(path);
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function readJson<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** The worked example's article: an HTML page whose Results hold the CDI-2 sentence. */
export const RESULT_SENTENCE =
  "At 12 weeks the intervention group showed a greater reduction in CDI-2 total score than controls (SMD -0.41, 95% CI -0.68 to -0.14; p=0.003).";
export const ATTRITION_SENTENCE =
  "Attrition was 21% in the control arm and 6% in the intervention arm, and missing data were not imputed.";

export function articleHtml(): string {
  const filler = Array.from(
    { length: 40 },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the methods describes recruitment, consent and the 𝑥-scale 😀 in detail.</p>`,
  ).join("\n");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Group CBT for adolescent depression: a randomised trial</title>
<meta name="citation_pmid" content="12345678"><meta name="citation_doi" content="10.1000/cbt.2026.1">
<style>p { color: red }</style><script>var x = "<p>not text</p>";</script></head>
<body>
<h1>Group CBT for adolescent depression</h1>
<h2>Abstract</h2><p>We randomised 240 adolescents &amp; followed them for 12&nbsp;weeks.</p>
<h2>Methods</h2>
${filler}
<h2>Results</h2>
<p>${RESULT_SENTENCE}</p>
<p>${ATTRITION_SENTENCE}</p>
<h2>Discussion</h2><p>The trial protocol was not published.</p>
</body></html>`;
}

/**
 * A run over the fixture PDF as a user-supplied source, with one claim spanning its first word
 * ("Abstract", code points [0, 8)), assembled and verified: what `run report` renders from.
 */
export async function verifiedPdfRun(): Promise<{ run: RunInfo; pdf: string; cacheDir: string }> {
  const root = tempDir();
  mkdirSync(join(root, "library"));
  const pdf = join(root, "library", "paper.pdf");
  copyFileSync(FIXTURE_PDF, pdf);
  const cacheDir = join(root, "cache");
  const run = createRun(join(root, "run"), { libraryRoot: root });
  const receipt = await localSource(run, pdf, { cacheDir, paper: { pmid: "12345678" } });
  writeRecords(run, {
    claims: [
      {
        id: "c1",
        text: "The abstract says so.",
        spans: [
          {
            claim: "the abstract",
            evidence_id: "pmid:12345678",
            source_id: receipt.source_id,
            start: 0,
            end: 8,
            access: "full_text",
          },
        ],
      },
    ],
  });
  await assembleRun(run, { cacheDir });
  await verifyRun(run, { cacheDir });
  return { run, pdf, cacheDir };
}
