/** A batch job `{id, bib, check_text}`: a draft against its bibliography, as `check-text --bib --json` gives it. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

const scratch = tempDir("citeproof-batch-bib-");
afterAll(() => scratch.remove());

describe("batch: check_text jobs with a bibliography", () => {
  it("gives each bib job the report check-text --bib --json prints; bib on another kind is refused", () => {
    const set = join(scratch.dir, "set");
    execFileSync(process.execPath, [join(repoRoot, "scripts", "drafts-gen", "generate.mjs"), set]);
    const draft = readFileSync(join(set, "csl.md"), "utf8");
    const jobs = join(scratch.dir, "jobs.jsonl");
    writeFileSync(
      jobs,
      [
        { id: "csl", bib: join(set, "refs.json"), check_text: draft },
        { id: "wrong-kind", bib: join(set, "refs.json"), verify: [] },
      ]
        .map((j) => JSON.stringify(j))
        .join("\n"),
    );
    const env = { CITEPROOF_CACHE_DIR: join(scratch.dir, "cache") };
    const out = join(scratch.dir, "results.jsonl");
    const run = runCli(["batch", jobs, "--out", out, "--allow-root", set, "--quiet", "--json"], { env });
    expect(run.stderr).toBe("");
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const csl = lines.find((l) => l.id === "csl");
    const single = runCli(["check-text", join(set, "csl.md"), "--bib", join(set, "refs.json"), "--json"], {
      env,
    });
    const { batch, id: _id, ...report } = csl;
    expect(batch).toMatchObject({ job: "check_text", exit: 1, sha256: null });
    expect(report).toEqual(single.json);
    const wrong = lines.find((l) => l.id === "wrong-kind");
    expect(wrong.error.code).toBe("BATCH_JOB_INVALID");
    expect(wrong.error.message).toContain('"bib" is read by check_text jobs only');
  });
});
