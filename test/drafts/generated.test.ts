/**
 * Drafts in Markdown, LaTeX and author-year prose over ten sources, generated with the verdict each
 * citation must get (scripts/drafts-gen/generate.mjs): every citation right, none missing, none more;
 * the SARIF output valid against the SARIF 2.1.0 schema; GitHub workflow commands; the exit codes.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import AjvModule from "ajv-draft-04";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

interface Truth {
  draft: string;
  line: number;
  key: string | null;
  quote: string | null;
  verdict: string;
  reason: string;
}

interface Outcome {
  key: string | null;
  quote: string | null;
  verdict: string;
  reason: string;
  line: number;
  column: number;
  source: { path?: string; url?: string; sha256: string | null; kind: string | null } | null;
}

interface Report {
  citations: Outcome[];
  sources: { path?: string; url?: string; identity: string; entries: { key: string; identity: string }[] }[];
  summary: { FAIL: number; FLAG: number; PASS: number };
}

const scratch = tempDir("citeproof-drafts-");
const out = join(scratch.dir, "set");
const cache = join(scratch.dir, "cache");
let truth: Truth[] = [];
afterAll(() => scratch.remove());
beforeAll(() => {
  execFileSync(process.execPath, [join(repoRoot, "scripts", "drafts-gen", "generate.mjs"), out]);
  truth = JSON.parse(readFileSync(join(out, "truth.json"), "utf8"));
});

const DRAFTS: [string, string][] = [
  ["draft.md", "refs.bib"],
  ["draft.tex", "refs.bib"],
  ["author-year.txt", "refs.bib"],
  ["csl.md", "refs.json"],
  ["map.md", "map.json"],
];

function check(draft: string, bib: string, ...more: string[]) {
  return runCli(["check-text", join(out, draft), "--bib", join(out, bib), "--cache-dir", cache, ...more], {
    timeoutMs: 120_000,
  });
}

describe("a generated set of drafts against their bibliographies", () => {
  it.each(DRAFTS)("%s: every citation gets the verdict and reason the generator gives it", (draft, bib) => {
    const run = check(draft, bib, "--json");
    expect(run.stderr).toBe("");
    const report = run.json as Report;
    const expected = truth.filter((t) => t.draft === draft);
    expect(expected.length).toBeGreaterThan(3);
    const got = report.citations.map((c) => ({
      draft,
      line: c.line,
      key: c.key,
      quote: c.quote,
      verdict: c.verdict,
      reason: c.reason,
    }));
    const order = (a: Truth, b: Truth) => a.line - b.line || String(a.key).localeCompare(String(b.key));
    expect(got.sort(order)).toEqual([...expected].sort(order));
    expect(run.status).toBe(expected.some((t) => t.verdict === "FAIL") ? 1 : 0);
    for (const c of report.citations) {
      if (c.source?.sha256) {
        expect(c.source.sha256).toMatch(/^[0-9a-f]{64}$/);
        // The kind is read from the bytes: the generated PDFs, and the HTML and Markdown notes.
        expect(c.source.kind).toBe(
          /\.pdf$/.test(c.source.path ?? "")
            ? "pdf"
            : /\.html$/.test(c.source.path ?? "")
              ? "html"
              : "markdown",
        );
      }
      expect(c.column).toBeGreaterThan(0);
    }
  });

  it("reads a page number as the number printed on the page: the roman front matter is not counted", () => {
    const report = check("draft.md", "refs.bib", "--json").json as {
      citations: (Outcome & { pageBasis: string | null; message: string; anchor: string | null })[];
    };
    const paper = report.citations.filter(
      (c) => /[/\\]paper\.pdf$/.test(c.source?.path ?? "") && c.verdict === "PASS",
    );
    expect(paper.length).toBeGreaterThan(1);
    for (const c of paper) {
      expect(c.pageBasis).toBe("printed");
      // Printed 1-3 on the file's pages 3-5.
      expect(c.message).toMatch(/read as the page printed \d, page \d of the file/);
    }
    const flows = report.citations.filter((c) => c.source?.kind !== "pdf");
    expect(flows.every((c) => c.pageBasis === null)).toBe(true);
  });

  it("names the identity of each bound source: the misfiled entry's file differs", () => {
    const report = check("draft.md", "refs.bib", "--json").json as Report;
    const entries = report.sources.flatMap((s) => s.entries);
    expect(entries.find((e) => e.key === "wrongfile")?.identity).toBe("differs");
    const bound = entries.filter((e) => !["wrongfile", "webonly", "outside", "nofile"].includes(e.key));
    expect(bound.length).toBeGreaterThanOrEqual(10);
    expect(bound.every((e) => e.identity === "matches")).toBe(true);
  });

  it("SARIF: valid against the SARIF 2.1.0 schema, one result per citation that is not PASS, at its line", () => {
    const report = check("draft.md", "refs.bib", "--json").json as Report;
    // Two drafts: one run each.
    const run = check("draft.md", "refs.bib", join(out, "author-year.txt"), "--format", "sarif");
    const sarif = run.json as {
      runs: {
        tool: { driver: { name: string; rules: { id: string; fullDescription: { text: string } }[] } };
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { region: { startLine: number } } }[];
        }[];
      }[];
    };
    const schema = JSON.parse(
      readFileSync(join(repoRoot, "test", "fixtures", "sarif", "sarif-schema-2.1.0.json"), "utf8"),
    );
    // The schema's language-tag pattern is not valid with the u flag: patterns are read without it.
    // CommonJS packages: their default export is the module object under NodeNext.
    const Ajv = AjvModule.default;
    const addFormats = addFormatsModule.default;
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(sarif.runs).toHaveLength(2);
    const runOne = sarif.runs[0];
    expect(runOne.tool.driver.name).toBe("citeproof");
    const notPass = report.citations.filter((c) => c.verdict !== "PASS");
    expect(runOne.results).toHaveLength(notPass.length);
    expect(runOne.results.map((r) => r.locations[0].physicalLocation.region.startLine)).toEqual(
      notPass.map((c) => c.line),
    );
    expect(new Set(runOne.tool.driver.rules.map((r) => r.id))).toEqual(new Set(notPass.map((c) => c.reason)));
    expect(runOne.results.filter((r) => r.level === "error")).toHaveLength(report.summary.FAIL);
    // An invalid log is refused: the validator can fail.
    expect(validate({ version: "2.1.0", runs: [{ results: [] }] })).toBe(false);
  });

  it("GitHub workflow commands: an error per FAIL, a warning per FLAG, at the draft's line and column", () => {
    const report = check("draft.md", "refs.bib", "--json").json as Report;
    const run = check("draft.md", "refs.bib", "--format", "github");
    const lines = run.stdout.trim().split("\n");
    const errors = lines.filter((l) => l.startsWith("::error file="));
    expect(errors).toHaveLength(report.summary.FAIL);
    expect(lines.filter((l) => l.startsWith("::warning file="))).toHaveLength(report.summary.FLAG);
    const first = report.citations.find((c) => c.verdict === "FAIL") as Outcome;
    expect(errors[0]).toContain(`,line=${first.line},col=${first.column},`);
    expect(run.status).toBe(1);
  });

  it("exit 0 when only FLAGs, 1 with --strict; the human report groups by source", () => {
    writeFileSync(
      join(out, "flag-only.md"),
      'A web page says "these are words from the web page" [@webonly, p. 1].\n',
    );
    const plain = check("flag-only.md", "refs.bib");
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/source https:\/\/example\.org\/paper\.pdf \(not read\) identity: unknown/);
    expect(plain.stdout).toMatch(/FLAG .* \[source-unavailable\]/);
    expect(check("flag-only.md", "refs.bib", "--strict").status).toBe(1);
  });
});
