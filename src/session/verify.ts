/** `session verify`: evidence records checked against the bound original; PASS and FLAG enter the pool. */
import type { EvidenceRecord } from "../checks/evidence-record.js";
import type { CheckResult } from "../checks/result.js";
import { checkRecord } from "../checks/verify.js";
import { addToPool } from "./pool.js";
import { originalContext, type Session } from "./store.js";

export type SessionVerifyResult = CheckResult & {
  pool: { entered: boolean; claim: string | null };
};

export interface SessionVerifyReport {
  session: string;
  document: { sha256: string; pages: number };
  results: SessionVerifyResult[];
}

export async function verifyInSession(
  session: Session,
  records: EvidenceRecord[],
): Promise<SessionVerifyReport> {
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
