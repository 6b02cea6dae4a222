/**
 * A session's original as the drafting commands read it: a PDF's stored extraction record with its
 * check context, or a flow source's stored document folded for matching. Labels are checked again
 * against it by the rules of its kind.
 */
import { checkFlowRecord } from "../checks/flow-verify.js";
import type { CheckResult } from "../checks/result.js";
import { type CheckContext, checkRecord } from "../checks/verify.js";
import type { FlowKind } from "../document/flow/model.js";
import { FoldedFlow } from "../text/folded-flow.js";
import type { StoredExtraction } from "./extraction-record.js";
import { loadFlowDocument, originalContext, type Session } from "./store.js";

/** What a drafting command says of the original: a flow source's kind beside its sha256 (its pages are 0). */
export interface OriginalDocument {
  sha256: string;
  pages: number;
  kind?: FlowKind;
}

export type SessionOriginal =
  | { kind: "pdf"; record: StoredExtraction; context: CheckContext; document: OriginalDocument }
  | { kind: FlowKind; flow: FoldedFlow; document: OriginalDocument };

export function loadOriginal(session: Session): SessionOriginal {
  const kind = session.info.original.kind;
  if (kind === undefined) {
    const { record, context } = originalContext(session);
    return { kind: "pdf", record, context, document: { sha256: record.sha256, pages: record.pageCount } };
  }
  const doc = loadFlowDocument(session);
  return { kind, flow: new FoldedFlow(doc), document: { sha256: doc.sha256, pages: 0, kind } };
}

/** An equation or figure label checked again against the original. */
export async function checkLabel(
  original: SessionOriginal,
  kind: "equation" | "figure",
  label: string,
): Promise<CheckResult> {
  return original.kind === "pdf"
    ? checkRecord(original.context, { kind, label })
    : checkFlowRecord(original.flow, { kind, label });
}
