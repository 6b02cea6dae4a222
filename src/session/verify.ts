/** `session verify`: evidence records checked against the bound original; PASS and FLAG enter the pool. */
import type { EvidenceRecord } from "../checks/evidence-record.js";
import { verifyFlow } from "../checks/flow-verify.js";
import type { CheckResult } from "../checks/result.js";
import { checkRecord } from "../checks/verify.js";
import type { FlowKind } from "../document/flow/model.js";
import { addToPool } from "./pool.js";
import { loadFlowDocument, originalContext, type Session } from "./store.js";

export type SessionVerifyResult = CheckResult & {
  pool: { entered: boolean; claim: string | null };
};

export interface SessionVerifyReport {
  session: string;
  /** A flow original's kind beside its sha256 (its pages are 0). */
  document: { sha256: string; pages: number; kind?: FlowKind };
  results: SessionVerifyResult[];
}

export async function verifyInSession(
  session: Session,
  records: EvidenceRecord[],
): Promise<SessionVerifyReport> {
  const kind = session.info.original.kind;
  if (kind !== undefined) {
    const doc = loadFlowDocument(session);
    const { results } = verifyFlow(doc, records, session.info.original.source);
    const entries = await addToPool(
      session,
      results.map((result, i) => ({ record: records[i]!, result })),
    );
    return {
      session: session.info.name,
      document: { sha256: doc.sha256, pages: 0, kind },
      results: entries.map((e) => ({
        ...e.result,
        pool: { entered: e.entered, claim: e.claim?.id ?? null },
      })),
    };
  }
  const { record, context } = originalContext(session);
  const checked: { record: EvidenceRecord; result: CheckResult }[] = [];
  for (const evidence of records)
    checked.push({ record: evidence, result: await checkRecord(context, evidence) });
  const entries = await addToPool(session, checked);
  return {
    session: session.info.name,
    document: { sha256: record.sha256, pages: record.pageCount },
    results: entries.map((e) => ({ ...e.result, pool: { entered: e.entered, claim: e.claim?.id ?? null } })),
  };
}
