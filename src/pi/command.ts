/** The /citeproof command: a person's way to run a check or write a report from inside pi. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { formatTextCheckReport, type TextCheckReport } from "../checks/check-text.js";
import { validateEvidence } from "../checks/evidence-record.js";
import type { VerifyReport } from "../checks/verify.js";
import { formatVerifyReport } from "../cli/commands/verify.js";
import { CiteproofError } from "../errors.js";
import { buildReport } from "../report/build.js";
import { renderReportHtml } from "../report/html.js";
import { writeOutputAtomic } from "../report/write.js";
import { checkTextTool } from "../tools/check-text.js";
import { admitPath, type ToolEnv } from "../tools/index.js";
import { verifyTool } from "../tools/verify.js";

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

export async function runCommand(argLine: string, env: ToolEnv): Promise<CommandOutcome> {
  const [sub, ...rest] = splitArgs(argLine);
  switch (sub) {
    case undefined:
    case "help":
      return { level: "info", text: COMMAND_USAGE };
    case "verify": {
      const [pdf, evidenceFile] = exactly(rest, 2, "verify <pdf> <evidence.json>");
      const evidence = readEvidence(env, evidenceFile);
      const report = (await verifyTool.run({ pdf, evidence }, env)).json as VerifyReport;
      return outcome(formatVerifyReport(pdf, report), report.results);
    }
    case "check-text": {
      const [pdf, draftFile] = exactly(rest, 2, "check-text <pdf> <draft.txt>");
      const draft = readText(env, draftFile, "draft");
      const report = (await checkTextTool.run({ pdf, draft }, env)).json as TextCheckReport;
      const header = `checked against ${pdf} (pdf sha256 ${report.document.sha256.slice(0, 12)})`;
      return {
        level: report.summary.FAIL > 0 ? "warning" : "info",
        text: formatTextCheckReport(report, header).trimEnd(),
      };
    }
    case "report": {
      if (rest.length < 2 || rest.length > 3) throw usage("report <pdf> <evidence.json> [out.html]");
      const [pdf, evidenceFile, out = "citeproof-report.html"] = rest;
      const records = validateEvidence(readEvidence(env, evidenceFile), evidenceFile);
      const report = await buildReport(admitPath(env, pdf), records, env.open);
      const target = resolve(env.cwd, out);
      writeOutputAtomic(target, renderReportHtml(report));
      const results = report.sections.map((s) => s.result);
      return outcome(
        `${formatVerifyReport(pdf, { document: report.document, results })}report written to ${target}`,
        results,
      );
    }
    default:
      throw new CiteproofError("USAGE", `unknown subcommand ${JSON.stringify(sub)}\n${COMMAND_USAGE}`);
  }
}

function outcome(text: string, results: { verdict: string }[]): CommandOutcome {
  return { level: results.some((r) => r.verdict === "FAIL") ? "warning" : "info", text: text.trimEnd() };
}

function readText(env: ToolEnv, file: string, what: string): string {
  const path = admitPath(env, file);
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code ?? "unknown error";
    throw new CiteproofError("FILE_UNREADABLE", `${what} ${file} cannot be read (${code})`);
  }
}

function readEvidence(env: ToolEnv, file: string): unknown {
  const text = readText(env, file, "evidence file");
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new CiteproofError("EVIDENCE_NOT_JSON", `${file} is not valid JSON (${detail})`);
  }
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
