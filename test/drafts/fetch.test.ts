/** URLs in a bibliography: fetched only when asked; an agent's never on a private address. */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DraftCheckReport } from "../../src/drafts/check-draft.js";
import { checkTextOperation } from "../../src/operations/check-text.js";
import type { OperationContext } from "../../src/operations/operation.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";

const scratch = tempDir("citeproof-drafts-fetch-");
const QUOTE = "Salt corrosion was the most common defect on the older hulls";
let server: Server;
let requests = 0;

beforeAll(async () => {
  const pdf = readFileSync(fixture("interfaces"));
  server = createServer((req, res) => {
    requests++;
    if (req.url === "/paper.pdf") res.writeHead(200, { "content-type": "application/pdf" }).end(pdf);
    else
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<html><head><title>Harbour notes</title></head><body><h1>Hulls</h1><p>${QUOTE}.</p></body></html>`,
        );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(
    join(scratch.dir, "map.json"),
    JSON.stringify({ pdf: `${base}/paper.pdf`, page: `${base}/page.html` }),
  );
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  scratch.remove();
});

async function run(caller: "cli" | "agent", fetch: boolean): Promise<string[][]> {
  const ctx: OperationContext = {
    cwd: scratch.dir,
    access: [scratch.dir],
    open: { cacheDir: join(scratch.dir, "cache") },
    // An agent's context refuses private addresses (operations/agent-call.ts: agentContext).
    ...(caller === "agent" ? { privateUrls: "refuse" as const } : {}),
  };
  const draft = `It says "${QUOTE}" [@pdf, p. 1]. And "${QUOTE}" [@page, sec. Hulls].`;
  const report = (await checkTextOperation.run({ bib: "map.json", draft, fetch }, ctx)) as DraftCheckReport;
  return report.citations.map((c) => [c.key ?? "", c.verdict, c.reason, c.message]);
}

describe("URLs a bibliography names", () => {
  it("are not fetched unless asked: FLAG source-unavailable saying so", async () => {
    const before = requests;
    const outcomes = await run("cli", false);
    expect(outcomes.map((o) => o.slice(0, 3))).toEqual([
      ["pdf", "FLAG", "source-unavailable"],
      ["page", "FLAG", "source-unavailable"],
    ]);
    expect(outcomes[0][3]).toMatch(/was not fetched \(fetching was not asked for\)/);
    expect(requests).toBe(before);
  });

  it("are fetched when asked: a PDF checked by page, an HTML page by section", async () => {
    const outcomes = await run("cli", true);
    expect(outcomes.map((o) => o.slice(0, 3))).toEqual([
      ["pdf", "PASS", "found"],
      ["page", "PASS", "found"],
    ]);
  });

  it("from an agent, a loopback address is refused before anything is sent", async () => {
    const before = requests;
    const outcomes = await run("agent", true);
    expect(outcomes.map((o) => o.slice(0, 3))).toEqual([
      ["pdf", "FLAG", "source-unavailable"],
      ["page", "FLAG", "source-unavailable"],
    ]);
    expect(outcomes[0][3]).toMatch(/loopback, private or link-local/);
    expect(requests).toBe(before);
  });
});
