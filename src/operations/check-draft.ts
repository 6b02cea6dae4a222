/**
 * check_text with a bibliography (`bib` instead of `pdf`): the bibliography is a path the caller
 * names (for a tool, inside the allowed roots); the files its entries name are paths that arrive in
 * data, read only inside the allowed roots and the bibliography's own folder.
 */
import { dirname, resolve } from "node:path";
import { readBibliography } from "../drafts/bibliography.js";
import { checkDraft, type DraftCheckReport } from "../drafts/check-draft.js";
import { CiteproofError } from "../errors.js";
import { readAdmittedFile, resolveRoot } from "../source/allowed-root.js";
import { MAX_TEXT_INPUT_BYTES, readFileOnce } from "../source/file.js";
import type { OperationContext } from "./operation.js";

export interface DraftCheckInput {
  bib: string;
  draft: string;
  draft_name?: string;
  fetch?: boolean;
}

export async function runDraftCheck(
  input: DraftCheckInput,
  ctx: OperationContext,
): Promise<DraftCheckReport> {
  // Read through one descriptor: the roots are checked on the file actually opened.
  const bibPath = resolve(ctx.cwd, input.bib);
  const read =
    ctx.access === "anywhere"
      ? await readFileOnce(bibPath, { maxBytes: MAX_TEXT_INPUT_BYTES, what: "bibliography" })
      : await readAdmittedFile(bibPath, ctx.access, { maxBytes: MAX_TEXT_INPUT_BYTES, what: "bibliography" });
  const text = new TextDecoder("utf-8", { fatal: false }).decode(read.bytes);
  const bib = await readBibliography(text, bibPath);
  const base = ctx.access === "anywhere" ? [ctx.cwd] : [...ctx.access];
  const roots = [...new Set([...base, dirname(read.realPath)].map(resolveRoot))];
  return checkDraft(input.draft, bib, {
    bibliographyPath: read.realPath,
    draftName: input.draft_name,
    roots,
    fetch: input.fetch === true,
    // An agent's bibliography may name any URL: a private or loopback address is refused, as cite_check does.
    fetchOptions: {
      accept: "application/pdf, text/html;q=0.9, application/xhtml+xml;q=0.9, */*;q=0.5",
      privateAddresses: ctx.privateUrls ?? "allow",
    },
    open: ctx.open,
  });
}

/** check_text names its source once: a PDF, or a bibliography. */
export function draftSourceChoice(input: { pdf?: string; bib?: string }): "pdf" | "bib" {
  if (input.pdf !== undefined && input.bib !== undefined)
    throw new CiteproofError("USAGE", "give the draft's PDF or its bibliography, not both");
  if (input.pdf === undefined && input.bib === undefined)
    throw new CiteproofError("USAGE", "give the draft's PDF or its bibliography (bib)", { field: "bib" });
  return input.pdf !== undefined ? "pdf" : "bib";
}
