/**
 * The material a drafting model is given: the pool's checked quotations, its bare pointers (FLAGs,
 * wording unchecked), and its equation and figure labels. Every equation claim is checked again
 * against the stored extraction record first; one that fails is EXCLUDED: shown, never offered.
 */
import type { Reason, Verdict } from "../checks/verdicts.js";
import { kindName } from "../document/flow/readers.js";
import { checkLabel, loadOriginal, type OriginalDocument, type SessionOriginal } from "./original.js";
import { type Claim, claimAnchorName, readPool } from "./pool.js";
import type { Session } from "./store.js";

export interface DraftMaterial {
  session: string;
  /** The original: a flow source's kind beside its sha256 (its pages are 0). */
  document: OriginalDocument;
  /** True when nothing is on offer (the pool is empty, or every claim in it was excluded). */
  empty: boolean;
  quotations: { claim: string; anchor: string; text: string }[];
  pointers: { claim: string; anchor: string }[];
  labels: { claim: string; anchor: string }[];
  excluded: { claim: string; anchor: string; verdict: Verdict; reason: Reason; message: string }[];
  /** The material as the drafting model is given it. */
  material: string;
}

export const EMPTY_POOL_LINE =
  "EMPTY POOL: no checked evidence is on offer; write without citing the paper, or check evidence into the session first";

/**
 * The material, and the claims on offer in it. On a flow original a quotation is offered under the
 * section its claim named (`section "Methods"`), or as words of the whole document.
 */
export async function draftInput(
  session: Session,
  original: SessionOriginal = loadOriginal(session),
): Promise<DraftMaterial & { offered: Claim[] }> {
  const pool = readPool(session);
  const out: DraftMaterial = {
    session: session.info.name,
    document: original.document,
    empty: false,
    quotations: [],
    pointers: [],
    labels: [],
    excluded: [],
    material: "",
  };
  const offered: Claim[] = [];
  for (const claim of pool) {
    if (claim.kind === "equation") {
      const again = await checkLabel(original, "equation", claim.label ?? "");
      if (again.verdict !== "PASS") {
        out.excluded.push({
          claim: claim.id,
          anchor: claimAnchorName(claim),
          verdict: again.verdict,
          reason: again.reason,
          message: again.message,
        });
        continue;
      }
    }
    offered.push(claim);
  }
  const pointerPages = new Set<string>();
  for (const claim of offered) {
    const anchor = claimAnchorName(claim);
    if (claim.kind === "quotation" && claim.verdict === "PASS") {
      out.quotations.push({ claim: claim.id, anchor, text: claim.text ?? "" });
    } else if (claim.kind === "quotation" || claim.kind === "page") {
      if (pointerPages.has(anchor)) continue;
      pointerPages.add(anchor);
      out.pointers.push({ claim: claim.id, anchor });
    } else {
      out.labels.push({ claim: claim.id, anchor });
    }
  }
  out.empty = offered.length === 0;
  out.material = materialText(session, out);
  return { ...out, offered };
}

function materialText(session: Session, m: DraftMaterial): string {
  const kind = m.document.kind;
  const lines =
    kind === undefined
      ? [
          `Checked evidence from the original of session ${session.info.name} (pdf sha256 ${m.document.sha256.slice(0, 12)}, ${m.document.pages} pages).`,
          "Cite only the anchors below, as p. N, Eq. (L) or Fig. (L); copy a quotation's words exactly.",
        ]
      : [
          `Checked evidence from the original of session ${session.info.name} (${kindName(kind)} sha256 ${m.document.sha256.slice(0, 12)}; it has sections, not pages).`,
          `Cite only the anchors below: a quotation in the sentence that names its section as written (section "Name"), or in a sentence naming no section when it is offered from the whole document; Eq. (L) or Fig. (L); copy a quotation's words exactly.`,
        ];
  if (m.empty) {
    lines.push(EMPTY_POOL_LINE);
    return `${lines.join("\n")}\n`;
  }
  if (m.quotations.length > 0) {
    lines.push(
      kind === undefined
        ? "Quotations (the words are on the page named):"
        : "Quotations (the words are in the section named, its subsections included):",
    );
    for (const q of m.quotations) lines.push(`  ${q.anchor}: "${q.text}"`);
  }
  if (m.pointers.length > 0) {
    lines.push(
      kind === undefined
        ? "Pages (the page exists; its wording is unchecked):"
        : "Places (the section or printed page exists; its wording is unchecked):",
    );
    for (const p of m.pointers) lines.push(`  ${p.anchor} -- wording unchecked`);
  }
  if (m.labels.length > 0) {
    lines.push(
      "Equations and figures (the label is printed as cited; what it states or shows is unchecked):",
    );
    for (const l of m.labels) lines.push(`  ${l.anchor}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The person's view: the material, then each EXCLUDED claim and why. */
export function formatDraftInput(m: DraftMaterial): string {
  const lines = [m.material.trimEnd()];
  for (const x of m.excluded) {
    lines.push(
      `EXCLUDED ${x.anchor} (claim ${x.claim}): ${x.message} [${x.reason}]; left out of the material`,
    );
  }
  return `${lines.join("\n")}\n`;
}
