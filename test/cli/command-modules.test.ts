// A command loads the modules its job needs: a PDF verify loads no flow checks, no HTTP client, no
// other operation's input schemas and no result schemas. Each file the run loads is named (a loader hook, a
// CommonJS preload), and each file of the CLI's bundle stands for the modules it holds.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/fixture-files.js";
import { modulesLoaded as filesLoaded } from "../helpers/loaded-modules.js";

const dir = mkdtempSync(join(tmpdir(), "citeproof-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The URLs of the modules a CLI run loads, in order, each file of the CLI's bundle as the modules it holds. */
function modulesLoaded(args: string[], status = 0): string[] {
  return filesLoaded(dir, args, status).flatMap(bundledModules);
}

/** The modules a file of the CLI's bundle holds (dist/bundle/modules.json), as URLs; any other URL as it is. */
function bundledModules(url: string): string[] {
  const bundle = pathToFileURL(join(repoRoot, "dist", "bundle")).href;
  if (!url.startsWith(`${bundle}/`)) return [url];
  const modules = JSON.parse(
    readFileSync(join(repoRoot, "dist", "bundle", "modules.json"), "utf8"),
  ) as Record<string, string[]>;
  const held = modules[url.slice(bundle.length + 1)];
  expect(held, url).toBeDefined();
  return held.map((m) => pathToFileURL(join(repoRoot, m)).href);
}

describe("a command loads what its job needs", () => {
  it("a PDF verify loads no flow checks, no HTTP client, no other operation's schemas, no result schemas", () => {
    const evidence = join(dir, "evidence.json");
    writeFileSync(evidence, JSON.stringify([{ kind: "page", page: 1 }]));
    const loaded = modulesLoaded([
      "verify",
      "test/fixtures/paper.pdf",
      "--evidence",
      evidence,
      "--json",
      "--no-cache",
      "--serve",
      "never",
    ]);
    // The run did load the verify command and the checks (so the hook saw it).
    expect(loaded.some((u) => u.endsWith("/dist/cli/commands/verify.js"))).toBe(true);
    expect(loaded.some((u) => u.endsWith("/dist/operations/schemas/verify.js"))).toBe(true);
    for (const module of [
      "/dist/checks/flow-verify.js",
      "/dist/source/url.js",
      "/dist/operations/schemas/index.js",
      // The other PDF operations' inputs, and the flow readers (a PDF is told by its bytes).
      "/dist/operations/schemas/documents.js",
      "/dist/document/flow/open.js",
      "/dist/document/flow/readers.js",
      "/dist/operations/schemas/run.js",
      "/dist/report/run/index.js",
      // The results' schemas: only the agent operations' output schemas need them.
      "/dist/checks/result.js",
    ])
      expect(loaded.filter((u) => u.endsWith(module))).toEqual([]);
  });

  it("a warm verify (every record's result kept) loads only what reads and prints the kept results", () => {
    const evidence = join(dir, "warm-evidence.json");
    writeFileSync(
      evidence,
      JSON.stringify([
        { id: "q", kind: "quotation", page: 1, text: "a quotation not on the page" },
        { id: "p", kind: "page", page: 1 },
      ]),
    );
    const cacheDir = join(dir, "warm-cache");
    const args = [
      "verify",
      "test/fixtures/paper.pdf",
      "--evidence",
      evidence,
      "--json",
      "--cache-dir",
      cacheDir,
      "--serve",
      "never",
    ];
    // The first run checks and keeps the results (a FAIL exits 1); the second answers from them.
    const cold = modulesLoaded(args, 1);
    expect(cold.some((u) => u.endsWith("/dist/checks/verify.js"))).toBe(true);
    const warm = modulesLoaded(args, 1);
    const ours = warm
      .filter((u) => !u.includes("/node_modules/"))
      .map((u) => u.slice(u.indexOf("/dist/") + 1));
    // Every module of the warm run is one of these: argument parsing, the evidence file, the
    // source's bytes and kind, the kept results, the report. A module added here is a cost at every
    // call: the layout, the checks, the text views, the flow readers, OCR and the agent interfaces
    // stay unloaded.
    expect(ours.filter((m) => !WARM_VERIFY_MODULES.includes(m))).toEqual([]);
    expect(ours).toContain("dist/reading/result-cache.js");
    const packages = new Set(
      warm
        .filter((u) => u.includes("/node_modules/"))
        .map((u) => u.split("/node_modules/").pop()?.split("/")[0]),
    );
    expect([...packages].sort()).toEqual(["commander", "zod"]);
  });
});

/** The modules a verify whose every result is kept may load (see the test above). */
const WARM_VERIFY_MODULES = [
  "dist/cli/main.cjs",
  "dist/cli/stdout-guard.cjs",
  "dist/cli/serve-mode.cjs",
  "dist/cli/output-errors.js",
  "dist/cli/v8-tuning.js",
  "dist/cli/in-process.js",
  "dist/document/process-tuning.js",
  "dist/error-document.js",
  "dist/errors.js",
  "dist/cli/report-error.js",
  "dist/cli/cli-io.js",
  "dist/cli/program.js",
  "dist/util/field-names.js",
  "dist/cli/commands/verify.js",
  "dist/text/ellipsis.js",
  "dist/util/json-object.js",
  "dist/checks/evidence-record.js",
  "dist/util/shown.js",
  "dist/source/opened-path.js",
  "dist/source/file.js",
  "dist/util/store-key.js",
  "dist/document/cache-prune.js",
  "dist/document/chunked-file.js",
  "dist/document/sealed-journal.js",
  "dist/document/cache.js",
  "dist/document/pdf-bytes.js",
  "dist/document/deadline-default.js",
  "dist/document/busy-cores.js",
  "dist/document/jobs.js",
  "dist/checks/setting-names.js",
  "dist/util/parse-input.js",
  "dist/operations/run-operation.js",
  "dist/operations/flag-name.js",
  "dist/document/page-record.js",
  "dist/util/derivation-graph.js",
  "dist/util/derivation.js",
  "dist/document/model.js",
  "dist/reading/result-cache.js",
  "dist/reading/cited-pages-first.js",
  "dist/operations/verify.js",
  "dist/document/flow/kind-names.js",
  "dist/document/flow/zip.js",
  "dist/document/flow/zip-kind.js",
  "dist/document/flow/detect.js",
  "dist/document/flow/media-type.js",
  "dist/operations/any-source.js",
  "dist/checks/cite-check/limits.js",
  "dist/operations/paths.js",
  "dist/source/allowed-root.js",
  "dist/util/deadline.js",
  "dist/operations/operation.js",
  "dist/cli/progress-line.js",
  "dist/cli/io.js",
  "dist/cli/ocr-flag.js",
  "dist/checks/cite-check/verdicts.js",
  "dist/operations/schemas/verify.js",
  "dist/operations/schemas/fields.js",
];
