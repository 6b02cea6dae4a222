import type { Command } from "commander";
import { evidenceFileList } from "../../checks/evidence-record.js";
import type { Operation } from "../../operations/operation.js";
import {
  type SessionNewInput,
  sessionCheckDraftOperation,
  sessionCheckTextOperation,
  sessionCompareOperation,
  sessionDraftInputOperation,
  sessionNewOperation,
  sessionPoolOperation,
  sessionReviseOperation,
  sessionVerifyOperation,
} from "../../operations/session.js";
import type { CommandIo } from "../cli-io.js";
import {
  addDocumentOptions,
  commandContext,
  type DocumentFlags,
  readTextInput,
  runAction,
  runAndPrint,
} from "../io.js";

interface SessionFlags extends DocumentFlags {
  session?: string;
  pdf?: string;
}

export function register(program: Command, io: CommandIo): void {
  const session = program
    .command("session")
    .description("review sessions: a bound original, a claim pool, drafts written from it, revisions");

  addDocumentOptions(
    withSessionOptions(session.command("new"))
      .description("start a session bound to its original, a PDF or a flow source (never replaced)")
      .argument("<name>", "session name")
      .argument(
        "<pdf>",
        "the original: a PDF, or a flow source (HTML, Markdown, text, EPUB, DOCX, ODT, JATS)",
      ),
  ).action(storePdf(io, sessionNewOperation));

  withOriginalOption(
    withSessionOptions(session.command("verify"))
      .description("check evidence records against the original; PASS and FLAG results enter the claim pool")
      .argument("<name>", "session name")
      .requiredOption("--evidence <file>", "JSON array of evidence records"),
  ).action((name: string, flags: SessionFlags & { evidence: string }) =>
    runAction(io, flags.json, () => {
      const evidence = evidenceFileList(readTextInput(flags.evidence, "evidence file"), flags.evidence);
      const input = { name, evidence, session: flags.session, pdf: flags.pdf };
      return runAndPrint(io, sessionVerifyOperation, input, commandContext(io, {}), flags.json);
    }),
  );

  withSessionOptions(session.command("pool"))
    .description("list the claim pool: the checked evidence drafts are written from")
    .argument("<name>", "session name")
    .action((name: string, flags: SessionFlags) =>
      runAction(io, flags.json, () =>
        runAndPrint(
          io,
          sessionPoolOperation,
          { name, session: flags.session },
          commandContext(io, {}),
          flags.json,
        ),
      ),
    );

  withOriginalOption(
    withSessionOptions(session.command("draft-input"))
      .description(
        "the material a drafting model is given; equation claims are checked again and failures EXCLUDED",
      )
      .argument("<name>", "session name"),
  ).action((name: string, flags: SessionFlags) =>
    runAction(io, flags.json, () =>
      runAndPrint(
        io,
        sessionDraftInputOperation,
        { name, session: flags.session, pdf: flags.pdf },
        commandContext(io, {}),
        flags.json,
      ),
    ),
  );

  withOriginalOption(
    withSessionOptions(session.command("check-draft"))
      .description("flag a draft's citations that are not in the verified pool or fail re-verification")
      .argument("<name>", "session name")
      .argument("<draft>", "the draft as plain text, or - for stdin"),
  ).action((name: string, draftPath: string, flags: SessionFlags) =>
    runAction(io, flags.json, () => {
      const input = {
        name,
        draft: readTextInput(draftPath, "draft"),
        session: flags.session,
        pdf: flags.pdf,
      };
      return runAndPrint(io, sessionCheckDraftOperation, input, commandContext(io, {}), flags.json);
    }),
  );

  withOriginalOption(
    withSessionOptions(session.command("check-text"))
      .description("check-text against the bound original, with each citation's pool label")
      .argument("<name>", "session name")
      .argument("<text>", "the text, or - for stdin"),
  ).action((name: string, textPath: string, flags: SessionFlags) =>
    runAction(io, flags.json, () => {
      const input = { name, draft: readTextInput(textPath, "text"), session: flags.session, pdf: flags.pdf };
      return runAndPrint(io, sessionCheckTextOperation, input, commandContext(io, {}), flags.json);
    }),
  );

  addDocumentOptions(
    withSessionOptions(session.command("revise"))
      .description("store a revised PDF beside the original (the original is never replaced)")
      .argument("<name>", "session name")
      .argument("<pdf>", "the revised PDF"),
  ).action(storePdf(io, sessionReviseOperation));

  withSessionOptions(session.command("compare"))
    .description("give each pool claim one outcome in a stored revision")
    .argument("<name>", "session name")
    .option("--revision <id>", "the revision to compare with (default: the latest)")
    .action((name: string, flags: SessionFlags & { revision?: string }) =>
      runAction(io, flags.json, () =>
        runAndPrint(
          io,
          sessionCompareOperation,
          { name, session: flags.session, revision: flags.revision },
          commandContext(io, {}),
          flags.json,
        ),
      ),
    );
}

/** `session new` and `session revise`: a PDF stored in the session, opened with the document flags. */
function storePdf<Result>(io: CommandIo, op: Operation<SessionNewInput, Result>) {
  return (name: string, pdf: string, flags: SessionFlags) =>
    runAction(io, flags.json, () =>
      runAndPrint(
        io,
        op,
        { name, pdf, session: flags.session, password: flags.password },
        commandContext(io, flags),
        flags.json,
      ),
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
