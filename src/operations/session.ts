/**
 * The review-session operations: a bound original, a claim pool, drafts written from it, revisions.
 * Commands only (`citeproof session ...`): they write a session's store.
 */
import type { z } from "zod";
import { checkText, formatTextCheckReport, type TextCheckReport } from "../checks/check-text.js";
import { toEvidenceRecords } from "../checks/evidence-record.js";
import { checkTextFlow, type FlowTextCheckReport } from "../checks/flow-check-text.js";
import { openFlow, sourceKind } from "../document/flow/open.js";
import { kindName } from "../document/flow/readers.js";
import type { OpenedDocument } from "../document/open.js";
import { CiteproofError } from "../errors.js";
import { openForAnchors } from "../layout/anchors.js";
import { checkDraft, type DraftCheckReport, formatDraftCheck } from "../session/check-draft.js";
import { type CompareReport, compareRevision, formatCompare } from "../session/compare.js";
import { type DraftMaterial, draftInput, formatDraftInput } from "../session/draft-input.js";
import { type Claim, claimAnchorName, poolLabel, readPool } from "../session/pool.js";
import {
  addRevision,
  assertOriginal,
  createSession,
  type FlowOriginal,
  loadFlowDocument,
  openSession,
  originalContext,
  type Session,
  type StoredRevision,
  sessionDir,
} from "../session/store.js";
import { type SessionVerifyReport, verifyInSession } from "../session/verify.js";
import { asPdf } from "../source/file.js";
import { defineOperation, type OperationContext } from "./operation.js";
import { inputSource } from "./paths.js";
import type {
  sessionCheckDraftInput,
  sessionCompareInput,
  sessionDraftInputInput,
  sessionNewInput,
  sessionPoolInput,
  sessionVerifyInput,
} from "./schemas/session.js";
import { formatVerifyReport } from "./verify.js";

export type SessionNewInput = z.infer<typeof sessionNewInput.object>;
export type SessionVerifyInput = z.infer<typeof sessionVerifyInput.object>;
export type SessionPoolInput = z.infer<typeof sessionPoolInput.object>;
export type SessionDraftInputInput = z.infer<typeof sessionDraftInputInput.object>;
export type SessionCheckDraftInput = z.infer<typeof sessionCheckDraftInput.object>;
export type SessionCompareInput = z.infer<typeof sessionCompareInput.object>;

/** A session as the commands describe it. */
export interface SessionDescription {
  name: string;
  dir: string;
  created: string;
  original: Session["info"]["original"];
  revisions: Session["info"]["revisions"];
}

export interface SessionStarted {
  session: Session;
  created: boolean;
}
export interface RevisionStored {
  session: Session;
  revision: StoredRevision;
  created: boolean;
}
export interface SessionPool {
  session: Session;
  claims: Claim[];
}
export type SessionMaterial = Omit<DraftMaterial, "offered">;
export type SessionTextReport = (TextCheckReport | FlowTextCheckReport) & { session: string };

const schemas = () => import("./schemas/index.js").then((m) => m.INPUT_SCHEMAS);

export const sessionNewOperation = defineOperation<SessionNewInput, SessionStarted>({
  name: "session_new",
  title: "Start a review session bound to its original (a PDF or a flow source)",
  description:
    "Binds the original to a new session: a copy of its bytes, their sha256 and its extraction " +
    "record (a PDF's text, equation and figure anchors; a flow source's parsed document). The same file " +
    "again changes nothing; a different one is refused.",
  schema: () => schemas().then((s) => s.session_new),
  output: () => import("./schemas/session-outputs.js").then((m) => m.sessionNewOutput),
  async run(input, ctx) {
    const dir = folder(ctx, input);
    const options = { ...ctx.open, password: input.password };
    return createSession(dir, input.name, await openStored(ctx, input.pdf, options), options);
  },
  json: ({ session, created }) => ({ session: describeSession(session), created }),
  format({ session: s, created }, input) {
    const o = s.info.original;
    return (
      `${created ? "started" : "already started"}: session ${s.info.name} at ${s.dir}\n` +
      (o.kind === undefined
        ? `  original ${input.pdf} (pdf sha256 ${o.sha256.slice(0, 12)}, ${o.pages} pages); extraction schema ${o.extraction.schemaVersion}, extractor ${o.extraction.extractorVersion}\n`
        : `  original ${input.pdf} (${kindName(o.kind)} sha256 ${o.sha256.slice(0, 12)}); document record ${o.extraction.extractorVersion}\n`)
    );
  },
  exitCode: () => 0,
});

