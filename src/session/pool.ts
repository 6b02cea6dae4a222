/**
 * The claim pool: the checked evidence a session's drafts are written from. PASS and FLAG results
 * enter it (a FLAG as a bare pointer whose wording is unchecked); a FAIL never does. The pool file
 * is rewritten whole, under the session lock, for every change.
 */
import { join } from "node:path";
import type { PoolLabel } from "../checks/check-text.js";
import type { EvidenceKind, EvidenceRecord } from "../checks/evidence-record.js";
import type { CheckResult } from "../checks/result.js";
import { REASONS, type Reason } from "../checks/verdicts.js";
import { anchorName, type ProseAnchor, pageAnchor } from "../prose/citation-forms.js";
import type { ProseCitation } from "../prose/read-draft.js";
import { countWords, fold } from "../text/fold.js";
import { onWordBoundaries } from "../text/folded-pages.js";
import { corrupt, readJsonLines, writeJsonLines } from "./files.js";
import { withSessionLock } from "./lock.js";
import type { Session } from "./store.js";

export const POOL_FILE = "pool.jsonl";

export interface Claim {
  /** c1, c2, ... in the order claims entered the pool. */
  id: string;
  kind: EvidenceKind;
  page?: number;
  label?: string;
  /** The quoted words of a quotation claim. */
  text?: string;
  /** The section a quotation claim on a flow original names (none: the whole document). */
  section?: string;
  words: number;
  verdict: "PASS" | "FLAG";
  reason: Reason;
  message: string;
  /** When the claim entered the pool (ISO 8601). */
  at: string;
  /** The evidence record's own id, when it had one. */
  evidenceId?: string;
}

export function readPool(session: Session): Claim[] {
  const path = join(session.dir, POOL_FILE);
  const flow = session.info.original.kind !== undefined;
  return readJsonLines(path, "claim", poolChainStart(session)).map((line, i) =>
    validateClaim(line.payload, `${path} line ${i + 1}`, flow),
  );
}

/** The pool's chain starts from the session's original, so a pool moved from another session fails its seal. */
function poolChainStart(session: Session): string {
  return `pool:${session.info.original.sha256}`;
}

/** Rewrites the pool whole as one sealed chain. Callers hold the session lock. */
export function writePool(session: Session, pool: readonly Claim[]): void {
  writeJsonLines(join(session.dir, POOL_FILE), "claim", pool, poolChainStart(session));
}

/** A claim's anchor as a ProseAnchor: the page of a page or quotation claim, the label of the others. */
export function claimAnchor(claim: Claim): ProseAnchor {
  if (claim.kind === "equation" || claim.kind === "figure")
    return { kind: claim.kind, label: claim.label ?? "" };
  return pageAnchor(String(claim.page ?? 0));
}

export function claimAnchorName(claim: Claim): string {
  if (claim.kind === "quotation" && claim.page === undefined)
    return claim.section === undefined ? "the document" : `section "${claim.section}"`;
  return anchorName(claimAnchor(claim));
}

export function sameAnchor(a: ProseAnchor, b: ProseAnchor): boolean {
  if (a.kind === "page" && b.kind === "page") return a.digits === b.digits;
  if (a.kind === "equation" && b.kind === "equation") return a.label === b.label;
  if (a.kind === "figure" && b.kind === "figure") return a.label === b.label;
  return false;
}

export interface PoolEntry {
  result: CheckResult;
  /** The claim the result entered as, or the claim already holding it; undefined for a FAIL or UNANCHORED. */
  claim?: Claim;
  entered: boolean;
}

/**
 * Adds the PASS and FLAG results to the pool under the lock, reading the pool afresh inside it so
 * that concurrent commands never lose each other's claims. A claim already in the pool (same kind,
 * anchor and folded words) is not added twice.
 */
