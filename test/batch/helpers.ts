// Jobs files for batch tests: fixture PDFs under verify, cite_check and check_text, and a damaged PDF.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, repoRoot } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";

export const CITE_GOOD = {
  id: "fox",
  quote: "The quick brown fox jumps over the lazy dog.",
  page: 1,
  bounding_box: { left: 66, bottom: 690, right: 400, top: 716 },
};
export const CITE_BAD = {
  ...CITE_GOOD,
  id: "moved",
  bounding_box: { left: 296, bottom: 394, right: 560, top: 416 },
};
export const DRAFT = 'The report says "Salt corrosion was the most common defect on the older hulls" (p. 1).';

/** Every fixture PDF but the encrypted one, by name. */
export function fixtureNames(): string[] {
  return readdirSync(join(repoRoot, "test", "fixtures"))
    .filter((f) => f.endsWith(".pdf") && f !== "encrypted.pdf")
    .map((f) => f.slice(0, -4))
    .sort();
}

export type JobSpec = Record<string, unknown> & { id: string };

/** 30 good jobs: a verify job per fixture, the worked example, cite_check and check_text jobs. */
export function goodJobs(): JobSpec[] {
  const jobs: JobSpec[] = fixtureNames().map((name) => ({
    id: `verify-${name}`,
    pdf: fixture(name),
    verify: [
      { id: "p1", kind: "page", page: 1 },
      { id: "q", kind: "quotation", page: 1, text: "words that no fixture prints on its first page" },
    ],
  }));
  jobs.push({
    id: "example",
    pdf: join(repoRoot, "examples", "paper.pdf"),
    verify: JSON.parse(readFileSync(join(repoRoot, "examples", "evidence.json"), "utf8")),
  });
  jobs.push({ id: "cite-good", pdf: fixture("cite-check"), cite_check: { citations: [CITE_GOOD] } });
  jobs.push({
    id: "cite-mixed",
    pdf: fixture("cite-check"),
    cite_check: { citations: [CITE_GOOD, CITE_BAD], normalization: "whitespace_v1" },
  });
  jobs.push({ id: "prose", pdf: fixture("interfaces"), check_text: DRAFT });
  jobs.push({ id: "prose-2", pdf: fixture("prose-example"), check_text: "As written, p. 1 holds it." });
  jobs.push({
    id: "cite-far",
    pdf: fixture("cite-check"),
    cite_check: { citations: [{ ...CITE_GOOD, page: 2 }] },
  });
  return jobs.slice(0, 30);
}

export function writeJobs(path: string, lines: (JobSpec | string)[]): string {
  writeFileSync(path, `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`);
  return path;
}

export function readLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l));
}

/** A line without what the batch adds: the single command's JSON document. */
export function documentOf(line: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, batch: _batch, ...doc } = line;
  return doc;
}

export const CLI = cliPath;
