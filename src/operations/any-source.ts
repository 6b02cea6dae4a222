/**
 * The source a verify or locate names, of any kind: its path from `source` (or its alias `pdf`), its
 * bytes read once through one descriptor (inside the allowed roots for a path from data), its kind
 * recognised by content, and for a flow kind its parsed document (cached by sha256).
 */

import type { FlowDocument, FlowKind, SourceBytes } from "../document/flow/model.js";
import { openFlow, sourceKind } from "../document/flow/open.js";
import { CiteproofError } from "../errors.js";
import { asPdf } from "../source/file.js";
import type { OperationContext } from "./operation.js";
import { inputSource } from "./paths.js";

export type OpenedSource =
  | { kind: "pdf"; path: string; source: SourceBytes }
  | { kind: FlowKind; path: string; source: SourceBytes; doc: FlowDocument };

/** The path named by `source` or `pdf`: exactly one of them (USAGE otherwise, naming the fields). */
export function sourcePath(input: { source?: string; pdf?: string }): string {
  if (input.source !== undefined && input.pdf !== undefined)
    throw new CiteproofError("USAGE", "give {{source}} or {{pdf}}, not both (pdf is an alias of source)", {
      path: "pdf",
      field: "pdf",
    });
  const path = input.source ?? input.pdf;
  if (path === undefined)
    throw new CiteproofError("USAGE", "{{source}} is missing: the path of the cited source", {
      path: "source",
      field: "source",
    });
  return path;
}

/** Reads and opens the source; a PDF is left to the PDF path (its bytes read once here). */
export async function openAnySource(
  ctx: Pick<OperationContext, "cwd" | "access" | "open">,
  path: string,
  pdfOnly: { password?: string; ocr?: string } = {},
  claimedPdf = false,
  beforeReading: (kind: FlowKind) => void = () => undefined,
): Promise<OpenedSource> {
  const source = await inputSource(ctx, path);
  if (claimedPdf) return { kind: "pdf", path, source: asPdf(source) };
  const kind = sourceKind(source);
  if (kind === "pdf") return { kind, path, source };
  for (const [option, value] of Object.entries(pdfOnly))
    if (value !== undefined)
      throw new CiteproofError("USAGE", `${path} is not a PDF: ${option} is read only for a PDF`, { option });
  beforeReading(kind);
  const doc = await openFlow(source, kind, {
    cacheDir: ctx.open.cacheDir,
    noCache: ctx.open.noCache,
    timeoutMs: ctx.open.timeoutMs,
  });
  return { kind, path, source, doc };
}