export async function addToPool(
  session: Session,
  checked: { record: EvidenceRecord; result: CheckResult }[],
): Promise<PoolEntry[]> {
  return withSessionLock(session.dir, () => {
    const pool = readPool(session);
    const entries: PoolEntry[] = [];
    let added = 0;
    const at = new Date().toISOString();
    for (const { record, result } of checked) {
      if (result.verdict !== "PASS" && result.verdict !== "FLAG") {
        entries.push({ result, entered: false });
        continue;
      }
      const candidate = toClaim(record, result, `c${pool.length + 1}`, at);
      const existing = pool.find((c) => sameClaim(c, candidate));
      if (existing) {
        entries.push({ result, claim: existing, entered: false });
        continue;
      }
      pool.push(candidate);
      added++;
      entries.push({ result, claim: candidate, entered: true });
    }
    if (added > 0) writePool(session, pool);
    return entries;
  });
}

/** The pool label of a prose citation; it never says the words are right. */
export function poolLabel(pool: readonly Claim[], citation: ProseCitation): PoolLabel {
  const anchor = citation.anchor;
  if (!anchor) return "absent-anchor";
  const held = pool.filter((c) => sameAnchor(claimAnchor(c), anchor));
  if (held.length === 0) return "absent-anchor";
  const quote = citation.quote?.text;
  if (quote !== undefined && held.some((c) => c.kind === "quotation" && holdsWords(c.text ?? "", quote))) {
    return "matching-pool-quotation";
  }
  return "anchor-only";
}

/** True when the folded words of `quote` stand, whole words, within the folded `text`. */
export function holdsWords(text: string, quote: string): boolean {
  const hay = fold(text, { trim: true }).text;
  const needle = fold(quote, { trim: true }).text;
  if (needle.length === 0) return false;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    if (onWordBoundaries(hay, at, needle)) return true;
  }
  return false;
}

function toClaim(record: EvidenceRecord, result: CheckResult, id: string, at: string): Claim {
  const claim: Claim = {
    id,
    kind: record.kind,
    words: record.kind === "quotation" ? countWords(record.text) : 0,
    verdict: result.verdict as "PASS" | "FLAG",
    reason: result.reason,
    message: result.message,
    at,
  };
  if (record.kind === "quotation" || record.kind === "page") claim.page = record.page;
  if (record.kind === "quotation") claim.text = record.text;
  if (record.kind === "quotation" && record.section !== undefined) claim.section = record.section;
  if (record.kind === "equation" || record.kind === "figure") claim.label = record.label;
  if (record.id !== undefined) claim.evidenceId = record.id;
  return claim;
}

function sameClaim(a: Claim, b: Claim): boolean {
  if (a.kind !== b.kind || !sameAnchor(claimAnchor(a), claimAnchor(b))) return false;
  if ((a.section ?? "") !== (b.section ?? "")) return false;
  return fold(a.text ?? "", { trim: true }).text === fold(b.text ?? "", { trim: true }).text;
}

/** `flow`: the session's original is a flow source, whose quotation claims name a section or nothing, never a page. */
function validateClaim(value: unknown, where: string, flow: boolean): Claim {
  const bad = (problem: string) => corrupt(where, problem);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw bad("holds no claim");
  const c = value as Record<string, unknown>;
  if (typeof c.id !== "string") throw bad('lacks its "id"');
  if (c.verdict !== "PASS" && c.verdict !== "FLAG") throw bad("holds a verdict that never enters the pool");
  if (typeof c.reason !== "string" || !(REASONS as readonly string[]).includes(c.reason))
    throw bad("holds an unknown reason");
  if (typeof c.words !== "number" || typeof c.at !== "string" || typeof c.message !== "string") {
    throw bad('lacks "words", "message" or "at"');
  }
  const page = (p: unknown) => typeof p === "number" && Number.isInteger(p) && p >= 1;
  switch (c.kind) {
    case "quotation":
      if (flow) {
        if (
          c.page !== undefined ||
          typeof c.text !== "string" ||
          !["string", "undefined"].includes(typeof c.section)
        )
          throw bad("is a quotation claim on a flow source without its words, or with a page");
      } else if (!page(c.page) || typeof c.text !== "string")
        throw bad("is a quotation claim without its page and words");
      break;
    case "page":
      if (!page(c.page)) throw bad("is a page claim without its page");
      break;
    case "equation":
    case "figure":
      if (typeof c.label !== "string") throw bad(`is an ${c.kind} claim without its label`);
      break;
    default:
      throw bad(`holds an unknown claim kind ${JSON.stringify(c.kind)}`);
  }
  return c as unknown as Claim;
}
