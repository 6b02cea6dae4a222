/** The report as one self-contained HTML file: inline CSS, crops as PNG data URIs, no script. */
import { basename } from "node:path";
import type { CheckResult } from "../checks/result.js";
import { reasonMeaning, VERDICT_MEANINGS, VERDICTS } from "../checks/verdicts.js";
import { kindName } from "../document/flow/readers.js";
import type { Crop, Report, ReportSection } from "./build.js";
import { escapeHtml as h } from "./escape.js";
import type { Passage } from "./passages.js";

export const REPORT_CSS = `
:root { color-scheme: light; --pass: #1b7f3b; --flag: #a86400; --fail: #b3261e; --unanchored: #5f6368; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; max-width: 980px;
  padding: 24px; color: #1f1f1f; background: #fafafa; }
header { border-bottom: 1px solid #ddd; margin-bottom: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
code, .sha { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.summary span { margin-right: 14px; font-weight: 600; }
.legend { font-size: 13px; color: #444; }
.legend dt { font-weight: 600; float: left; width: 110px; clear: left; }
.legend dd { margin: 0 0 2px 110px; }
.result { background: #fff; border: 1px solid #ddd; border-left: 6px solid var(--unanchored); border-radius: 6px;
  padding: 12px 16px; margin: 0 0 18px; }
.result.verdict-pass { border-left-color: var(--pass); }
.result.verdict-flag { border-left-color: var(--flag); }
.result.verdict-fail { border-left-color: var(--fail); }
.result h2 { font-size: 16px; margin: 0 0 6px; }
.badge { display: inline-block; min-width: 58px; text-align: center; color: #fff; border-radius: 4px; padding: 1px 6px;
  margin-right: 8px; font-size: 13px; background: var(--unanchored); }
.verdict-pass .badge { background: var(--pass); }
.verdict-flag .badge { background: var(--flag); }
.verdict-fail .badge { background: var(--fail); }
.record-id { color: #666; font-weight: normal; }
.reason { margin: 2px 0; color: #333; }
.message { margin: 2px 0 8px; }
blockquote { margin: 6px 0; padding: 4px 12px; border-left: 3px solid #ccc; color: #333; white-space: pre-wrap; }
figure { margin: 10px 0 4px; }
.frame { position: relative; display: inline-block; max-width: 100%; border: 1px solid #ccc; line-height: 0;
  background: #fff; }
.frame img { max-width: 100%; height: auto; display: block; }
.mark { position: absolute; border: 2px solid; border-radius: 2px; }
.mark-match, .mark-anchor { border-color: rgba(27,127,59,.9); background: rgba(27,127,59,.12); }
.mark-elsewhere { border-color: rgba(25,103,210,.9); background: rgba(25,103,210,.12); }
.mark-closest, .mark-sighting { border-color: rgba(168,100,0,.9); background: rgba(168,100,0,.12); }
.mark-page-words { border-color: rgba(179,38,30,.9); background: rgba(179,38,30,.12); }
figcaption { font-size: 13px; color: #555; margin-top: 4px; }
.passage blockquote { border-left-color: #999; }
.passage mark { padding: 0 1px; border-radius: 2px; }
.passage .chain { font-size: 13px; color: #444; margin: 0; }
mark.mark-match { background: rgba(27,127,59,.22); outline: 2px solid rgba(27,127,59,.9); }
mark.mark-elsewhere { background: rgba(25,103,210,.22); outline: 2px solid rgba(25,103,210,.9); }
mark.mark-closest { background: rgba(168,100,0,.22); outline: 2px solid rgba(168,100,0,.9); }
.index ol { list-style: none; padding: 0; margin: 8px 0 16px; columns: 2; font-size: 13px; }
.index li { margin: 0 0 3px; break-inside: avoid; }
.index a { color: inherit; text-decoration: none; }
.index .badge { min-width: 48px; font-size: 11px; }
.verdict-pass .badge, li.verdict-pass .badge { background: var(--pass); }
li.verdict-flag .badge { background: var(--flag); }
li.verdict-fail .badge { background: var(--fail); }
.marks .key { margin-right: 14px; white-space: nowrap; }
.swatch { display: inline-block; width: 14px; height: 10px; border-width: 2px; border-style: solid; margin-right: 4px; vertical-align: middle; }
.nothing, .crop-error { font-size: 13px; color: #666; }
.crop-error { color: var(--fail); }
`;

