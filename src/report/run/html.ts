/** The run report as one self-contained HTML file: inline CSS, crops as PNG data URIs, no script. */
import { escapeHtml as h } from "../escape.js";
import { REPORT_CSS, renderCrop, renderPassage } from "../html.js";
import type { EvidenceRow, RunReportModel } from "./model.js";

const RUN_CSS = `
table { border-collapse: collapse; width: 100%; background: #fff; margin: 0 0 18px; font-size: 14px; }
th, td { border: 1px solid #ddd; padding: 6px 8px; text-align: left; vertical-align: top; }
table.evidence { table-layout: fixed; }
table.evidence td { overflow-wrap: anywhere; }
table.evidence col.n { width: 3em; }
table.evidence col.claim { width: 46%; }
tr.crops td { border-top: none; }
th { background: #f0f0f0; }
.status-pass { color: var(--pass); font-weight: 600; }
.status-fail { color: var(--fail); font-weight: 600; }
.excerpt { white-space: pre-wrap; font-family: ui-serif, Georgia, serif; margin: 0; }
.meta { color: #555; font-size: 13px; }
.diag h3 { font-size: 15px; margin: 14px 0 4px; }
.diag li { margin: 2px 0; }
`;

export function renderRunReportHtml(m: RunReportModel): string {
  const unresolved = m.diagnostics.reduce((n, g) => n + g.items.length, 0);
  const s = m.summary;
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>citeproof run report: ${h(m.runId)}</title>`,
    `<style>${REPORT_CSS}${RUN_CSS}</style>`,
    "</head>",
    "<body>",
    "<header>",
    "<h1>citeproof run report</h1>",
    `<p><strong>${h(m.runId)}</strong> &middot; created ${h(m.createdAt)} &middot; assembled ${h(m.assembledAt)} &middot; verified ${h(m.verifiedAt)}</p>`,
    `<p>result.json sha256 <span class="sha">${h(m.resultSha256)}</span></p>`,
    `<p class="summary"><span class="status-${m.gate.verdict}">gate ${m.gate.verdict}</span>` +
      `<span>${m.gate.enabled ? "enabled" : "reported, not blocking"}</span>` +
      (m.gate.integrity_failures > 0
        ? `<span class="status-fail">${m.gate.integrity_failures} integrity failure(s) block promotion</span>`
        : "") +
      `<span class="status-${m.verdict}">verification ${m.verdict}</span></p>`,
    `<p>${s.accepted} span(s) accepted, ${s.unresolved} unresolved, over ${s.records} record(s) and ${s.sources} source(s).</p>`,
    "</header>",
    "<main>",
    "<h2>Checks</h2>",
    "<table><thead><tr><th>check</th><th>status</th><th>counts</th><th>meaning</th></tr></thead><tbody>",
    ...m.checks.map(
      (c) =>
        `<tr><td><code>${h(c.id)}</code></td><td class="status-${c.status}">${c.status}</td><td>${h(
          Object.entries(c.counts)
            .map(([k, v]) => `${k} ${v}`)
            .join(", "),
        )}</td><td>${h(c.meaning)}</td></tr>`,
    ),
    "</tbody></table>",
    `<h2>Accepted evidence (${m.rows.length})</h2>`,
    m.rows.length === 0
      ? '<p class="nothing">No span was accepted.</p>'
      : [
          '<table class="evidence"><colgroup><col class="n"><col class="claim"><col><col></colgroup>',
          "<thead><tr><th>#</th><th>claim and excerpt</th><th>source</th><th>place</th></tr></thead><tbody>",
          ...m.rows.map(evidenceRow),
          "</tbody></table>",
        ].join("\n"),
    `<h2>Unresolved diagnostics (${unresolved})</h2>`,
    m.diagnostics.length === 0 ? '<p class="nothing">Nothing is unresolved.</p>' : "",
    ...m.diagnostics.map((g) =>
      [
        `<section class="diag" data-code="${h(g.code)}">`,
        `<h3><code>${h(g.code)}</code> (${g.items.length})</h3>`,
        `<p class="meta">${h(g.meaning)}</p>`,
        "<ul>",
        ...g.items.map((u) => {
          const where = [u.record, u.record_id ? `id ${u.record_id}` : null, u.path || null]
            .filter((x) => x !== null)
            .join(", ");
          return `<li>${where ? `<code>${h(where)}</code>: ` : ""}${h(u.message)}</li>`;
        }),
        "</ul>",
        "</section>",
      ].join("\n"),
    ),
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function evidenceRow(r: EvidenceRow): string {
  const a = r.span;
  const page =
    a.pages && a.pages.length > 1 ? `pages ${a.pages.join("-")}` : a.page === null ? "" : `page ${a.page}`;
  const link = /^https?:\/\//i.test(a.url)
    ? `<a href="${h(a.url)}">${h(a.title ?? a.url)}</a>`
    : h(a.title ?? a.url);
  const place = [a.section ? `section ${h(a.section)}` : "no section", page ? h(page) : ""]
    .filter((x) => x !== "")
    .join("<br>");
  const shown = [
    ...r.crops.map((crop) => renderCrop(crop)),
    ...r.passages.map((passage) => renderPassage(passage)),
    r.cropNote ? `<p class="nothing">${h(r.cropNote)}</p>` : "",
  ].filter((x) => x !== "");
  return [
    `<tr id="span-${r.n}" data-source="${h(a.source_id)}" data-start="${a.start}" data-end="${a.end}">`,
    `<td>${r.n}</td>`,
    `<td><p><strong>${h(a.claim)}</strong>${r.claimText === null ? "" : ` <span class="claim-text">${h(r.claimText)}</span>`}</p><blockquote class="excerpt">${h(a.excerpt)}</blockquote>` +
      `<p class="meta"><code>${h(a.record)}</code> ${h(a.field)} &middot; [${a.start}, ${a.end}) code points &middot; fresh by ${h(a.fresh_event)}</p></td>`,
    `<td>${link}<br><span class="meta">${h(a.access)} &middot; ${h(a.evidence_id)}<br><code>${h(a.source_id)}</code></span></td>`,
    `<td>${place}</td>`,
    "</tr>",
    shown.length > 0 ? `<tr class="crops"><td></td><td colspan="3">${shown.join("\n")}</td></tr>` : "",
  ]
    .filter((x) => x !== "")
    .join("\n");
}
