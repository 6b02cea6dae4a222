/**
 * The material a drafting model is given: the pool's checked quotations, its bare pointers (FLAGs,
 * wording unchecked), and its equation and figure labels. Every equation claim is checked again
 * against the stored extraction record first; one that fails is EXCLUDED: shown, never offered.
 */
import type { Reason, Verdict } from "../checks/verdicts.js";
import { checkRecord } from "../checks/verify.js";
import type { ProseAnchor } from "../prose/citation-forms.js";
import { type Claim, claimAnchor, claimAnchorName, readPool } from "./pool.js";
import { originalContext, type Session } from "./store.js";

export interface DraftMaterial {
  session: string;
  document: { sha256: string; pages: number };
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

export async function draftInput(
  session: Session,
  loaded: ReturnType<typeof originalContext> = originalContext(session),
): Promise<DraftMaterial & { offered: ProseAnchor[] }> {
  const { record, context } = loaded;
  const pool = readPool(session);
  const out: DraftMaterial = {
    session: session.info.name,
    document: { sha256: record.sha256, pages: record.pageCount },
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
      const again = await checkRecord(context, { kind: "equation", label: claim.label ?? "" });
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
  return { ...out, offered: offered.map(claimAnchor) };
}

function materialText(session: Session, m: DraftMaterial): string {
  const lines = [
    `Checked evidence from the original of session ${session.info.name} (pdf sha256 ${m.document.sha256.slice(0, 12)}, ${m.document.pages} pages).`,
    "Cite only the anchors below, as p. N, Eq. (L) or Fig. (L); copy a quotation's words exactly.",
  ];
  if (m.empty) {
    lines.push(EMPTY_POOL_LINE);
    return `${lines.join("\n")}\n`;
  }
  if (m.quotations.length > 0) {
    lines.push("Quotations (the words are on the page named):");
    for (const q of m.quotations) lines.push(`  ${q.anchor}: "${q.text}"`);
  }
  if (m.pointers.length > 0) {
    lines.push("Pages (the page exists; its wording is unchecked):");
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
