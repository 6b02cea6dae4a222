/** The run report as Markdown: plain text a person reads in a terminal or a repository browser. */
import type { EvidenceRow, RunReportModel } from "./model.js";

export function renderRunReportMarkdown(m: RunReportModel): string {
  const out: string[] = [];
  out.push("# citeproof run report", "");
  out.push(`- run: \`${m.runId}\`, created ${m.createdAt}`);
  out.push(`- assembled ${m.assembledAt}; verified ${m.verifiedAt}`);
  out.push(`- result.json sha256: \`${m.resultSha256}\``);
  out.push(
    `- gate: **${m.gate.verdict}** (${m.gate.enabled ? "enabled" : "reported, not blocking"})` +
      (m.gate.integrity_failures > 0
        ? `; ${m.gate.integrity_failures} integrity failure(s) block promotion`
        : ""),
  );
  out.push(`- verification: **${m.verdict}**`);
  const s = m.summary;
  out.push(
    `- ${s.accepted} span(s) accepted, ${s.unresolved} unresolved, over ${s.records} record(s) and ${s.sources} source(s)`,
    "",
  );

  out.push("## Checks", "", "| check | status | counts | meaning |", "|---|---|---|---|");
  for (const c of m.checks) {
    const counts = Object.entries(c.counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
    out.push(`| ${c.id} | ${c.status} | ${cell(counts)} | ${cell(c.meaning)} |`);
  }
  out.push("");

  out.push(`## Accepted evidence (${m.rows.length})`, "");
  if (m.rows.length === 0) out.push("No span was accepted.", "");
  out.push("| # | claim | source | access | section | page | span |", "|---|---|---|---|---|---|---|");
  for (const r of m.rows) out.push(tableRow(r));
  out.push("");
  for (const r of m.rows) out.push(...excerptBlock(r));

  out.push(`## Unresolved diagnostics (${m.diagnostics.reduce((n, g) => n + g.items.length, 0)})`, "");
  if (m.diagnostics.length === 0) out.push("Nothing is unresolved.", "");
  for (const g of m.diagnostics) {
    out.push(`### ${g.code} (${g.items.length})`, "", g.meaning, "");
    for (const u of g.items) {
      const where = [u.record, u.record_id ? `id ${u.record_id}` : null, u.path ? `\`${u.path}\`` : null]
        .filter((x) => x !== null)
        .join(", ");
      out.push(`- ${where ? `${inline(where)}: ` : ""}${inline(u.message)}`);
    }
    out.push("");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function tableRow(r: EvidenceRow): string {
  const a = r.span;
  const source = a.title ? `${a.title} (${a.url})` : a.url;
  const page = a.pages && a.pages.length > 1 ? a.pages.join("-") : a.page === null ? "" : String(a.page);
  return `| ${r.n} | ${cell(claimCell(r))} | ${cell(source)} | ${a.access} | ${cell(a.section ?? "")} | ${page} | \`${a.source_id.slice(0, 16)}…\` [${a.start}, ${a.end}) |`;
}

/** The span's label, and beside it the words of the claim it backs. */
function claimCell(r: EvidenceRow): string {
  return r.claimText === null ? r.span.claim : `${r.span.claim}: ${r.claimText}`;
}

/** The excerpt exactly as re-sliced, in a fence longer than any backtick run inside it. */
function excerptBlock(r: EvidenceRow): string[] {
  const a = r.span;
  const longest = Math.max(0, ...(a.excerpt.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [
    `### ${r.n}. ${inline(a.claim)}`,
    "",
    ...(r.claimText === null ? [] : [`claim: ${inline(r.claimText)}`, ""]),
    `${inline(a.record)} ${inline(a.field)} · \`${a.source_id}\` [${a.start}, ${a.end}) code points · evidence ${inline(a.evidence_id)} · fresh by ${inline(a.fresh_event)}`,
    "",
    `${fence}text`,
    a.excerpt,
    fence,
    "",
  ];
}

/** Text inside a table cell: one line, pipes escaped, HTML-significant characters as entities. */
function cell(text: string): string {
  return inline(text).replace(/\|/g, "\\|");
}

/**
 * Text from the run (labels, titles, messages) on one line, drawn as written: HTML-significant
 * characters as entities, and Markdown's emphasis, code, link and image syntax escaped, so a claim
 * labelled `[x](javascript:…)` or `![](https://tracker/…)` shows as those characters, never a link
 * or an image that loads.
 */
function inline(text: string): string {
  return text
    .replace(/[\\`*_[\]()!~]/g, "\\$&")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r\n|\r|\n|\f/g, " ");
}
