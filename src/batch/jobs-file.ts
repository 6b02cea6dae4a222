/**
 * A jobs file: one JSON job per line (blank lines skipped). Lines that cannot be read become entries
 * carrying their error, so the batch reports them and goes on; two lines with the same id refuse the
 * whole file before any work.
 */
import { readFileSync } from "node:fs";
import { CiteproofError } from "../errors.js";
import { idOfLine, type Job, lineKey, parseJobLine } from "./job.js";

export type JobEntry =
  | { ok: true; key: string; job: Job }
  | { ok: false; key: string; id: string | null; line: number; error: CiteproofError };

export function readJobsFile(path: string): JobEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CiteproofError("FILE_NOT_FOUND", `jobs file ${path} does not exist`);
    throw new CiteproofError("FILE_UNREADABLE", `jobs file ${path} cannot be read (${code})`);
  }
  return readJobs(text);
}

export function readJobs(text: string): JobEntry[] {
  const entries: JobEntry[] = [];
  const firstLineOf = new Map<string, number>();
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    const body = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (body.trim().length === 0) return;
    const id = idOfLine(body) ?? null;
    if (id !== null) {
      const first = firstLineOf.get(id);
      if (first !== undefined)
        throw new CiteproofError(
          "BATCH_DUPLICATE_ID",
          `the id ${JSON.stringify(id)} is on line ${first} and line ${line} of the jobs file; ids must be unique (nothing was run)`,
          { lines: [first, line], id },
        );
      firstLineOf.set(id, line);
    }
    try {
      const job = parseJobLine(body, line);
      entries.push({ ok: true, key: job.id, job });
    } catch (error) {
      entries.push({ ok: false, key: lineKey(id, line), id, line, error: error as CiteproofError });
    }
  });
  return entries;
}
