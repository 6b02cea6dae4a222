/**
 * A draft's check against its bibliography, rendered: for a person (grouped by source, identity
 * first), as SARIF 2.1.0 (one rule per reason, one result per citation that is not PASS, at the
 * draft's line and column: GitHub code scanning shows them on a pull request), and as GitHub
 * workflow commands (`::error file=...,line=...,col=...::`).
 */
import { REASON_MEANINGS, type Reason, type Verdict } from "../checks/verdicts.js";
import type { DraftCheckReport, DraftCitationOutcome } from "../drafts/check-draft.js";

export const DRAFT_OUTPUT_FORMATS = ["text", "json", "sarif", "github"] as const;
export type DraftOutputFormat = (typeof DRAFT_OUTPUT_FORMATS)[number];

function citationLine(c: DraftCitationOutcome): string {
  const target = [c.key, c.anchor, c.quote !== null ? `"${c.quote}"` : ""].filter((p) => p).join(" ");
  return `  ${c.verdict.padEnd(10)} ${c.line}:${c.column} ${target}: ${c.message} [${c.reason}]`;
}

export function formatDraftReport(report: DraftCheckReport, bibName: string): string {
  const b = report.bibliography;
  const lines = [`${report.draft.kind} draft checked against ${bibName} (${b.format}, ${b.entries} entries)`];
  for (const p of b.problems) lines.push(`  bibliography: ${p.message}`);
  for (const s of report.sources) {
    const where = s.path ?? s.url ?? "";
    const pages = s.pages !== null ? `, ${s.pages} pages` : "";
    const read = s.sha256 ? `${s.kind}, sha256 ${s.sha256.slice(0, 12)}${pages}` : "not read";
    lines.push("", `source ${where} (${read}) identity: ${s.identity}`);
    if (s.unavailable) lines.push(`  unavailable: ${s.unavailable}`);
    for (const e of s.entries) lines.push(`  entry ${e.key}: ${e.identity} (title ${e.title}, DOI ${e.doi})`);
    for (const c of report.citations)
      if (c.source && (c.source.path ?? c.source.url) === where) lines.push(citationLine(c));
  }
  const loose = report.citations.filter((c) => !c.source);
  if (loose.length > 0) {
    lines.push("", "no source");
    for (const c of loose) lines.push(citationLine(c));
  }
  const s = report.summary;
  lines.push(
    "",
    `${s.citations} citation(s): ${s.PASS} PASS, ${s.FLAG} FLAG, ${s.FAIL} FAIL; ${s.unanchored} unanchored`,
    `not verified: ${report.not_verified}`,
    s.FAIL > 0 ? "exit 1: at least one citation FAILs" : "exit 0: no citation FAILs",
  );
  return `${lines.join("\n")}\n`;
}

const SARIF_LEVEL: Record<Verdict, "error" | "warning" | "note"> = {
  FAIL: "error",
  FLAG: "warning",
  UNANCHORED: "note",
  PASS: "note",
};

/** The SARIF 2.1.0 log of checks: one run per draft, `uri` the draft as the repository names it. */
export function draftSarif(drafts: { uri: string; report: DraftCheckReport }[], version: string): unknown {
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: drafts.map((d) => sarifRun(d.report, d.uri, version)),
  };
}

function sarifRun(report: DraftCheckReport, draftUri: string, version: string): unknown {
  const failing = report.citations.filter((c) => c.verdict !== "PASS");
  const reasons = [...new Set(failing.map((c) => c.reason))].sort() as Reason[];
  return {
    tool: {
      driver: {
        name: "citeproof",
        version,
        informationUri: "https://www.npmjs.com/package/citeproof",
        rules: reasons.map((r) => ({
          id: r,
          name: r.replace(/(^|-)([a-z])/gu, (_m, _d, l: string) => l.toUpperCase()),
          shortDescription: { text: r },
          fullDescription: { text: REASON_MEANINGS[r] },
        })),
      },
    },
    // Lets code scanning tell one draft's run from another's.
    automationDetails: { id: `citeproof/${draftUri}/` },
    results: failing.map((c) => ({
      ruleId: c.reason,
      ruleIndex: reasons.indexOf(c.reason),
      level: SARIF_LEVEL[c.verdict],
      message: { text: resultText(c) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: draftUri },
            region: { startLine: c.line, startColumn: c.column },
          },
        },
      ],
      partialFingerprints: {
        citeproofCitation: `${c.key ?? ""}|${c.anchor ?? ""}|${c.quote ?? ""}`,
      },
    })),
  };
}

function resultText(c: DraftCitationOutcome): string {
  const quote = c.quote !== null ? ` "${c.quote}"` : "";
  return `${c.verdict} ${c.key ?? "quotation"}${c.anchor ? ` ${c.anchor}` : ""}${quote}: ${c.message}`;
}

/** GitHub workflow commands: an error per FAIL, a warning per FLAG, a notice per UNANCHORED. */
export function draftGithubCommands(report: DraftCheckReport, draftPath: string): string {
  const command: Record<Verdict, string> = { FAIL: "error", FLAG: "warning", UNANCHORED: "notice", PASS: "" };
  const lines = report.citations
    .filter((c) => c.verdict !== "PASS")
    .map(
      (c) =>
        `::${command[c.verdict]} file=${property(draftPath)},line=${c.line},col=${c.column},title=${property(`citeproof ${c.reason}`)}::${data(resultText(c))}`,
    );
  const s = report.summary;
  lines.push(
    `citeproof: ${s.citations} citation(s): ${s.PASS} PASS, ${s.FLAG} FLAG, ${s.FAIL} FAIL; ${s.unanchored} unanchored`,
  );
  return `${lines.join("\n")}\n`;
}

/** A workflow command's message, escaped as the runner reads it. */
function data(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** A workflow command's property value, escaped as the runner reads it. */
function property(text: string): string {
  return data(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}
