#!/usr/bin/env node
// Builds one text into every flow format the readers take, so each holds the same passages, and
// writes the ground truth from the generating text (never from a reader under test):
//   node scripts/flow-corpus.mjs [out-dir]   (default test/fixtures/flow)
// corpus.md (Markdown, written here), corpus.html (HTML, written here), corpus.pandoc.html (pandoc's
// HTML from corpus.md, when pandoc is installed), corpus.txt (RFC-style plain text, written here)
// and truth.json: every sentence with the heading chain it stands under and its region.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The text: numbered sections, subsections, a note, a table, a figure and a labelled equation. */
const DOC = {
  title: "Deltas under a changing sea",
  sections: [
    {
      number: "1",
      title: "Introduction",
      paragraphs: [
        "River deltas hold a large share of the world’s farmland and many of its cities. Their surfaces sink slowly while the sea around them rises, and the balance between the two decides their fate.",
        "Earlier work treated each delta on its own terms. This study compares forty deltas over the same decade, using the same office records and the same satellite archive.",
      ],
    },
    {
      number: "2",
      title: "Methods",
      paragraphs: [
        "The methods below were fixed before any measurement was examined, as the protocol of 2018 required.",
      ],
      subsections: [
        {
          number: "2.1",
          title: "Data sources",
          paragraphs: [
            "Samples were taken from fourteen sites along each coast between 1990–2000 and again in 2019. The affluent districts were sampled no more often than the poor ones.",
            "Elevation came from a well-known radar survey; its stated error is ±0.4 m at the ninety-fifth percentile.",
          ],
          note: "The survey’s own validation used fjord shorelines, which are steeper than any delta front.",
        },
        {
          number: "2.2",
          title: "Models",
          paragraphs: [
            "A long-term linear model was fitted to the elevation of every site, with the sea level as an offset.",
            "The model’s efficiency was judged by how much of the variance it left unexplained, as in equation (1).",
          ],
          equation: { tex: "R^2 = 1 - SS_{res} / SS_{tot}", label: "1" },
        },
      ],
    },
    {
      number: "3",
      title: "Results",
      paragraphs: [
        "Thirty-one of the forty deltas lost ground relative to the sea over the decade studied.",
        "The losses were steepest where “sediment starvation” behind dams coincided with groundwater pumping.",
      ],
      table: {
        caption: "Table 1. Deltas by the sign of their change.",
        rows: [
          ["Change", "Deltas"],
          ["Sinking faster than the sea rises", "31"],
          ["Keeping pace with the sea", "9"],
        ],
      },
      figure: {
        caption: "Figure 1: Mean change in relative elevation per year, by delta.",
        src: "change.png",
      },
    },
    {
      number: "4",
      title: "Discussion",
      paragraphs: [
        "The naïve reading of these figures is that dams alone drive the losses. That reading ignores the wells, which in several deltas draw more than the rivers deliver.",
        "A café owner in one delta town told us the floods now arrive in the dry season as well. Such reports cannot replace measurement, but they do agree with it.",
      ],
    },
  ],
};

/** Every sentence as ground truth: its words, heading chain, top section, own section and region. */
function truth() {
  const out = [];
  const sentences = (text) => text.split(/(?<=[.!?])\s+/u);
  const walk = (section, chain, top) => {
    const name = `${section.number} ${section.title}`;
    const here = [...chain, name];
    for (const p of section.paragraphs)
      for (const sentence of sentences(p))
        out.push({ sentence, chain: here.join(" > "), top, section: name, region: "body" });
    if (section.note)
      out.push({ sentence: section.note, chain: here.join(" > "), top, section: name, region: "footnote" });
    for (const sub of section.subsections ?? []) walk(sub, here, top);
  };
  for (const s of DOC.sections) walk(s, [], `${s.number} ${s.title}`);
  return {
    sentences: out,
    figures: DOC.sections.flatMap((s) => (s.figure ? [s.figure.caption] : [])),
    tables: DOC.sections.flatMap((s) => (s.table ? [s.table.caption] : [])),
    cells: DOC.sections.flatMap((s) => (s.table ? s.table.rows.flat() : [])),
    equations: DOC.sections.flatMap((s) =>
      (s.subsections ?? []).flatMap((u) => (u.equation ? [u.equation.label] : [])),
    ),
  };
}

