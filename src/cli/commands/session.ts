import type { Command } from "commander";
import { checkText, formatTextCheckReport } from "../../checks/check-text.js";
import { parseEvidenceJson } from "../../checks/evidence-record.js";
import { openForAnchors } from "../../layout/anchors.js";
import { formatVerifyReport } from "../../operations/verify.js";
import { checkDraft, formatDraftCheck } from "../../session/check-draft.js";
import { compareRevision, formatCompare } from "../../session/compare.js";
import { draftInput, formatDraftInput } from "../../session/draft-input.js";
import { type Claim, claimAnchorName, poolLabel, readPool } from "../../session/pool.js";
import {
  addRevision,
  assertOriginal,
  createSession,
  openSession,
  originalContext,
  type Session,
  sessionDir,
} from "../../session/store.js";
import { verifyInSession } from "../../session/verify.js";
import { readPdfFile } from "../../source/file.js";
import {
  addDocumentOptions,
  type DocumentFlags,
  documentOptions,
  EXIT_CLEAN,
  EXIT_FAILS,
  printJson,
  readTextInput,
  runAction,
} from "../io.js";

interface SessionFlags extends DocumentFlags {
  session?: string;
  pdf?: string;
}

export function register(program: Command): void {
  const session = program
    .command("session")
    .description("review sessions: a bound original, a claim pool, drafts written from it, revisions");

  addDocumentOptions(
    withSessionOptions(session.command("new"))
      .description("start a session bound to its original PDF (never replaced)")
      .argument("<name>", "session name")
      .argument("<pdf>", "the original PDF"),
  ).action((name: string, pdf: string, flags: SessionFlags) =>
    runAction(flags.json, async () => {
      const dir = sessionDir(name, flags.session);
      const options = documentOptions(flags);
      // The session's record holds the anchors: decide them from geometry held during extraction.
      const doc = await openForAnchors(pdf, options);
      const { session: s, created } = await createSession(dir, name, doc, options);
      const o = s.info.original;
      if (flags.json) printJson({ session: describeSession(s), created });
      else {
        process.stdout.write(
          `${created ? "started" : "already started"}: session ${s.info.name} at ${s.dir}\n` +
            `  original ${pdf} (pdf sha256 ${o.sha256.slice(0, 12)}, ${o.pages} pages); extraction schema ${o.extraction.schemaVersion}, extractor ${o.extraction.extractorVersion}\n`,
        );
      }
      return EXIT_CLEAN;
    }),
  );

  withOriginalOption(
    withSessionOptions(session.command("verify"))
      .description("check evidence records against the original; PASS and FLAG results enter the claim pool")
      .argument("<name>", "session name")
      .requiredOption("--evidence <file>", "JSON array of evidence records"),
  ).action((name: string, flags: SessionFlags & { evidence: string }) =>
    runAction(flags.json, async () => {
      const records = parseEvidenceJson(readTextInput(flags.evidence, "evidence file"), flags.evidence);
      const s = await openChecked(name, flags);
      const report = await verifyInSession(s, records);
      if (flags.json) printJson(report);
      else {
        let text = formatVerifyReport(`original of session ${s.info.name}`, report);
        const entered = report.results.filter((r) => r.pool.entered).map((r) => r.pool.claim);
        const held = report.results.filter((r) => !r.pool.entered && r.pool.claim).map((r) => r.pool.claim);
        text += `pool: ${entered.length} claim(s) entered${entered.length ? ` (${entered.join(", ")})` : ""}`;
        text += held.length ? `; ${held.length} already held (${held.join(", ")})` : "";
        text += "; a FAIL never enters\n";
        process.stdout.write(text);
      }
      return report.results.some((r) => r.verdict === "FAIL") ? EXIT_FAILS : EXIT_CLEAN;
    }),
  );

  withSessionOptions(session.command("pool"))
    .description("list the claim pool: the checked evidence drafts are written from")
    .argument("<name>", "session name")
    .action((name: string, flags: SessionFlags) =>
      runAction(flags.json, async () => {
        const s = openSession(sessionDir(name, flags.session));
        const pool = readPool(s);
        if (flags.json) printJson({ session: describeSession(s), claims: pool });
        else process.stdout.write(formatPool(s, pool));
        return EXIT_CLEAN;
      }),
    );

  withOriginalOption(
    withSessionOptions(session.command("draft-input"))
      .description(
        "the material a drafting model is given; equation claims are checked again and failures EXCLUDED",
      )
      .argument("<name>", "session name"),
  ).action((name: string, flags: SessionFlags) =>
    runAction(flags.json, async () => {
      const s = await openChecked(name, flags);
      const { offered: _offered, ...material } = await draftInput(s);
      if (flags.json) printJson(material);
      else process.stdout.write(formatDraftInput(material));
      return EXIT_CLEAN;
    }),
  );

  withOriginalOption(
    withSessionOptions(session.command("check-draft"))
      .description("flag a draft's citations that are not in the verified pool or fail re-verification")
      .argument("<name>", "session name")
      .argument("<draft>", "the draft as plain text, or - for stdin"),
  ).action((name: string, draftPath: string, flags: SessionFlags) =>
    runAction(flags.json, async () => {
      const draft = readTextInput(draftPath, "draft");
      const s = await openChecked(name, flags);
      const report = await checkDraft(s, draft);
      if (flags.json) printJson(report);
      else process.stdout.write(formatDraftCheck(report));
      return report.flagged.length > 0 ? EXIT_FAILS : EXIT_CLEAN;
    }),
  );

  withOriginalOption(
    withSessionOptions(session.command("check-text"))
      .description("check-text against the bound original, with each citation's pool label")
      .argument("<name>", "session name")
      .argument("<text>", "the text, or - for stdin"),
  ).action((name: string, textPath: string, flags: SessionFlags) =>
    runAction(flags.json, async () => {
      const draft = readTextInput(textPath, "text");
      const s = await openChecked(name, flags);
      const { context } = originalContext(s);
      const pool = readPool(s);
      const report = await checkText(context, draft, (c) => poolLabel(pool, c));
      if (flags.json) printJson({ session: s.info.name, ...report });
      else {
        const header = `checked against the original bound to this session (pdf sha256 ${report.document.sha256.slice(0, 12)})`;
        process.stdout.write(formatTextCheckReport(report, header));
      }
      return report.summary.FAIL > 0 ? EXIT_FAILS : EXIT_CLEAN;
    }),
  );

  addDocumentOptions(
    withSessionOptions(session.command("revise"))
      .description("store a revised PDF beside the original (the original is never replaced)")
      .argument("<name>", "session name")
      .argument("<pdf>", "the revised PDF"),
  ).action((name: string, pdf: string, flags: SessionFlags) =>
    runAction(flags.json, async () => {
      const s = openSession(sessionDir(name, flags.session));
      const options = documentOptions(flags);
      const doc = await openForAnchors(pdf, options);
      const { revision, created } = await addRevision(s, doc, options);
      if (flags.json) printJson({ session: describeSession(s), revision, created });
      else {
        process.stdout.write(
          `${created ? "stored" : "already stored"}: revision ${revision.id} of session ${s.info.name}: ${pdf} (pdf sha256 ${revision.sha256.slice(0, 12)}, ${revision.pages} pages)\n`,
        );
      }
      return EXIT_CLEAN;
    }),
  );

  withSessionOptions(session.command("compare"))
    .description("give each pool claim one outcome in a stored revision")
    .argument("<name>", "session name")
    .option("--revision <id>", "the revision to compare with (default: the latest)")
    .action((name: string, flags: SessionFlags & { revision?: string }) =>
      runAction(flags.json, async () => {
        const s = openSession(sessionDir(name, flags.session));
        const report = await compareRevision(s, flags.revision);
        if (flags.json) printJson(report);
        else process.stdout.write(formatCompare(report));
        return EXIT_CLEAN;
      }),
    );
}

function withSessionOptions(command: Command): Command {
  return command
    .option("--session <dir>", "the session folder (default: .citeproof/sessions/<name>)")
    .option("--json", "print the result as JSON");
}

function withOriginalOption(command: Command): Command {
  return command.option(
    "--pdf <pdf>",
    "the original PDF; refused unless it is the one the session is bound to",
    undefined,
  );
}

/** Opens the session and, when --pdf names a PDF, refuses it unless it is the bound original. */
async function openChecked(name: string, flags: SessionFlags): Promise<Session> {
  const s = openSession(sessionDir(name, flags.session));
  if (flags.pdf !== undefined) {
    const bytes = await readPdfFile(flags.pdf);
    assertOriginal(s, bytes.sha256);
  }
  return s;
}

function describeSession(s: Session) {
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
    `claim pool of session ${s.info.name} (pdf sha256 ${s.info.original.sha256.slice(0, 12)}): ${pool.length} claim(s)`,
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