/** How the report's images are written: inline as data URIs, or as files its HTML links to. */
export type ImageHref = (crop: Crop) => string;

export interface ReportHtmlOptions {
  /** `verdict` (default): FAIL first, then FLAG, PASS, UNANCHORED, each in input order; `input`: as given. */
  order?: "verdict" | "input";
  /** Where each crop's PNG is found; inline data URIs when left out. */
  imageHref?: ImageHref;
}

/** The order a person reads a report in: what failed first. */
const VERDICT_ORDER = ["FAIL", "FLAG", "PASS", "UNANCHORED"];

export function renderReportHtml(report: Report, options: ReportHtmlOptions = {}): string {
  const results = report.sections.map((s) => s.result);
  const count = (v: string) => results.filter((r) => r.verdict === v).length;
  // Each section keeps its input number (its anchor #result-N) whatever order it is shown in.
  const numbered = report.sections.map((section, i) => ({ section, n: i + 1 }));
  const shown =
    options.order === "input"
      ? numbered
      : [...numbered].sort(
          (a, b) =>
            VERDICT_ORDER.indexOf(a.section.result.verdict) -
              VERDICT_ORDER.indexOf(b.section.result.verdict) || a.n - b.n,
        );
  const href = options.imageHref ?? inlineImage;
  const name = basename(report.pdf);
  const parts = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>citeproof report: ${h(name)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    "</head>",
    "<body>",
    "<header>",
    "<h1>citeproof report</h1>",
    `<p><strong>${h(name)}</strong> &middot; ${h(documentSize(report.document))} &middot; sha256 <span class="sha">${h(report.document.sha256)}</span></p>`,
    `<p class="summary">${results.length} record(s): ${VERDICTS.map(
      (v) => `<span class="count-${v.toLowerCase()}">${count(v)} ${v}</span>`,
    ).join("")}</p>`,
    `<dl class="legend">${VERDICTS.map((v) => `<dt>${v}</dt><dd>${h(VERDICT_MEANINGS[v])}</dd>`).join("")}</dl>`,
    "pages" in report.document
      ? '<p class="legend">Each crop is rendered from the PDF itself; the marked boxes are what the check\'s evidence points at. A PASS says only what its verdict promises.</p>'
      : "<p class=\"legend\">Each passage is the source's own text, as the check read it, under its heading chain; the marked words are what the check's evidence points at. A PASS says only what its verdict promises.</p>",
    `<p class="legend marks">${MARK_LEGEND.map(([kind, meaning]) => `<span class="key"><span class="swatch mark-${kind}"></span>${h(meaning)}</span>`).join("")}</p>`,
    renderIndex(shown),
    "</header>",
    "<main>",
    ...shown.map(({ section, n }) => renderSection(section, n, href)),
    "</main>",
    "</body>",
    "</html>",
    "",
  ];
  return parts.join("\n");
}

/** What each colour of mark shows. */
const MARK_LEGEND: [string, string][] = [
  ["match", "the words or the label, where the check found them"],
  ["elsewhere", "the words on another page than the one named"],
  ["closest", "the closest passage to words not found"],
  ["page-words", "the words of a page whose text layer does not hold them"],
];

/** Links to every result, in the order shown, with its verdict and reason. */
function renderIndex(shown: { section: ReportSection; n: number }[]): string {
  const rows = shown.map(({ section, n }) => {
    const r = section.result;
    const id = r.id !== undefined ? ` [${h(r.id)}]` : "";
    return `<li class="verdict-${r.verdict.toLowerCase()}"><a href="#result-${n}"><span class="badge">${r.verdict}</span>${n}. ${h(anchorOf(r))}${id}</a> <code>${h(r.reason)}</code></li>`;
  });
  return `<nav class="index"><ol>\n${rows.join("\n")}\n</ol></nav>`;
}

