/**
 * Writing a run report: every file it renders is written under a temporary name first and only then
 * renamed into place, so outputs/ holds the old reports or the new ones, never half of one.
 */
import { renameSync, rmSync, statSync } from "node:fs";
import { CiteproofError } from "../../errors.js";
import { tempPathFor, writeAndSync } from "../../util/atomic-file.js";

export function writeAllOrNothing(files: { path: string; data: string }[]): void {
  for (const f of files) {
    if (isDirectory(f.path)) throw unwritable(f.path, "it is a directory");
  }
  const temps: string[] = [];
  let i = 0;
  try {
    for (; i < files.length; i++) {
      const tmp = tempPathFor(files[i].path);
      temps.push(tmp);
      writeAndSync(tmp, files[i].data);
    }
    for (i = 0; i < files.length; i++) renameSync(temps[i], files[i].path);
  } catch (error) {
    for (const t of temps) rmSync(t, { force: true });
    throw unwritable(files[Math.min(i, files.length - 1)].path, (error as NodeJS.ErrnoException)?.code);
  }
}

function unwritable(path: string, why: string | undefined): CiteproofError {
  return new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${path}: ${why ?? "error"}`, { path });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
