/**
 * A results file: one JSON line per job, appended with one write each as jobs end, so a killed batch
 * leaves whole lines and at most one torn last line. Reading it back for a resume keeps the whole
 * lines, cuts the torn one off (its job runs again) and refuses a file that is not a batch's results.
 * Each line carries, in its `batch` record, the options it was run under and a seal: an HMAC-SHA256
 * under the per-user store key (util/store-key.ts) over the rest of the line, so a line edited or
 * forged by whoever can write the file but not read the key is refused on resume and on merge.
 */
import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import { CiteproofError } from "../errors.js";
import { canonicalJson } from "../evidence/files.js";
import { replaceFile } from "../util/atomic-file.js";
import { seal, sealHolds } from "../util/store-key.js";
import { lineKey } from "./job.js";
import type { BatchRunOptions, ResultLine } from "./run-job.js";

const LINE_SEAL = "citeproof-batch-line";

function sealParts(line: ResultLine): string[] {
  const { seal: _seal, ...batch } = line.batch;
  return [LINE_SEAL, canonicalJson({ ...line, batch })];
}

/** The line as written: the options it ran under and its seal added to its `batch` record. */
export function sealLine(line: ResultLine, options: BatchRunOptions): ResultLine {
  const { seal: _seal, ...batch } = line.batch;
  const unsealed: ResultLine = { ...line, batch: { ...batch, options } };
  return { ...unsealed, batch: { ...unsealed.batch, seal: seal(sealParts(unsealed)) } };
}

/** The options of `previous` that differ from `now`, each named as the batch command's flag. */
export function changedOptions(previous: BatchRunOptions | undefined, now: BatchRunOptions): string[] {
  const names: Record<keyof BatchRunOptions, string> = {
    cwd: "the working directory",
    roots: "--allow-root",
    timeout_ms: "--timeout-ms",
    max_bytes: "--max-bytes",
  };
  return (Object.keys(names) as (keyof BatchRunOptions)[])
    .filter((k) => canonicalJson(previous?.[k] ?? null) !== canonicalJson(now[k]))
    .map((k) => `${names[k]} (${JSON.stringify(previous?.[k] ?? null)}, now ${JSON.stringify(now[k])})`);
}

/** Every line starts so, which tells a torn batch line from something else. */
const LINE_START = '{"id":';

export interface ResultsRead {
  lines: ResultLine[];
  /** Bytes of a torn last line cut off the file, 0 when there was none. */
  cutBytes: number;
}

/**
 * Reads the results of a previous run of this batch (none when the file does not exist) and cuts off
 * a torn last line. `keys` are the keys of this batch's jobs: a line for anything else is refused.
 */
export function readResults(path: string, keys: ReadonlySet<string>): ResultsRead {
  const read = parseResultsFile(path, keys);
  if (read.tail.length > 0) cutTail(path, read.wholeBytes);
  return { lines: read.lines, cutBytes: Buffer.byteLength(read.tail) };
}

export interface ResultsParsed {
  lines: ResultLine[];
  /** A last line without its newline (a torn write), or "". */
  tail: string;
  /** Bytes of the whole lines. */
  wholeBytes: number;
}

/** Reads a results file without changing it; refuses one that is not results of these jobs. */
export function parseResultsFile(path: string, keys: ReadonlySet<string>): ResultsParsed {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { lines: [], tail: "", wholeBytes: 0 };
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot read the results file ${path} (${code})`, {
      path,
    });
  }
  const end = text.lastIndexOf("\n") + 1;
  const whole = text.slice(0, end);
  const tail = text.slice(end);
  const lines: ResultLine[] = [];
  const seen = new Set<string>();
  const rows = whole.split("\n");
  rows.pop();
  rows.forEach((raw, i) => {
    const line = asResultLine(raw);
    if (line === undefined) throw foreign(path, `line ${i + 1} is not a batch result line`, i + 1);
    if (!sealHolds(line.batch.seal, sealParts(line)))
      throw foreign(
        path,
        `line ${i + 1} fails its seal (edited, written before lines were sealed, or under another store key: shards on other machines share one by pointing CITEPROOF_KEY_FILE at one key file)`,
        i + 1,
      );
    const key = lineKey(line.id, line.batch.line);
    if (!keys.has(key))
      throw foreign(
        path,
        `line ${i + 1} holds a result for ${JSON.stringify(key)}, which is not a job of this batch`,
        i + 1,
      );
    if (seen.has(key))
      throw foreign(path, `line ${i + 1} repeats the result for ${JSON.stringify(key)}`, i + 1);
    seen.add(key);
    lines.push(line);
  });
  if (tail.length > 0 && !LINE_START.startsWith(tail.slice(0, LINE_START.length)))
    throw foreign(
      path,
      "its last line is neither whole nor the start of a batch result line",
      lines.length + 1,
    );
  return { lines, tail, wholeBytes: Buffer.byteLength(whole) };
}

function asResultLine(raw: string): ResultLine | undefined {
  if (!raw.startsWith(LINE_START)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const line = value as Partial<ResultLine>;
  const ok =
    typeof line === "object" &&
    line !== null &&
    (typeof line.id === "string" || line.id === null) &&
    typeof line.batch === "object" &&
    line.batch !== null &&
    Number.isInteger(line.batch.line) &&
    [0, 1, 2].includes(line.batch.exit as number);
  return ok ? (line as ResultLine) : undefined;
}

/** Replaces the results file whole with `lines` (a temporary file renamed into place). */
export function rewriteResults(path: string, lines: readonly ResultLine[]): void {
  try {
    replaceFile(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write the results file ${path} (${code})`, {
      path,
    });
  }
}

function cutTail(path: string, keep: number): void {
  const fd = openSync(path, "r+");
  try {
    ftruncateSync(fd, keep);
  } finally {
    closeSync(fd);
  }
}

function foreign(path: string, problem: string, line: number): CiteproofError {
  return new CiteproofError(
    "BATCH_OUTPUT_FOREIGN",
    `${path} is not the results of this batch: ${problem}; nothing was written`,
    { line },
  );
}

/** Appends result lines, each with one write on a descriptor opened for appending. */
export class ResultsAppender {
  readonly #fd: number;

  constructor(path: string) {
    try {
      this.#fd = openSync(path, "a");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write the results file ${path} (${code})`, {
        path,
      });
    }
  }

  append(line: ResultLine): void {
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, "utf8");
    let offset = 0;
    while (offset < bytes.byteLength) offset += writeSync(this.#fd, bytes, offset, bytes.byteLength - offset);
  }

  close(): void {
    closeSync(this.#fd);
  }
}
