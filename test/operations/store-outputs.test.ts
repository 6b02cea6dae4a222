// The session, source, run and verify_citations operations declare the document they return
// (`op.output`), and what they return when run for real conforms to it: a session bound to the prose
// fixture, its pool, drafts and a revision; an evidence run over a registered text and a local PDF,
// read, searched, assembled, verified, reported and promoted. Each document is also shown to fail its
// schema when one of its fields is renamed.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTextOperation } from "../../src/operations/check-text.js";
import { locateOperation } from "../../src/operations/locate.js";
import type { AnyOperation } from "../../src/operations/operation.js";
import {
  runAssembleOperation,
  runNewOperation,
  runPromoteOperation,
  runReportOperation,
  runVerifyOperation,
} from "../../src/operations/run.js";
import { runOperation } from "../../src/operations/run-operation.js";
import {
  sessionCheckDraftOperation,
  sessionCheckTextOperation,
  sessionCompareOperation,
  sessionDraftInputOperation,
  sessionNewOperation,
  sessionPoolOperation,
  sessionReviseOperation,
  sessionVerifyOperation,
} from "../../src/operations/session.js";
import {
  sourceFetchOperation,
  sourceLocalOperation,
  sourceReadOperation,
  sourceRegisterOperation,
  sourceSpansOperation,
} from "../../src/operations/source.js";
import { toolOutputSchema } from "../../src/operations/tool-schema.js";
import { verifyOperation } from "../../src/operations/verify.js";
import { verifyCitationsOperation } from "../../src/operations/verify-citations.js";
import { FIXTURE_PDF, startServer } from "../evidence/helpers.js";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { MOVED, ORIGINAL } from "../prose/support.js";

const tmp = tempDir("citeproof-store-outputs-");
afterAll(() => tmp.remove());
const ctx = {
  cwd: tmp.dir,
  access: "anywhere" as const,
  open: { cacheDir: join(tmp.dir, "cache") },
};

/** Runs the operation and returns its JSON document as a program reads it. */
async function documentOf(op: AnyOperation, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { json } = await runOperation(op, args, ctx);
  return JSON.parse(JSON.stringify(json));
}

/** The document conforms to the operation's schema, and stops conforming when `field` is renamed. */
async function expectDeclared(op: AnyOperation, doc: Record<string, unknown>, field: string) {
  const schema = await op.output!();
  expect(schema.safeParse(doc).error).toBeUndefined();
  expect(field in doc).toBe(true);
  const { [field]: value, ...rest } = doc;
  expect(schema.safeParse({ ...rest, [`${field}_renamed`]: value }).success).toBe(false);
}

async function check(op: AnyOperation, args: Record<string, unknown>, field: string) {
  const doc = await documentOf(op, args);
  await expectDeclared(op, doc, field);
  return doc;
}

describe("outputs of the session operations", () => {
  const session = { name: "demo", session: join(tmp.dir, "sessions", "demo") };
  const draft = 'On p. 1 it is "a finite set of nodes". On p. 3 it is "a finite set of edges" (Eq. 9).';

  beforeAll(async () => {
    await runOperation(sessionNewOperation, { ...session, pdf: ORIGINAL }, ctx);
  }, 120_000);

  it("session_new", async () => {
    await check(sessionNewOperation, { ...session, pdf: ORIGINAL }, "session");
  });
  it("session_verify", async () => {
    const evidence = [
      { id: "q1", kind: "quotation", page: 1, text: "a finite set of nodes" },
      { id: "p2", kind: "page", page: 2 },
      { id: "bad", kind: "quotation", page: 3, text: "a finite set of edges" },
      { id: "gone", kind: "page", page: 40 },
    ];
    await check(sessionVerifyOperation, { ...session, evidence }, "results");
  });
  it("session_pool", async () => {
    await check(sessionPoolOperation, session, "claims");
  });
  it("session_draft_input", async () => {
    await check(sessionDraftInputOperation, session, "quotations");
  });
  it("session_check_draft", async () => {
    await check(sessionCheckDraftOperation, { ...session, draft }, "flagged");
  });
  it("session_check_text", async () => {
    await check(sessionCheckTextOperation, { ...session, draft }, "citations");
  });
  it("session_revise and session_compare", async () => {
    await check(sessionReviseOperation, { ...session, pdf: MOVED }, "revision");
    await check(sessionCompareOperation, session, "claims");
  }, 120_000);
});

