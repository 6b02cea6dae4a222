/**
 * The one path policy. A path a person names on the command line is read wherever it is. A path that
 * arrives inside data — a request document (`--request`), an MCP tool's arguments, a pi tool's
 * arguments — is read only when it resolves, symlinks included, inside one of the allowed roots (MCP:
 * `--allow-root`, default the server's working directory; pi: `CITEPROOF_ALLOW_ROOTS`, default the
 * session's working directory; `cite-check --request`: the working directory and `--allow-root`).
 */
import { isAbsolute, resolve } from "node:path";
import { admitPath, readAdmittedPdf, readAdmittedSource } from "../source/allowed-root.js";
import { DEFAULT_MAX_PDF_BYTES, type PdfBytes, readSourceFile } from "../source/file.js";
import type { OperationContext } from "./operation.js";

/** The path to read for `path` as the caller gave it (relative paths start at the context's cwd). */
export function inputPath(ctx: Pick<OperationContext, "cwd" | "access">, path: string): string {
  // As typed, so messages name the file the way the person did.
  if (ctx.access === "anywhere")
    return isAbsolute(path) || ctx.cwd === process.cwd() ? path : resolve(ctx.cwd, path);
  return admitPath(resolve(ctx.cwd, path), ctx.access);
}

/**
 * A path the operation writes or creates (a report, a run or session folder, a knowledge folder): as
 * given, relative paths from the context's working directory. Writing is for the commands only.
 */
export function outputPath(ctx: Pick<OperationContext, "cwd">, path: string): string {
  return isAbsolute(path) || ctx.cwd === process.cwd() ? path : resolve(ctx.cwd, path);
}

/**
 * The PDF at `path`: the path itself when any path may be read, otherwise its bytes, read once through
 * one descriptor whose real path the roots admit, so a path swapped after the check cannot redirect it.
 */
export async function inputPdf(
  ctx: Pick<OperationContext, "cwd" | "access" | "open">,
  path: string,
): Promise<string | PdfBytes> {
  if (ctx.access === "anywhere") return inputPath(ctx, path);
  return readAdmittedPdf(resolve(ctx.cwd, path), ctx.access, ctx.open.maxBytes);
}

/**
 * The bytes of a source of any kind at `path`, read once through one descriptor: inside the allowed
 * roots (checked on the opened file) unless any path may be read.
 */
export async function inputSource(
  ctx: Pick<OperationContext, "cwd" | "access" | "open">,
  path: string,
): Promise<PdfBytes> {
  const maxBytes = ctx.open.maxBytes ?? DEFAULT_MAX_PDF_BYTES;
  if (ctx.access === "anywhere") return readSourceFile(inputPath(ctx, path), maxBytes);
  return readAdmittedSource(resolve(ctx.cwd, path), ctx.access, maxBytes);
}