export const sessionVerifyOperation = defineOperation<SessionVerifyInput, SessionVerifyReport>({
  name: "session_verify",
  title: "Verify evidence against a session's original; PASS and FLAG enter the claim pool",
  description:
    "Checks evidence records as verify does, against the session's stored record; PASS and FLAG " +
    "results enter the claim pool, a FAIL never does; a claim already held is not added twice.",
  schema: () => schemas().then((s) => s.session_verify),
  output: () => import("./schemas/session-outputs.js").then((m) => m.sessionVerifyOutput),
  async run(input, ctx) {
    const records = toEvidenceRecords(input.evidence);
    return verifyInSession(await openChecked(ctx, input), records);
  },
  json: (report) => report,
  format(report) {
    let text = formatVerifyReport(`original of session ${report.session}`, report);
    const entered = report.results.filter((r) => r.pool.entered).map((r) => r.pool.claim);
    const held = report.results.filter((r) => !r.pool.entered && r.pool.claim).map((r) => r.pool.claim);
    text += `pool: ${entered.length} claim(s) entered${entered.length ? ` (${entered.join(", ")})` : ""}`;
    text += held.length ? `; ${held.length} already held (${held.join(", ")})` : "";
    return `${text}; a FAIL never enters\n`;
  },
  exitCode: (report) => (report.results.some((r) => r.verdict === "FAIL") ? 1 : 0),
});

export const sessionPoolOperation = defineOperation<SessionPoolInput, SessionPool>({
  name: "session_pool",
  title: "List a session's claim pool",
  description: "Lists the claim pool: the checked evidence drafts are written from.",
  schema: () => schemas().then((s) => s.session_pool),
  output: () => import("./schemas/session-outputs.js").then((m) => m.sessionPoolOutput),
  async run(input, ctx) {
    const session = openSession(folder(ctx, input));
    return { session, claims: readPool(session) };
  },
  json: ({ session, claims }) => ({ session: describeSession(session), claims }),
  format: ({ session, claims }) => formatPool(session, claims),
  exitCode: () => 0,
});

export const sessionDraftInputOperation = defineOperation<SessionDraftInputInput, SessionMaterial>({
  name: "session_draft_input",
  title: "The material a drafting model is given",
  description:
    "Checked quotations, bare pointers from FLAGs and equation and figure labels from the pool; every " +
    "equation claim is checked again first, and one that fails is EXCLUDED.",
  schema: () => schemas().then((s) => s.session_draft_input),
  output: () => import("./schemas/session-outputs.js").then((m) => m.sessionDraftInputOutput),
  async run(input, ctx) {
    const session = await openChecked(ctx, input);
    const { offered: _offered, ...material } = await draftInput(session);
    return material;
  },
  json: (material) => material,
  format: (material) => formatDraftInput(material),
  exitCode: () => 0,
});

export const sessionCheckDraftOperation = defineOperation<SessionCheckDraftInput, DraftCheckReport>({
  name: "session_check_draft",
  title: "Flag a draft's citations the session's pool does not back",
  description:
    "Reads the draft's citations and flags each that is not in the verified pool or fails " +
    "re-verification against the original.",
  schema: () => schemas().then((s) => s.session_check_draft),
  output: () => import("./schemas/session-outputs.js").then((m) => m.sessionCheckDraftOutput),
  async run(input, ctx) {
    const session = await openChecked(ctx, input);
    return checkDraft(session, input.draft);
  },
  json: (report) => report,
  format: (report) => formatDraftCheck(report),
  exitCode: (report) => (report.flagged.length > 0 ? 1 : 0),
});

export const sessionCheckTextOperation = defineOperation<SessionCheckDraftInput, SessionTextReport>({
  name: "session_check_text",
  title: "check_text against a session's original, with each citation's pool label",
  description:
    "check_text against the bound original; each citation carries its pool label " +
    "(matching-pool-quotation, anchor-only or absent-anchor), which never says the words are right.",
  schema: () => schemas().then((s) => s.session_check_text),
  output: () => import("./schemas/session-outputs.js").then((m) => m.sessionCheckTextOutput),
  async run(input, ctx) {
    const session = await openChecked(ctx, input);
    // A flow original: the draft checked against its document (sections as locators), no pool labels.
    if (session.info.original.kind !== undefined)
      return { session: session.info.name, ...checkTextFlow(loadFlowDocument(session), input.draft) };
    const { context } = originalContext(session);
    const pool = readPool(session);
    const report = await checkText(context, input.draft, (c) => poolLabel(pool, c));
    return { session: session.info.name, ...report };
  },
  json: (report) => report,
  format: (report) =>
    formatTextCheckReport(
      report,
      `checked against the original bound to this session (${"kind" in report.document ? kindName(report.document.kind) : "pdf"} sha256 ${report.document.sha256.slice(0, 12)})`,
    ),
  exitCode: (report) => (report.summary.FAIL > 0 ? 1 : 0),
});

