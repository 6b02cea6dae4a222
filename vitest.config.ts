import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * `npm test` runs the fast project; `npm run test:all` adds the slow one, whose tests each take seconds
 * because of what they are: crash safety with killed processes; hostile input at volume (the PDF fuzzer,
 * PDFs that abort the engine, pages of thousands of tokens); many processes or workers at once (lock
 * waiters, concurrent writers, shards, parallel extraction); and external programs (tesseract for OCR,
 * chromium for the report in a browser, pandoc rendering drafts, npm for the packed package); and the
 * slowest end-to-end tests (below).
 */
const SLOW = [
  "test/evidence/crash.test.ts",
  "test/batch/kill-resume.test.ts",
  "test/fuzz/**/*.test.ts",
  "test/document/engine-abort.test.ts",
  "test/layout/*-bad-input.test.ts",
  "test/session/lock-waiters.test.ts",
  "test/session/concurrency.test.ts",
  "test/reading/result-journal-writers.test.ts",
  "test/batch/shard.test.ts",
  "test/document/parallel-extraction.test.ts",
  "test/cite-check/ocr.test.ts",
  "test/cite-check/scan-layers.test.ts",
  "test/checks/ocr-quotations.test.ts",
  "test/checks/ocr-equations.test.ts",
  "test/report/run-report-browser.test.ts",
  "test/package/pack.test.ts",
  "test/attack/path-race.test.ts",
  "test/attack/page-text-bounds.test.ts",
  "test/attack/kill-trials.test.ts",
  "test/report/report-ocr.test.ts",
  "test/drafts/pandoc.test.ts",
  // End to end through processes of their own (the CLI spawned, a server started, workers started with
  // flags), each taking ten seconds or more on an idle 2-core machine: `npm test` stays under a minute, and
  // what they cover runs in CI (`npm run test:all`). In-process tests of the same code stay in the fast one.
  "test/cli/verify-errors.test.ts",
  "test/cli/serve.test.ts",
  "test/cli/bundle.test.ts",
  "test/operations/adapters.test.ts",
  "test/session/store.test.ts",
  "test/cli/verify-cache.test.ts",
  "test/mcp/server.test.ts",
  "test/drafts/generated.test.ts",
  "test/batch/batch.test.ts",
  "test/evidence/cli.test.ts",
  "test/docs/docs.test.ts",
  "test/report/report.test.ts",
  "test/cli/first-contact.test.ts",
  "test/mcp/http.test.ts",
  "test/document/worker-start.test.ts",
  "test/docs/readme.test.ts",
  "test/drafts/bad-input.test.ts",
  "test/checks/deadline.test.ts",
  "test/drafts/ci-gate.test.ts",
  "test/batch/sealed-results.test.ts",
  "test/ocr/engines.test.ts",
  "test/drafts/mcp-bib.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores, one worker on a 2-core machine; most tests wait
    // on a child process (the CLI, a server), so a worker per core keeps every core busy.
    maxWorkers: availableParallelism(),
    // The store key of the tests (and the CLI they start) lives in the temp dir, not the user's config.
    // Every error document the suites produce (in process and in the CLI they start) is held to its code's
    // details schema (src/error-document.ts): one that is not comes out INTERNAL, and its test fails.
    env: { CITEPROOF_KEY_FILE: join(tmpdir(), "citeproof-test-store-key"), CITEPROOF_CHECK_ERROR_DETAILS: "1" },
    globalSetup: ["test/setup/fresh-build.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: SLOW,
          // The fast files share their workers' module graph (each worker runs its files one after
          // another): the modules under test are loaded, and the engine started, once per worker rather
          // than once per file, which takes a third off the project's CPU. A file restores what it
          // changes beyond itself (spies with mockRestore or restoreAllMocks, environment variables);
          // test/architecture/shared-workers.test.ts holds them to it.
          isolate: false,
        },
      },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
