import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * `npm test` runs the fast project; `npm run test:all` adds the slow one: crash safety with killed
 * processes, the PDF fuzzer, hostile PDFs that abort the engine, and OCR through tesseract.
 */
const SLOW = [
  "test/evidence/crash.test.ts",
  "test/batch/kill-resume.test.ts",
  "test/document/engine-abort.test.ts",
  "test/fuzz/**/*.test.ts",
  "test/cite-check/ocr.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // The store key of the tests (and the CLI they start) lives in the temp dir, not the user's config.
    env: { CITEPROOF_KEY_FILE: join(tmpdir(), "citeproof-test-store-key") },
    globalSetup: ["test/setup/fresh-build.ts"],
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SLOW } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
