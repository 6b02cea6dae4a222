/** Writing the report: all of it under its name, or nothing (temporary file in the same folder, then rename). */
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CiteproofError } from "../errors.js";
import { replaceFile } from "../util/atomic-file.js";

export function writeOutputAtomic(path: string, data: string | Uint8Array): void {
  const target = resolve(path);
  const folder = dirname(target);
  if (existsAsDirectory(target)) {
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${path}: it is a directory`);
  }
  try {
    replaceFile(target, data);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    const why =
      code === "ENOENT" || code === "ENOTDIR"
        ? `the folder ${folder} does not exist`
        : code === "EACCES" || code === "EPERM" || code === "EROFS"
          ? `permission denied (${code})`
          : (code ?? "unknown error");
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${path}: ${why}`);
  }
}

function existsAsDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
