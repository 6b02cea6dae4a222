/**
 * Allowed roots for local sources: a path is admitted only when its real location (every symlink
 * resolved, the file's own included) lies inside the real location of one of the roots.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { CiteproofError } from "../errors.js";

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
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Resolves `path` (relative to the working directory) through every symlink and returns its real
 * path when that lies inside one of `roots` (default: the working directory); otherwise throws
 * ACCESS_DENIED. A path that does not exist is FILE_NOT_FOUND.
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
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new CiteproofError("FILE_NOT_FOUND", `${path} does not exist`);
    if (code === "ELOOP") throw new CiteproofError("FILE_UNREADABLE", `${path} is a symlink loop`);
    throw new CiteproofError("FILE_UNREADABLE", `${path} cannot be resolved (${code ?? "unknown error"})`);
  }
  const realRoots = roots.map(resolveRoot);
  if (!realRoots.some((root) => isInside(real, root))) {
    const shown = real === resolve(path) ? real : `${path} (resolves to ${real})`;
    throw new CiteproofError(
      "ACCESS_DENIED",
      `${shown} is outside the allowed roots (${realRoots.join(", ")})`,
      { option: "allow_root", hint: "add one with {option}" },
    );
  }
  return real;
}