function renderSection(section: ReportSection, n: number, href: ImageHref = inlineImage): string {
  const r = section.result;
  const verdictClass = `verdict-${r.verdict.toLowerCase()}`;
  const id = r.id !== undefined ? ` <span class="record-id">[${h(r.id)}]</span>` : "";
  const lines = [
    `<section class="result ${verdictClass}" id="result-${n}" data-verdict="${r.verdict}" data-reason="${h(r.reason)}" data-kind="${r.kind}">`,
    `<h2><span class="badge">${r.verdict}</span>${n}. ${h(anchorOf(r))}${id}</h2>`,
    `<p class="reason"><code>${h(r.reason)}</code>: ${h(reasonMeaning(r.kind, r.reason))}</p>`,
    `<p class="message">${h(r.message)}</p>`,
  ];
  const quotation = r.evidence.quotation;
  if (typeof quotation === "string") lines.push(`<blockquote class="quotation">${h(quotation)}</blockquote>`);
  for (const crop of section.crops) lines.push(renderCrop(crop, href));
  for (const passage of section.passages ?? []) lines.push(renderPassage(passage));
  for (const error of section.cropErrors)
    lines.push(`<p class="crop-error">could not render: ${h(error)}</p>`);
  if (
    section.crops.length === 0 &&
    section.cropErrors.length === 0 &&
    (section.passages ?? []).length === 0
  ) {
    lines.push(`<p class="nothing">${h(nothingToShow(r))}</p>`);
  }
  lines.push("</section>");
  return lines.join("\n");
}

/** One crop as a figure: the PNG inline, its marks as boxes over it. */
export function renderCrop(crop: Crop, href: ImageHref = inlineImage): string {
  const box = crop.region
    ? ` data-box="${[crop.region.left, crop.region.bottom, crop.region.right, crop.region.top]
        .map((v) => round(v))
        .join(",")}"`
    : "";
  const marks = crop.marks
    .map(
      (m) =>
        `<span class="mark mark-${crop.kind}" style="left:${pct(m.x)};top:${pct(m.y)};width:${pct(m.w)};height:${pct(m.h)}"></span>`,
    )
    .join("");
  const alt = `${crop.caption} (page ${crop.page})`;
  return [
    `<figure class="crop crop-${crop.kind}" data-page="${crop.page}" data-dpi="${crop.dpi}"${box}>`,
    `<div class="frame"><img src="${h(href(crop))}" loading="lazy" width="${crop.widthPx}" height="${crop.heightPx}" alt="${h(alt)}">${marks}</div>`,
    `<figcaption>page ${crop.page}: ${h(crop.caption)}${crop.region ? "" : " (whole page)"}</figcaption>`,
    "</figure>",
  ].join("\n");
}

/** One passage of a flow source: its heading chain and place, its text with the evidence's words marked. */
export function renderPassage(passage: Passage): string {
  const chain = passage.section ? h(passage.section) : "before the first heading";
  const region = passage.region === "body" ? "" : `, ${h(passage.region)}`;
  return [
    `<figure class="passage passage-${passage.kind}" data-paragraph="${passage.paragraph}" data-start-cp="${passage.startCp}" data-end-cp="${passage.endCp}">`,
    `<p class="chain">${chain} &middot; paragraph ${passage.paragraph}${region}</p>`,
    `<blockquote>${h(passage.before)}<mark class="mark-${passage.kind}">${h(passage.marked)}</mark>${h(passage.after)}</blockquote>`,
    `<figcaption>${h(passage.caption)}</figcaption>`,
    "</figure>",
  ].join("\n");
}

/** `12 page(s)`, or for a flow source `Markdown, 40 paragraph(s), 6 heading(s)`. */
function documentSize(document: Report["document"]): string {
  if ("pages" in document) return `${document.pages} page(s)`;
  return `${kindName(document.kind)}, ${document.paragraphs} paragraph(s), ${document.headings} heading(s)`;
}

function inlineImage(crop: Crop): string {
  return `data:image/png;base64,${Buffer.from(crop.png).toString("base64")}`;
}

function anchorOf(r: CheckResult): string {
  const e = r.evidence;
  switch (r.kind) {
    case "quotation":
      if (typeof e.page === "number") return `p. ${e.page}, quotation`;
      return typeof e.section === "string" ? `§ ${e.section}, quotation` : "quotation, no page";
    case "page":
      return `p. ${e.page}`;
    case "equation":
      return `Eq. (${String(e.label ?? "?")})`;
    case "figure":
      return `Fig. (${String(e.label ?? "?")})`;
  }
}

function nothingToShow(r: CheckResult): string {
  if (r.verdict === "UNANCHORED") return "No page was named, so there is no place to show.";
  if (r.reason === "no-such-page") return "The page does not exist, so there is no place to show.";
  if (r.reason === "page-unreadable") return "The page could not be read, so there is no place to show.";
  return "The check's evidence names no place on a page to show.";
}

function pct(v: number): string {
  return `${round(v * 100)}%`;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
