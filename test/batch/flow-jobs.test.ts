// A jobs line's `source` (beside `pdf`): a verify or check_text job reads a cited source of any kind,
// its kind from its content, and its result line is the single command's --json document; cite_check
// stays PDF-only, and a line naming two sources is refused.
import { copyFileSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJobLine } from "../../src/batch/job.js";
import { type BatchEnv, runJob } from "../../src/batch/run-job.js";
import type { CiteproofError } from "../../src/errors.js";
import { verifyOperation } from "../../src/operations/verify.js";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { CORPUS_EVIDENCE, CORPUS_QUOTE } from "../helpers/flow-source.js";
import { CITE_GOOD } from "./helpers.js";

let work: ReturnType<typeof tempDir>;
let env: BatchEnv;
let notes: string;
beforeAll(() => {
  work = tempDir("citeproof-batch-flow-");
  // A name that says nothing of the kind: the content decides.
  notes = join(work.dir, "notes.dat");
  copyFileSync(join(repoRoot, "test", "fixtures", "flow", "corpus.md"), notes);
  env = { cwd: work.dir, roots: [work.dir], open: { cacheDir: join(work.dir, "cache") } };
});
afterAll(() => work.remove());

const line = (value: unknown) => JSON.stringify(value);

describe("batch jobs on a flow source", () => {
  it("a verify job with source equals the single verify, PASS and FAIL alike", async () => {
    const evidence = CORPUS_EVIDENCE;
    const job = parseJobLine(line({ id: "v", source: notes, verify: evidence }), 1);
    const result = await runJob(job, env);
    const { id, batch, ...doc } = result;
    expect(id).toBe("v");
    const single = await verifyOperation.run(
      { source: notes, evidence },
      { cwd: work.dir, access: [work.dir], open: env.open },
    );
    expect(doc).toEqual(JSON.parse(JSON.stringify(single)));
    expect((doc.document as { kind: string }).kind).toBe("markdown");
    expect((doc.results as { verdict: string }[]).map((r) => r.verdict)).toEqual(["PASS", "FAIL"]);
    expect(batch).toMatchObject({ job: "verify", exit: 1, sha256: single.document.sha256 });
  });

  it("a check_text job with source checks the draft's quotations against it", async () => {
    const draft = `The study notes that deltas "${CORPUS_QUOTE} and many of its cities" (section "Introduction").`;
    const result = await runJob(parseJobLine(line({ id: "t", source: notes, check_text: draft }), 2), env);
    expect(result.error).toBeUndefined();
    expect((result.document as { kind: string }).kind).toBe("markdown");
    expect(result.summary).toMatchObject({ PASS: 1, FAIL: 0 });
    expect(result.batch.exit).toBe(0);
  });

  it("a page on a flow source is the job's EVIDENCE_INVALID line, not a check", async () => {
    const job = parseJobLine(line({ id: "p", source: notes, verify: [{ kind: "page", page: 1 }] }), 3);
    const result = await runJob(job, env);
    expect(result.batch.exit).toBe(2);
    expect((result.error as { code: string }).code).toBe("EVIDENCE_INVALID");
  });

  it("a verify job's source may be an http(s) URL, fetched as verify fetches it", async () => {
    const body = readFileSync(notes);
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notes`;
      const result = await runJob(
        parseJobLine(line({ id: "u", source: url, verify: CORPUS_EVIDENCE }), 5),
        env,
      );
      expect((result.document as { kind: string }).kind).toBe("markdown");
      expect((result.results as { verdict: string }[]).map((r) => r.verdict)).toEqual(["PASS", "FAIL"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses source on a cite_check job, and a line naming both pdf and source", () => {
    const refused = (value: unknown) => {
      try {
        parseJobLine(line(value), 4);
      } catch (error) {
        return error as CiteproofError;
      }
      throw new Error("accepted");
    };
    const cite = refused({ id: "c", source: notes, cite_check: { citations: [CITE_GOOD] } });
    expect(cite.code).toBe("BATCH_JOB_INVALID");
    expect(cite.details).toMatchObject({ field: "source", line: 4 });
    const both = refused({ id: "b", source: notes, pdf: notes, verify: [] });
    expect(both.code).toBe("BATCH_JOB_INVALID");
    expect(both.message).toMatch(/exactly one source/);
  });
});