export const sessionReviseOperation = defineOperation<SessionNewInput, RevisionStored>({
  name: "session_revise",
  title: "Store a revised file beside a session's original",
  description:
    "Stores a revision (r1, r2, ...) beside the original, with its own extraction record (a flow " +
    "original's revision: a flow source, with its parsed document); the original is never replaced.",
  schema: () => schemas().then((s) => s.session_revise),
  output: () => import("./schemas/session-outputs.js").then((m) => m.sessionReviseOutput),
  async run(input, ctx) {
    const session = openSession(folder(ctx, input));
    const options = { ...ctx.open, password: input.password };
    return { session, ...(await addRevision(session, await openStored(ctx, input.pdf, options), options)) };
  },
  json: ({ session, revision, created }) => ({ session: describeSession(session), revision, created }),
  format: ({ session, revision, created }, input) =>
    `${created ? "stored" : "already stored"}: revision ${revision.id} of session ${session.info.name}: ${input.pdf} (${revision.kind === undefined ? `pdf sha256 ${revision.sha256.slice(0, 12)}, ${revision.pages} pages` : `${kindName(revision.kind)} sha256 ${revision.sha256.slice(0, 12)}`})\n`,
  exitCode: () => 0,
});

export const sessionCompareOperation = defineOperation<SessionCompareInput, CompareReport>({
  name: "session_compare",
  title: "Give each pool claim one outcome in a stored revision",
  description:
    "Compares each claim of the pool with a stored revision (default: the latest): unchanged, moved, " +
    "not found, page exists or gone, anchor exists or unverified, uncheckable.",
  schema: () => schemas().then((s) => s.session_compare),
  output: () => import("./schemas/session-outputs.js").then((m) => m.sessionCompareOutput),
  async run(input, ctx) {
    const session = openSession(folder(ctx, input));
    return compareRevision(session, input.revision);
  },
  json: (report) => report,
  format: (report) => formatCompare(report),
  exitCode: () => 0,
});

/**
 * A file a session stores (an original or a revision), of any kind: a flow source read into its
 * document, a PDF opened with the geometry its anchors are decided from.
 */
async function openStored(
  ctx: OperationContext,
  path: string,
  options: OperationContext["open"] & { password?: string },
): Promise<OpenedDocument | FlowOriginal> {
  const source = await inputSource(ctx, path);
  const kind = sourceKind(source);
  if (kind === "pdf") return openForAnchors(asPdf(source), options);
  if (options.password !== undefined)
    throw new CiteproofError("USAGE", `${path} is not a PDF: a password is read only for a PDF`, {
      option: "password",
    });
  return { kind, source, doc: await openFlow(source, kind, ctx.open) };
}

/** The session folder: the one named, else `.citeproof/sessions/<name>` under the working directory. */
function folder(ctx: OperationContext, input: { name: string; session?: string }): string {
  return sessionDir(input.name, input.session, ctx.cwd);
}

/** Opens the session and, when a PDF is named as its original, refuses it unless it is the bound one. */
async function openChecked(ctx: OperationContext, input: { name: string; session?: string; pdf?: string }) {
  const session = openSession(folder(ctx, input));
  if (input.pdf !== undefined) assertOriginal(session, (await inputSource(ctx, input.pdf)).sha256);
  return session;
}

function describeSession(s: Session): SessionDescription {
  return {
    name: s.info.name,
    dir: s.dir,
    created: s.info.created,
    original: s.info.original,
    revisions: s.info.revisions,
  };
}

function formatPool(s: Session, pool: Claim[]): string {
  const lines = [
    `claim pool of session ${s.info.name} (${s.info.original.kind === undefined ? "pdf" : kindName(s.info.original.kind)} sha256 ${s.info.original.sha256.slice(0, 12)}): ${pool.length} claim(s)`,
  ];
  for (const c of pool) {
    const quote = c.text !== undefined ? ` "${c.text}"` : "";
    const unchecked = c.verdict === "FLAG" ? " -- wording unchecked" : "";
    lines.push(
      `  ${c.id} ${c.verdict.padEnd(4)} ${claimAnchorName(c)}${quote} [${c.reason}] ${c.at}${unchecked}`,
    );
  }
  if (pool.length === 0) lines.push("  (empty: no PASS or FLAG has entered yet)");
  return `${lines.join("\n")}\n`;
}