function markdown() {
  const lines = ["---", `title: ${DOC.title}`, "lang: en", "---", ""];
  const notes = [];
  const walk = (section, level) => {
    lines.push(`${"#".repeat(level)} ${section.number} ${section.title}`, "");
    for (const p of section.paragraphs) lines.push(p, "");
    if (section.note) {
      notes.push(section.note);
      // The mark follows the first paragraph's last word.
      const at = lines.length - 2;
      lines[at] = `${lines[at]}[^${notes.length}]`;
    }
    if (section.equation) lines.push(`$$${section.equation.tex} \\tag{${section.equation.label}}$$`, "");
    if (section.table) {
      const [head, ...rows] = section.table.rows;
      lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
      for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
      lines.push("", `Table: ${section.table.caption}`, "");
    }
    if (section.figure) lines.push(`![${section.figure.caption}](${section.figure.src})`, "");
    for (const sub of section.subsections ?? []) walk(sub, level + 1);
  };
  for (const s of DOC.sections) walk(s, 1);
  for (const [i, note] of notes.entries()) lines.push(`[^${i + 1}]: ${note}`, "");
  return lines.join("\n");
}

const esc = (text) => text.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;");

/** HTML as a hand-written page has it: navigation, a main, inline markup inside sentences, notes at the end. */
function html() {
  const out = [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${esc(DOC.title)}</title>`,
    "<style>body { font-family: serif }</style><script>window.analytics = 'not text';</script></head><body>",
    '<nav><a href="/">Home</a> <a href="/papers">Papers</a></nav>',
    `<main><h1 class="title">${esc(DOC.title)}</h1>`,
  ];
  const notes = [];
  const walk = (section, level) => {
    out.push(`<section><h${level + 1}>${section.number}&nbsp;${esc(section.title)}</h${level + 1}>`);
    section.paragraphs.forEach((p, i) => {
      // Some words set in emphasis, as pages do, inside the sentences quoted.
      const marked = esc(p).replace(/\b(deltas|model|survey|reading)\b/u, "<em>$1</em>");
      const note =
        i === 0 && section.note
          ? `<sup><a href="#fn${notes.push(section.note)}" id="r${notes.length}">${notes.length}</a></sup>`
          : "";
      out.push(`<p>${marked}${note}</p>`);
    });
    if (section.equation)
      out.push(
        `<p><span class="math display">\\[${esc(section.equation.tex)} \\tag{${section.equation.label}}\\]</span></p>`,
      );
    if (section.table) {
      const [head, ...rows] = section.table.rows;
      out.push(`<table><caption>${esc(section.table.caption)}</caption>`);
      out.push(`<tr>${head.map((c) => `<th>${esc(c)}</th>`).join("")}</tr>`);
      for (const row of rows) out.push(`<tr>${row.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`);
      out.push("</table>");
    }
    if (section.figure)
      out.push(
        `<figure><img src="${section.figure.src}" alt=""><figcaption>${esc(section.figure.caption)}</figcaption></figure>`,
      );
    for (const sub of section.subsections ?? []) walk(sub, level + 1);
    out.push("</section>");
  };
  for (const s of DOC.sections) walk(s, 1);
  out.push('<section class="footnotes"><ol>');
  for (const [i, note] of notes.entries())
    out.push(`<li id="fn${i + 1}">${esc(note)} <a href="#r${i + 1}">↩</a></li>`);
  out.push("</ol></section></main>", "<footer>© The authors</footer></body></html>");
  return out.join("\n");
}

/** RFC-style plain text: numbered headings at the margin, paragraphs indented and wrapped at 72. */
function text() {
  const out = [DOC.title, ""];
  const wrap = (p) => {
    const lines = [];
    let line = "  ";
    for (const word of p.split(" ")) {
      if (line.length + word.length + 1 > 72) {
        lines.push(line);
        line = "  ";
      }
      line += ` ${word}`;
    }
    lines.push(line);
    return lines.join("\n");
  };
  const walk = (section) => {
    out.push(`${section.number}.  ${section.title}`, "");
    for (const p of section.paragraphs) out.push(wrap(p), "");
    if (section.note) out.push(wrap(`Note: ${section.note}`), "");
    if (section.table) out.push(wrap(section.table.caption), "");
    for (const row of section.table?.rows ?? []) out.push(`     ${row.join("   ")}`);
    if (section.table) out.push("");
    if (section.figure) out.push(wrap(section.figure.caption), "");
    for (const sub of section.subsections ?? []) walk(sub);
  };
  for (const s of DOC.sections) walk(s);
  return out.join("\n");
}

const dir = process.argv[2] ?? join("test", "fixtures", "flow");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "corpus.md"), markdown());
writeFileSync(join(dir, "corpus.html"), html());
writeFileSync(join(dir, "corpus.txt"), text());
writeFileSync(join(dir, "truth.json"), `${JSON.stringify(truth(), null, 2)}\n`);
try {
  execFileSync("pandoc", [
    join(dir, "corpus.md"),
    "-s",
    "-f",
    "markdown",
    "-t",
    "html5",
    "-o",
    join(dir, "corpus.pandoc.html"),
  ]);
} catch (error) {
  console.error(`pandoc not run (${error.message.split("\n")[0]}); corpus.pandoc.html left as it was`);
}
