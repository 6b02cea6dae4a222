/**
 * The real path of a file already opened, taken from its descriptor so that no later swap of the path
 * can change the answer. On Linux the kernel names it (`/proc/self/fd/N`); elsewhere the path is
 * resolved and the file found there must be the very file opened (same device and inode).
 */
import { readlinkSync, realpathSync, type Stats, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { CiteproofError } from "../errors.js";

export function openedRealPath(fd: number, path: string, opened: Stats): string {
  const fromKernel = kernelPath(fd);
  if (fromKernel !== undefined) return fromKernel;
  let real: string;
  let found: Stats;
  try {
    real = realpathSync(path);
    found = statSync(real);
  } catch {
    throw changed(path);
  }
  if (found.dev !== opened.dev || found.ino !== opened.ino) throw changed(path);
  return real;
}

function kernelPath(fd: number): string | undefined {
  let link: string;
  try {
    link = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
  // A file removed since it was opened has no path left to admit.
  if (!isAbsolute(link) || link.endsWith(" (deleted)")) return undefined;
  return link;
}

function changed(path: string): CiteproofError {
  return new CiteproofError("FILE_UNREADABLE", `${path} changed while it was being opened; try again`);
}
