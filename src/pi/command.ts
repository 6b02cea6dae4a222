/** The /citeproof command: a person's way to run a check or write a report from inside pi. */
import { resolve } from "node:path";
import { evidenceFileList } from "../checks/evidence-record.js";
import { CiteproofError } from "../errors.js";
import { runWithArgs } from "../operations/agent-call.js";
import { checkTextOperation } from "../operations/check-text.js";
import type { Operation, OperationContext } from "../operations/operation.js";
import { inputPath } from "../operations/paths.js";
import { reportOperation } from "../operations/report.js";
import { verifyOperation } from "../operations/verify.js";
import { readAdmittedFile } from "../source/allowed-root.js";
import { MAX_TEXT_INPUT_BYTES, readRegularFileSync } from "../source/file.js";

export const COMMAND_USAGE = [
  "/citeproof verify <pdf> <evidence.json>   check evidence records against the PDF",
  "/citeproof check-text <pdf> <draft.txt>   check the citations written in a draft",
  "/citeproof report <pdf> <evidence.json> [out.html]   write the HTML report (default citeproof-report.html)",
  "/citeproof help   this text",
].join("\n");

export interface CommandOutcome {
  level: "info" | "warning" | "error";
  text: string;
}

type Context = OperationContext;

export async function runCommand(argLine: string, ctx: Context): Promise<CommandOutcome> {
  const [sub, ...rest] = splitArgs(argLine);
  switch (sub) {
    case undefined:
    case "help":
      return { level: "info", text: COMMAND_USAGE };
    case "verify": {
      const [pdf, evidenceFile] = exactly(rest, 2, "verify <pdf> <evidence.json>");
      return run(verifyOperation, { pdf, evidence: await readEvidence(ctx, evidenceFile) }, ctx);
    }
    case "check-text": {
      const [pdf, draftFile] = exactly(rest, 2, "check-text <pdf> <draft.txt>");
      return run(checkTextOperation, { pdf, draft: await readText(ctx, draftFile, "draft") }, ctx);
    }
    case "report": {
      if (rest.length < 2 || rest.length > 3) throw usage("report <pdf> <evidence.json> [out.html]");
      const [pdf, evidenceFile, out = "citeproof-report.html"] = rest;
      const evidence = await readEvidence(ctx, evidenceFile);
      return run(reportOperation, { pdf, evidence, out: resolve(ctx.cwd, out) }, ctx);
    }
    default:
      throw new CiteproofError("USAGE", `unknown subcommand ${JSON.stringify(sub)}\n${COMMAND_USAGE}`);
  }
}

async function run<Input, Result>(
  op: Operation<Input, Result>,
  args: Record<string, unknown>,
  ctx: Context,
): Promise<CommandOutcome> {
  const { input, result } = await runWithArgs(op, args, ctx);
  return { level: op.exitCode(result) === 1 ? "warning" : "info", text: op.format(result, input).trimEnd() };
}

/**
 * A text file named in the command: read once through one descriptor, admitted by the allowed roots on
 * the opened file when they apply (a path swapped after the check cannot redirect the read).
 */
async function readText(ctx: Context, file: string, what: string): Promise<string> {
  const read =
    ctx.access === "anywhere"
      ? readRegularFileSync(inputPath(ctx, file), what)
      : (await readAdmittedFile(resolve(ctx.cwd, file), ctx.access, { maxBytes: MAX_TEXT_INPUT_BYTES, what }))
          .bytes;
  return Buffer.from(read).toString("utf8");
}

/** The file's records, unread: the operation's schema reads them. */
async function readEvidence(ctx: Context, file: string): Promise<unknown[]> {
  return evidenceFileList(await readText(ctx, file, "evidence file"), file);
}

function exactly(args: string[], n: number, form: string): string[] {
  if (args.length !== n) throw usage(form);
  return args;
}

function usage(form: string): CiteproofError {
  return new CiteproofError("USAGE", `usage: /citeproof ${form}`);
}

/** Splits a command line on spaces, keeping "quoted" or 'quoted' words (paths with spaces) whole. */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}
