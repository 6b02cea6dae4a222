import { defineConfig } from "vitest/config";

/**
 * `npm test` runs the fast project; `npm run test:all` adds the slow one: crash safety with killed
 * processes, the PDF fuzzer and OCR through tesseract.
 */
const SLOW = ["test/evidence/crash.test.ts", "test/fuzz/**/*.test.ts", "test/cite-check/ocr.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/setup/fresh-build.ts"],
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SLOW } },
      { extends: true, test: { name: "slow", include: SLOW } },
    ],
  },
});