describe("outputs of the source and run operations", () => {
  const runDir = join(tmp.dir, "run");
  const library = join(tmp.dir, "library");
  const text = "Results\nAt 12 weeks the intervention group showed a greater reduction than controls.\n";
  let pdfSourceId = "";

  it("run_new, source_register, source_read, source_spans", async () => {
    mkdirSync(library, { recursive: true });
    await runOperation(runNewOperation, { run_dir: runDir, library_root: library }, ctx);
    const receipt = await check(
      sourceRegisterOperation,
      { run_dir: runDir, url: "https://example.org/trial", text, access: "full_text", origin: "web" },
      "source_id",
    );
    const source_id = receipt.source_id as string;
    await check(sourceReadOperation, { run_dir: runDir, source_id }, "text");
    await check(sourceSpansOperation, { run_dir: runDir, source_id, query: "At 12 weeks" }, "hits");
  });

  it("source_fetch retrieves a URL", async () => {
    const server = await startServer({
      "/trial": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        res.end(text);
      },
    });
    try {
      const url = `${server.base}/trial`;
      const receipt = await check(sourceFetchOperation, { run_dir: runDir, url, origin: "web" }, "event");
      expect((receipt.event as { fresh: boolean }).fresh).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("source_local registers a PDF of the library", async () => {
    const pdf = join(library, "paper.pdf");
    copyFileSync(FIXTURE_PDF, pdf);
    const receipt = await check(
      sourceLocalOperation,
      { run_dir: runDir, file: pdf, pmid: "12345678" },
      "event",
    );
    pdfSourceId = receipt.source_id as string;
  }, 120_000);

  it("run_assemble, run_verify, run_report, run_promote", async () => {
    // The PDF's first word, "Abstract" (code points [0, 8)): a checked local PDF, so the run promotes.
    writeFileSync(
      join(runDir, "records", "claims.json"),
      JSON.stringify([
        {
          id: "c1",
          text: "The abstract says so.",
          spans: [
            {
              claim: "the abstract",
              evidence_id: "pmid:12345678",
              source_id: pdfSourceId,
              start: 0,
              end: 8,
              access: "full_text",
            },
          ],
        },
      ]),
    );
    await check(runAssembleOperation, { run_dir: runDir }, "summary");
    await check(runVerifyOperation, { run_dir: runDir }, "checks");
    await check(runReportOperation, { run_dir: runDir }, "report_md");
    expect((await check(runPromoteOperation, { run_dir: runDir }, "failures")).ok).toBe(true);
    await check(runPromoteOperation, { run_dir: runDir, to: join(tmp.dir, "knowledge") }, "concepts");
  }, 120_000);
});

describe("outputs of a run that does not promote", () => {
  it("run_assemble lists what is unresolved and run_promote what refused it", async () => {
    const runDir = join(tmp.dir, "unfresh-run");
    await runOperation(runNewOperation, { run_dir: runDir }, ctx);
    const text = "Attrition was unbalanced between arms and no imputation was made.";
    const registered = { run_dir: runDir, url: "https://example.org/a", text, access: "full_text" };
    const { json } = await runOperation(sourceRegisterOperation, registered, ctx);
    // Registered text is never a fresh retrieval: C-FRESH-FETCH leaves the span unresolved.
    const span = { claim: "attrition", evidence_id: "web:a", start: 0, end: 8, access: "full_text" };
    const source_id = (json as { source_id: string }).source_id;
    const claims = [{ id: "c1", text: "Attrition was unbalanced.", spans: [{ ...span, source_id }] }];
    writeFileSync(join(runDir, "records", "claims.json"), JSON.stringify(claims));
    const assembled = await check(runAssembleOperation, { run_dir: runDir }, "diagnostics");
    expect((assembled.summary as { unresolved: number }).unresolved).toBe(1);
    await check(runVerifyOperation, { run_dir: runDir }, "verdict");
    const refused = await check(runPromoteOperation, { run_dir: runDir }, "failures");
    expect(refused.ok).toBe(false);
    expect((refused.failures as unknown[]).length).toBeGreaterThan(0);
  });
});

describe("outputs of verify_citations", () => {
  it("returns verify's document with each citation traced", async () => {
    const citations = [
      {
        type: "page_location",
        cited_text: "a finite set of nodes",
        start_page_number: 1,
        end_page_number: 2,
      },
    ];
    await check(verifyCitationsOperation, { pdf: ORIGINAL, citations, format: "anthropic" }, "results");
  }, 120_000);
});

describe("outputs of the agent operations on a flow source", () => {
  // A flow source has paragraphs and sections, not pages: its documents conform to the same schemas.
  const markdown = join(tmp.dir, "note.md");
  beforeAll(() =>
    writeFileSync(markdown, "# Title\n\nThe quick brown fox jumps over the lazy dog near the river bank.\n"),
  );

  it("verify, locate and check_text", async () => {
    const evidence = [{ kind: "quotation", text: "quick brown fox jumps over" }];
    await check(verifyOperation, { source: markdown, evidence }, "document");
    await check(locateOperation, { source: markdown, text: "brown fox" }, "occurrences");
    const draft = 'As written, "the quick brown fox jumps over" (Title).';
    await check(checkTextOperation, { source: markdown, draft }, "document");
  });
});

describe("outputs of check_text through a bibliography", () => {
  it("returns the draft's sources and each citation's outcome, as declared", async () => {
    const set = join(tmp.dir, "drafts");
    execFileSync(process.execPath, [join(repoRoot, "scripts", "drafts-gen", "generate.mjs"), set]);
    const draft = readFileSync(join(set, "draft.tex"), "utf8");
    const args = { bib: join(set, "refs.bib"), draft, draft_name: "draft.tex" };
    const doc = await check(checkTextOperation, args, "sources");
    expect((doc.citations as unknown[]).length).toBeGreaterThan(0);
  }, 120_000);
});

describe("every operation declares its output", () => {
  it("each operation of the registry has an output schema an agent host could be given", async () => {
    const { OPERATIONS } = await import("../../src/operations/index.js");
    const missing = OPERATIONS.filter((op) => op.output === undefined).map((op) => op.name);
    expect(missing).toEqual([]);
    // The JSON Schema a tool's outputSchema would be: an object, whichever interface offers it.
    for (const op of OPERATIONS) expect(toolOutputSchema(await op.output!()).type, op.name).toBe("object");
  });
});
