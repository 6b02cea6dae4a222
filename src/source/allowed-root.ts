/**
 * Allowed roots for local sources: a path is admitted only when its real location (every symlink
 * resolved, the file's own included) lies inside the real location of one of the roots. The check
 * is made on the file actually opened (its descriptor's real path), and the bytes are read through
 * that same descriptor, so swapping a folder for a symlink between check and read cannot redirect
 * the read. A hard link inside a root to a file outside it is admitted: roots are paths, not inodes.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { CiteproofError } from "../errors.js";
import { asPdf, type FileRead, type PdfBytes, readFileOnce, readSourceFile } from "./file.js";

/** Real path of a root; a root that does not exist admits nothing and is a usage error. */
export function resolveRoot(root: string): string {
  try {
    return realpathSync(resolve(root));
  } catch {
    throw new CiteproofError("USAGE", `allowed root ${root} does not exist`);
  }
}

/** True when `inner` is `outer` itself or lies below it (both real, absolute paths). */
export function isInside(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Resolves `path` (relative to the working directory) through every symlink and returns its real
 * path when that lies inside one of `roots` (default: the working directory); otherwise throws
 * ACCESS_DENIED. A path that does not exist is FILE_NOT_FOUND. This is a check of the path as it is
 * now: to read the file, use `readAdmittedPdf` or `readAdmittedFile`, which check the opened file.
 */
/**
 * Which paths may be read: "anywhere" for a path a person typed on the command line, otherwise the roots
 * a path that came inside data must resolve into (see src/operations/paths.ts).
 */
export type PathAccess = "anywhere" | readonly string[];

/** `path` when access is "anywhere"; otherwise its real path, admitted through the roots. */
export function admitPath(path: string, access: PathAccess): string {
  return access === "anywhere" ? path : admitLocalPath(path, access);
}

export function admitLocalPath(path: string, roots: readonly string[] = [process.cwd()]): string {
  const realRoots = roots.map(resolveRoot);
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch (error) {
    // Outside the roots, whether a path exists (or can be read) is not told: it is outside, all the same.
    const reached = nearestReal(resolve(path));
    if (!realRoots.some((root) => isInside(reached, root))) throw outsideRoots(path, reached, realRoots);
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new CiteproofError("FILE_NOT_FOUND", `${path} does not exist`);
    if (code === "ELOOP") throw new CiteproofError("FILE_UNREADABLE", `${path} is a symlink loop`);
    throw new CiteproofError("FILE_UNREADABLE", `${path} cannot be resolved (${code ?? "unknown error"})`);
  }
  rootGuard(path, realRoots)(real);
  return real;
}

/**
 * Where `path` (absolute, normalized) lies as far as it resolves: the real path of its deepest
 * ancestor that resolves, with the rest of the path as written after it. Ancestors are tried from the
 * top down, stopping at the first that does not resolve, so a path of 50,000 missing folders costs
 * one failed look-up, not 50,000.
 */
function nearestReal(path: string): string {
  const top = parse(path).root;
  const parts = path
    .slice(top.length)
    .split(sep)
    .filter((part) => part !== "");
  let reached = top;
  let used = 0;
  for (let i = 0; i < parts.length - 1; i++) {
    try {
      reached = realpathSync(join(top, ...parts.slice(0, i + 1)));
      used = i + 1;
    } catch {
      break;
    }
  }
  return join(reached, ...parts.slice(used));
}

function outsideRoots(path: string, real: string, realRoots: readonly string[]): CiteproofError {
  // Where a path inside a root leads out is the roots' own business; of a path outside, nothing is told.
  const lexical = resolve(path);
  const escapes = real !== lexical && realRoots.some((root) => isInside(lexical, root));
  const shown = escapes ? `${path} (resolves to ${real})` : lexical;
  return new CiteproofError(
    "ACCESS_DENIED",
    `${shown} is outside the allowed roots (${realRoots.join(", ")})`,
    {
      option: "allow_root",
      hint: "add one with {option}",
    },
  );
}

/** A check of an opened file's real path against real roots, throwing ACCESS_DENIED outside them. */
function rootGuard(path: string, realRoots: readonly string[]): (real: string) => void {
  return (real) => {
    if (realRoots.some((root) => isInside(real, root))) return;
    throw outsideRoots(path, real, realRoots);
  };
}

/**
 * Reads a PDF inside the allowed roots through one descriptor. The path is checked first (for the
 * usual messages), then the file actually opened is checked again by its descriptor's real path.
 * The bytes' origin is the path as given.
 */
/** Reads a source of any kind inside the allowed roots through one descriptor (see `readAdmittedPdf`). */
export async function readAdmittedSource(
  path: string,
  roots: readonly string[],
  maxBytes?: number,
): Promise<PdfBytes> {
  const guard = rootGuard(path, roots.map(resolveRoot));
  admitLocalPath(path, roots);
  return readSourceFile(path, maxBytes, guard);
}

export async function readAdmittedPdf(
  path: string,
  roots: readonly string[],
  maxBytes?: number,
): Promise<PdfBytes> {
  return asPdf(await readAdmittedSource(path, roots, maxBytes));
}

/** Reads any file inside the allowed roots through one descriptor (see `readAdmittedPdf`). */
export async function readAdmittedFile(
  path: string,
  roots: readonly string[],
  options: { maxBytes: number; what?: string },
): Promise<FileRead> {
  const guard = rootGuard(path, roots.map(resolveRoot));
  admitLocalPath(path, roots);
  return readFileOnce(path, { ...options, admit: guard });
}
