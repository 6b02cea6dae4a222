/**
 * The documents the session operations return (`citeproof session ... --json`): the session described,
 * its claim pool, the drafting material, a draft's flags, check_text with pool labels, a revision and
 * its comparison. Envelopes list the fields every document carries and are open to more.
 */
import { z } from "zod";
import { POOL_LABELS } from "../../checks/check-text.js";
import { EVIDENCE_KINDS } from "../../checks/evidence-record.js";
import { checkResultSchema } from "../../checks/result.js";
import { REASONS, VERDICTS } from "../../checks/verdicts.js";
import { FLOW_KINDS } from "../../document/flow/model.js";
import { DRAFT_FLAGS } from "../../session/check-draft.js";
import { COMPARE_OUTCOMES } from "../../session/compare.js";
import { textCheckOutput } from "./outputs.js";

/** The original (or a revision): a flow source's kind beside its sha256, its pages 0. */
const pdfDocument = z.looseObject({
  sha256: z.string(),
  pages: z.int(),
  kind: z.enum(FLOW_KINDS).optional(),
});
const count = z.int().nonnegative();

const storedPdf = z.looseObject({
  sha256: z.string(),
  bytes: count,
  pages: count,
  file: z.string(),
  source: z.string(),
  extraction: z.looseObject({
    file: z.string(),
    sha256: z.string(),
    schemaVersion: z.int(),
    extractorVersion: z.string(),
  }),
});
const storedRevision = storedPdf.extend({ id: z.string(), stored: z.string() });

const session = z.looseObject({
  name: z.string(),
  dir: z.string(),
  created: z.string(),
  original: storedPdf,
  revisions: z.array(storedRevision),
});

/** `session new`: the session, and whether this call started it. */
export const sessionNewOutput = z.looseObject({ session, created: z.boolean() });

/** `session verify`: verify's results against the original, each with what it did to the pool. */
export const sessionVerifyOutput = z.looseObject({
  session: z.string(),
  document: pdfDocument,
  results: z.array(
    z.intersection(
      checkResultSchema,
      z.looseObject({ pool: z.strictObject({ entered: z.boolean(), claim: z.string().nullable() }) }),
    ),
  ),
});

const claim = z.looseObject({
  id: z.string(),
  kind: z.enum(EVIDENCE_KINDS),
  page: z.int().optional(),
  label: z.string().optional(),
  text: z.string().optional(),
  words: count,
  verdict: z.enum(["PASS", "FLAG"]),
  reason: z.enum(REASONS),
  message: z.string(),
  at: z.string(),
  evidenceId: z.string().optional(),
});

/** `session pool`: the session and the claims of its pool. */
export const sessionPoolOutput = z.looseObject({ session, claims: z.array(claim) });

const offered = z.looseObject({ claim: z.string(), anchor: z.string() });

/** `session draft-input`: what a drafting model is given, and the equation claims excluded. */
export const sessionDraftInputOutput = z.looseObject({
  session: z.string(),
  document: pdfDocument,
  empty: z.boolean(),
  quotations: z.array(offered.extend({ text: z.string() })),
  pointers: z.array(offered),
  labels: z.array(offered),
  excluded: z.array(
    offered.extend({ verdict: z.enum(VERDICTS), reason: z.enum(REASONS), message: z.string() }),
  ),
  material: z.string(),
});

/** `session check-draft`: the draft's citations the pool does not back. */
export const sessionCheckDraftOutput = z.looseObject({
  session: z.string(),
  document: pdfDocument,
  citations: count,
  flagged: z.array(
    z.looseObject({
      flag: z.enum(DRAFT_FLAGS),
      anchor: z.string(),
      written: z.string(),
      quote: z.string().nullable(),
      line: z.int(),
      reason: z.enum(REASONS).nullable(),
      message: z.string(),
    }),
  ),
  unanchored_quotations: count,
  unsupported_forms: z.array(z.looseObject({ written: z.string(), line: z.int() })),
});

/** `session check-text`: check_text's document, each citation with its pool label. */
export const sessionCheckTextOutput = textCheckOutput.extend({
  session: z.string(),
  citations: z.array(
    z.intersection(textCheckOutput.shape.citations.element, z.looseObject({ pool: z.enum(POOL_LABELS) })),
  ),
});

/** `session revise`: the session, the revision stored, and whether this call stored it. */
export const sessionReviseOutput = z.looseObject({
  session,
  revision: storedRevision,
  created: z.boolean(),
});

/** `session compare`: each pool claim's one outcome in the revision. */
export const sessionCompareOutput = z.looseObject({
  session: z.string(),
  original: pdfDocument,
  revision: z.looseObject({
    id: z.string(),
    sha256: z.string(),
    pages: z.int(),
    pagesWithoutText: z.array(z.int()),
    kind: z.enum(FLOW_KINDS).optional(),
  }),
  claims: z.array(
    z.looseObject({
      claim: z.string(),
      kind: z.enum(EVIDENCE_KINDS),
      anchor: z.string(),
      quote: z.string().nullable(),
      outcome: z.enum(COMPARE_OUTCOMES),
      pages: z.array(z.int()),
      sections: z.array(z.string()).optional(),
      detail: z.string(),
    }),
  ),
  counts: z.strictObject(Object.fromEntries(COMPARE_OUTCOMES.map((o) => [o, count]))),
  caveat: z.string(),
});
