// The cite-check command as a user runs it: both input forms, exit codes, JSON error documents,
// usage errors naming the field, and allowed roots from the working directory.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { cliPath, runCliInProcess } from "../helpers/run-cli.js";

const PDF = fixture("cite-check");
const GOOD = {
  id: "fox",
  quote: "The quick brown fox jumps over the lazy dog.",
  page: 1,
  bounding_box: { left: 66, bottom: 690, right: 400, top: 716 },
};
const BAD = { ...GOOD, id: "moved", bounding_box: { left: 296, bottom: 394, right: 560, top: 416 } };

let work: ReturnType<typeof tempDir>;
let cacheDir: string;
beforeAll(() => {
  work = tempDir();
  cacheDir = join(work.dir, "cache");
});
afterAll(() => work.remove());

function file(name: string, value: unknown): string {
  const path = join(work.dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

/** The command in-process from the repository's root (as the tests run); elsewhere, a CLI process there. */
async function cli(args: string[], cwd = repoRoot) {
  if (cwd === repoRoot) {
    const run = await runCliInProcess(["cite-check", ...args, "--cache-dir", cacheDir]);
    // biome-ignore lint/suspicious/noExplicitAny: the test walks arbitrary JSON output.
    return { ...run, json: run.json as any };
  }
  const out = spawnSync(process.execPath, [cliPath, "cite-check", ...args, "--cache-dir", cacheDir], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test walks arbitrary JSON output.
  let json: any;
  try {
    json = JSON.parse(out.stdout);
  } catch {
    json = undefined;
  }
  return { status: out.status, stdout: out.stdout, stderr: out.stderr, json };
}

describe("cite-check command", () => {
  it("exits 0 when every citation is verified and prints one JSON document", async () => {
    const r = await cli([PDF, "--citations", file("good.json", [GOOD]), "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json.operation).toBe("cite_check");
    expect(r.json.results[0]).toMatchObject({ id: "fox", verdict: "verified_exact", reason: "exact_in_box" });
    expect(r.json.results[0].locations[0]).toHaveProperty("start_utf16");
    expect(r.json.results[0].locations[0]).toHaveProperty("geometry_level", "glyph");
    expect(r.stderr).toBe("");
  });

  it("exits 1 when any citation is not verified, and prints a readable report without --json", async () => {
    const r = await cli([PDF, "--citations", file("mixed.json", [GOOD, BAD])]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain("verified_exact");
    expect(r.stdout).toContain("[moved] p. 1");
    expect(r.stdout).toContain("[outside_box]");
    expect(r.stdout).toContain("exit 1: at least one citation is not verified");
  });

  it("exits 1 on an expected sha256 that differs", async () => {
    const r = await cli([
      PDF,
      "--citations",
      file("good2.json", [GOOD]),
      "--expected-sha256",
      "a".repeat(64),
      "--json",
    ]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.json.results[0].reason).toBe("source_hash_mismatch");
  });

  it("takes the whole request as one JSON document and answers as the flags do", async () => {
    const request = file("req.json", {
      operation: "cite_check",
      sources: [{ path: PDF }],
      citations: [GOOD, BAD],
      normalization: "whitespace_v1",
      timeout_ms: 30_000,
      max_output_chars: 5000,
    });
    const r = await cli(["--request", request, "--json"]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.json.options).toEqual({
      normalization: "whitespace_v1",
      ocr: null,
      timeout_ms: 30_000,
      max_output_chars: 5000,
    });
    const flags = await cli([
      PDF,
      "--citations",
      file("pair.json", [GOOD, BAD]),
      "--normalization",
      "whitespace_v1",
      "--timeout-ms",
      "30000",
      "--max-output-chars",
      "5000",
      "--json",
    ]);
    expect(flags.json.results).toEqual(r.json.results);
    expect(flags.json.options).toEqual(r.json.options);
  });

  it("takes a citations file that carries options, but not the same option twice", async () => {
    const withOptions = file("opts.json", {
      citations: [{ ...GOOD, quote: "The quick  brown fox" }],
      normalization: "whitespace_v1",
    });
    const r = await cli([PDF, "--citations", withOptions, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json.results[0].verdict).toBe("verified_normalized");
    const clash = await cli([PDF, "--citations", withOptions, "--normalization", "none", "--json"]);
    expect(clash.status, clash.stderr).toBe(2);
    expect(clash.json.error.message).toContain("--normalization is also set in the citations file");
  });

  it("exits 2 with a usage error naming the field", async () => {
    const cases: [string[], string][] = [
      [[PDF, "--citations", file("q.json", [{ ...GOOD, quote: "" }])], "citations[0].quote"],
      [[PDF, "--citations", file("p.json", [GOOD, { ...GOOD, page: -1 }])], "citations[1].page"],
      [
        [PDF, "--citations", file("b.json", [{ ...GOOD, bounding_box: { ...GOOD.bounding_box, top: 600 } }])],
        "citations[0].bounding_box",
      ],
      [
        [
          PDF,
          "--citations",
          file(
            "many.json",
            Array.from({ length: 101 }, () => GOOD),
          ),
        ],
        "citations must hold 1 to 100",
      ],
      [
        [
          PDF,
          "--citations",
          file(
            "pages.json",
            Array.from({ length: 21 }, (_, i) => ({ ...GOOD, page: i + 1 })),
          ),
        ],
        "citations[20].page",
      ],
      [
        [PDF, "--citations", file("ok.json", [GOOD]), "--timeout-ms", "999"],
        "--timeout-ms must be an integer from 1000 to 300000",
      ],
      [[PDF, "--citations", file("ok.json", [GOOD]), "--timeout-ms", "300001"], "--timeout-ms"],
      [[PDF, "--citations", file("ok.json", [GOOD]), "--max-output-chars", "999"], "--max-output-chars"],
      [[PDF, "--citations", file("ok.json", [GOOD]), "--max-output-chars", "1000001"], "--max-output-chars"],
      [
        [PDF, "--citations", file("ok.json", [GOOD]), "--normalization", "fold"],
        "--normalization must be one of",
      ],
      [[PDF, "--citations", file("ok.json", [GOOD]), "--ocr", "vlm"], "--ocr must be one of auto, tesseract"],
      [
        [PDF, "--citations", file("ok.json", [GOOD]), "--expected-sha256", "abc"],
        "--expected-sha256 must be 64",
      ],
      [[PDF, "--citations", file("bad.json", "{not json")], "is not valid JSON"],
      [[PDF], "--citations <file> is required"],
      [
        [
          "--request",
          file("r.json", { operation: "cite_check", sources: [{ path: PDF }], citations: [GOOD] }),
          "--ocr",
          "auto",
        ],
        "--ocr cannot be combined with --request",
      ],
      [
        ["--request", file("r2.json", { operation: "cite_check", sources: [], citations: [GOOD] })],
        "sources must be an array of exactly one source",
      ],
    ];
    for (const [args, field] of cases) {
      const r = await cli([...args, "--json"]);
      expect(r.status, field).toBe(2);
      expect(r.json.error.code, field).toBe("USAGE");
      expect(r.json.error.message, field).toContain(field);
      expect(r.stderr).toContain("citeproof: error [USAGE]");
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("accepts every option at its edge", async () => {
    const r = await cli([
      PDF,
      "--citations",
      file("edge.json", [GOOD]),
      "--timeout-ms",
      "300000",
      "--max-output-chars",
      "1000",
      "--json",
    ]);
    expect(r.status, r.stderr).toBe(0);
    const low = await cli([
      PDF,
      "--citations",
      file("edge2.json", [GOOD]),
      "--timeout-ms",
      "1000",
      "--max-output-chars",
      "1000000",
      "--json",
    ]);
    // One second may run out on a slow machine; it must then say so, never claim a non-match.
    expect([0, 1]).toContain(low.status);
    expect(["verified_exact", "insufficient_evidence"]).toContain(low.json.results[0].verdict);
  });

  it("reads a PDF named on the command line wherever it is; one named in --request only inside the roots", async () => {
    const cwd = join(work.dir, "cwd");
    mkdirSync(cwd);
    copyFileSync(PDF, join(cwd, "local.pdf"));
    symlinkSync(PDF, join(cwd, "link.pdf"));
    const citations = file("roots.json", [GOOD]);
    const local = await cli(["local.pdf", "--citations", citations, "--json"], cwd);
    expect(local.status, local.stderr).toBe(0);
    // A person typed these paths: they are read, outside the working directory or through a link.
    const named = await cli([PDF, "--citations", citations, "--json"], cwd);
    expect(named.status, named.stderr).toBe(0);
    const namedLink = await cli(["link.pdf", "--citations", citations, "--json"], cwd);
    expect(namedLink.status, namedLink.stderr).toBe(0);
    expect(namedLink.json.source.origin).toBe("link.pdf");
    // A request document's paths are data: they must resolve, symlinks included, inside an allowed root.
    const request = (path: string) =>
      file("req.json", { operation: "cite_check", sources: [{ path }], citations: [GOOD] });
    const denied = await cli(["--request", request(PDF), "--json"], cwd);
    expect(denied.status, denied.stderr).toBe(2);
    expect(denied.json.error.code).toBe("ACCESS_DENIED");
    const viaLink = await cli(["--request", request("link.pdf"), "--json"], cwd);
    expect(viaLink.status, viaLink.stderr).toBe(2);
    expect(viaLink.json.error.code).toBe("ACCESS_DENIED");
    expect(viaLink.json.error.message).toContain("resolves to");
    expect(viaLink.json.error.message).toContain("add one with --allow-root");
    const allowed = await cli(
      ["--request", request("link.pdf"), "--allow-root", join(repoRoot, "test", "fixtures"), "--json"],
      cwd,
    );
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.json.source.origin).toBe("link.pdf");
  });

  it("reports a missing file and a non-PDF as tool errors", async () => {
    const citations = file("tool.json", [GOOD]);
    const missing = await cli([join(repoRoot, "nope.pdf"), "--citations", citations, "--json"]);
    expect(missing.status, missing.stderr).toBe(2);
    expect(missing.json.error.code).toBe("FILE_NOT_FOUND");
    const notPdf = await cli([citations, "--citations", citations, "--allow-root", work.dir, "--json"]);
    expect(notPdf.status, notPdf.stderr).toBe(2);
    expect(notPdf.json.error.code).toBe("NOT_PDF");
  });
});
