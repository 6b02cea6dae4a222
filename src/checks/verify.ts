/** Checks evidence records against one opened document, in input order. */
import type { OpenedDocument } from "../document/open.js";
import { CiteproofError } from "../errors.js";
import { FoldedPages } from "../text/folded-pages.js";
import type { EvidenceRecord } from "./evidence-record.js";
import { checkPage } from "./page.js";
import { checkQuotation } from "./quotation.js";
import type { CheckResult } from "./result.js";

export interface VerifyReport {
  document: { sha256: string; pages: number };
  results: CheckResult[];
}

/** What the checks need from a document; kept apart so sessions can check against a stored record. */
export interface CheckContext {
  sha256: string;
  pageCount: number;
  pages: FoldedPages;
}

export function checkContext(doc: OpenedDocument): CheckContext {
  return { sha256: doc.sha256, pageCount: doc.pageCount, pages: new FoldedPages(doc.pages) };
}

export function checkRecord(context: CheckContext, record: EvidenceRecord): CheckResult {
  switch (record.kind) {
    case "quotation":
      return checkQuotation(context.pages, context.pageCount, record);
    case "page":
      return checkPage(context.pageCount, record);
    case "equation":
    case "figure":
      throw new CiteproofError("KIND_NOT_SUPPORTED", `evidence kind "${record.kind}" is not supported yet`);
  }
}

export function verifyEvidence(doc: OpenedDocument, records: EvidenceRecord[]): VerifyReport {
  const context = checkContext(doc);
  return {
    document: { sha256: doc.sha256, pages: doc.pageCount },
    results: records.map((record) => checkRecord(context, record)),
  };
}
