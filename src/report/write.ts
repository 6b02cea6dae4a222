/** Writing the report: all of it under its name, or nothing (temporary file in the same folder, then rename). */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { CiteproofError } from "../errors.js";

export function writeOutputAtomic(path: string, data: string | Uint8Array): void {
  const target = resolve(path);
  const folder = dirname(target);
  if (existsAsDirectory(target)) {
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${path}: it is a directory`);
  }
  const tmp = join(folder, `.${basename(target)}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  try {
    const fd = openSync(tmp, "wx", 0o644);
    try {
      const buffer = typeof data === "string" ? Buffer.from(data, "utf8") : data;
      let offset = 0;
      while (offset < buffer.byteLength) offset += writeSync(fd, buffer, offset, buffer.byteLength - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
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
