/**
 * Drafts another producer wrote: the generated Markdown draft (scripts/drafts-gen/generate.mjs)
 * rendered by pandoc's citeproc into Markdown and LaTeX, in an author-date style (pandoc's own) and a
 * numeric one (scripts/drafts-gen/numeric.csl, numbered by first citation), its reference list
 * written in. Lines are kept (`--wrap=preserve`), so each line's citations get the generator's
 * verdicts, but where the rendering leaves no citation to read: a `[-@key]` printed as a bare year in
 * the author-date style, and a key the bibliography lacks (`**key?**`), leave their quotation
 * UNANCHORED.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

interface Truth {
  draft: string;
  line: number;
  quote: string | null;
  verdict: string;
  reason: string;
}

const scratch = tempDir("citeproof-pandoc-");
const out = join(scratch.dir, "set");
let truth: Truth[] = [];
let source: string[] = [];
afterAll(() => scratch.remove());
beforeAll(() => {
  execFileSync(process.execPath, [join(repoRoot, "scripts", "drafts-gen", "generate.mjs"), out]);
  truth = (JSON.parse(readFileSync(join(out, "truth.json"), "utf8")) as Truth[]).filter(
    (t) => t.draft === "draft.md",
  );
  source = readFileSync(join(out, "draft.md"), "utf8").split("\n");
});

const RENDERINGS: [string, string, boolean][] = [
  ["author-date.md", "markdown-citations", false],
  ["author-date.tex", "latex", false],
  ["numeric.md", "markdown-citations", true],
  ["numeric.tex", "latex", true],
];

function render(name: string, to: string, numeric: boolean): void {
  const csl = numeric ? ["--csl", join(repoRoot, "scripts", "drafts-gen", "numeric.csl")] : [];
  execFileSync(
    "pandoc",
    ["draft.md", "--citeproc", "--bibliography", "refs.bib", ...csl, "-t", to, "--wrap=preserve", "-o", name],
    { cwd: out, stdio: ["ignore", "ignore", "ignore"] },
  );
}

/** What a line's citations must get once rendered. */
function expected(numeric: boolean): Omit<Truth, "draft">[] {
  return truth.map((t) => {
    const line = source[t.line - 1];
    const unreadable = line.includes("@nosuchkey") || (!numeric && /\[-@/u.test(line));
    return unreadable && t.quote !== null
      ? { line: t.line, quote: t.quote, verdict: "UNANCHORED", reason: "no-page" }
      : { line: t.line, quote: t.quote, verdict: t.verdict, reason: t.reason };
  });
}

describe("drafts pandoc's citeproc rendered", () => {
  it.each(RENDERINGS)("%s: every line's citations get the generator's verdicts", (name, to, numeric) => {
    render(name, to, numeric);
    const run = runCli(["check-text", join(out, name), "--bib", join(out, "refs.bib"), "--json"], {
      timeoutMs: 120_000,
    });
    const report = run.json as { citations: Omit<Truth, "draft">[] };
    const got = report.citations.map((c) => ({
      line: c.line,
      quote: c.quote,
      verdict: c.verdict,
      reason: c.reason,
    }));
    const order = (a: Omit<Truth, "draft">, b: Omit<Truth, "draft">) =>
      a.line - b.line || String(a.quote).localeCompare(String(b.quote)) || a.verdict.localeCompare(b.verdict);
    expect(got.sort(order)).toEqual(expected(numeric).sort(order));
  });
});
