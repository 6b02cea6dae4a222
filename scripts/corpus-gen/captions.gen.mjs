// Generated documents with figure captions, across document classes and TeX engines: caption
// package label separators (colon, period, space, en dash, pipe, spaced colon), captions below and
// above their figures, subfigures (subcaption), side-by-side minipages, wrapfig, sideways figures
// (rotating), boxed listings and figures of text only; and the traps that look like captions but are
// not: table captions, paragraphs that open with a reference, mentions in sentences, numbers beyond
// the last figure, panel letters a figure does not have. Truth comes from the .aux (\newlabel) and
// the template's trap marks; Office documents with "Figure 1:", "Figure 1 :", "Figure 1." captions
// come from captions-office.gen.mjs.
import { classDocuments, texHas } from "./lib/latex.mjs";
import { latexClasses } from "./lib/latex-classes.mjs";
import { paragraph, sentence } from "./lib/prose.mjs";

export const name = "captions";

/** Document classes: how to open the document and its sectioning. */
const CLASSES = latexClasses(
  [
    "article",
    "article-twocolumn",
    "report",
    "book",
    "amsart",
    "revtex-aps",
    "ieee-conference",
    "acm-sigconf",
    "elsarticle",
    "llncs",
    "memoir",
    "scrartcl",
  ],
  // Classes that set their own caption layout (the caption package's separators are not tried there).
  {
    "revtex-aps": { ownCaptions: true },
    "ieee-conference": { ownCaptions: true },
    "acm-sigconf": { ownCaptions: true },
  },
);

/** Caption label separators of the caption package, and two declared here. */
const SEPARATORS = ["colon", "period", "space", "endash", "pipe", "spacedcolon"];

/** What a figure holds, by kind; the plots are TikZ drawings (path objects in the PDF). */
const KINDS = ["plot", "plot", "plot", "subfigures", "sidebyside", "listing", "textonly", "wrap", "sideways"];

export function documents({ rng }) {
  const hasFontspec = texHas("fontspec.sty");
  return classDocuments({
    rng,
    classes: CLASSES,
    ciClasses: new Set(["article", "revtex-aps", "ieee-conference", "report"]),
    tex: document,
    unicode: (profile) => (hasFontspec && !profile.acm ? true : undefined),
    extraFalse: beyond,
  });
}

/** One past the last figure number, and a panel letter past the last of each figure with panels. */
function beyond(labels) {
  const all = [...(labels.figure ?? [])];
  const out = [];
  const plain = all.filter((l) => /^\d+$/.test(l)).map(Number);
  if (plain.length > 0)
    out.push({ kind: "figure", label: String(Math.max(...plain) + 1), note: "one past the last figure" });
  const dotted = all.filter((l) => /^\d+\.\d+$/.test(l));
  if (dotted.length > 0) {
    const last = dotted
      .map((l) => l.split(".").map(Number))
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .pop();
    out.push({
      kind: "figure",
      label: `${last[0]}.${last[1] + 1}`,
      note: "one past the last figure of a chapter",
    });
  }
  const panels = new Map();
  for (const l of all) {
    const m = /^(.*\d)([a-z])$/.exec(l);
    if (m && (panels.get(m[1]) ?? "") < m[2]) panels.set(m[1], m[2]);
  }
  for (const [figure, letter] of panels) {
    const next = String.fromCharCode(letter.charCodeAt(0) + 1);
    out.push({
      kind: "figure",
      label: `${figure}${next}`,
      note: `figure ${figure} has panels up to (${letter})`,
    });
  }
  return out;
}

function document(profile, rng, unicode) {
  const separator = rng.pick(SEPARATORS);
  const above = rng.chance(0.2);
  const state = { key: 0, rng, profile, above, trap: 40 };
  const lines = [`\\documentclass[${profile.options.join(",")}]{${profile.cls}}`];
  if (unicode) lines.push("\\usepackage{fontspec}");
  else lines.push("\\usepackage[T1]{fontenc}");
  lines.push("\\usepackage{tikz}", "\\usepackage{wrapfig}", "\\usepackage{rotating}");
  if (profile.acm)
    lines.push(
      "\\settopmatter{printacmref=false}",
      "\\setcopyright{none}",
      "\\renewcommand\\footnotetextcopyrightpermission[1]{}",
    );
  // Classes with captions of their own keep them; the others set the separator with the caption package.
  if (!profile.ownCaptions || rng.chance(0.3)) {
    lines.push("\\usepackage{caption}");
    lines.push("\\DeclareCaptionLabelSeparator{pipe}{\\ \\textbar\\ }");
    lines.push("\\DeclareCaptionLabelSeparator{spacedcolon}{\\ :\\ }");
    lines.push(`\\captionsetup{labelsep=${separator}${separator === "space" ? ",labelfont=bf" : ""}}`);
    state.captionPackage = true;
  }
  lines.push("\\usepackage{subcaption}");
  if (rng.chance(0.5)) lines.push("\\usepackage{hyperref}");
  lines.push(
    "\\newcommand{\\plot}[1][4]{\\begin{tikzpicture}\\draw (0,0) rectangle (#1,2);\\draw (0.2,0.3) -- (1.2,1.6) -- (2.4,0.9) -- (#1-0.2,1.8);\\end{tikzpicture}}",
  );
  lines.push("\\begin{document}");
  if (profile.llncs)
    lines.push("\\title{A Generated Study}\\author{A. Author}\\institute{Institute}\\maketitle");
  else if (profile.acm) lines.push("\\title{A Generated Study}\\author{A. Author}\\maketitle");
  else lines.push("\\title{A Generated Study}\\author{A. Author}\\date{}\\maketitle");
  const sections = rng.int(3, 4);
  for (let s = 0; s < sections; s++) lines.push(section(state, s));
  lines.push("\\end{document}");
  return `${lines.join("\n")}\n`;
}

function section(state, s) {
  const { rng, profile } = state;
  const out = [`\\${profile.section}{Part ${s + 1}}`, paragraph(rng)];
  const blocks = rng.int(2, 4);
  for (let b = 0; b < blocks; b++) {
    out.push(figure(state));
    out.push(paragraph(rng, [2, 4]));
    if (rng.chance(0.5)) out.push(trap(state));
    out.push(paragraph(rng, [2, 4]));
  }
  return out.join("\n\n");
}

function mark(state) {
  const key = `fig${++state.key}`;
  return `\\label{${key}}\\gttrue{figure}{${key}}`;
}

function caption(state, words) {
  return `\\caption{${words}}${mark(state)}`;
}

/** A float whose caption sits below its content, or above it when the document sets them so. */
function float(state, body, words, env = "figure") {
  const cap = caption(state, words);
  const inner = state.above ? `${cap}\n${body}` : `${body}\n${cap}`;
  return `\\begin{${env}}[htbp]\n\\centering\n${inner}\n\\end{${env}}`;
}

function figure(state) {
  const { rng, profile } = state;
  const kind = rng.pick(KINDS);
  const words = sentence(rng, 5, 12);
  const width = profile.twoColumn ? 3 : 4.5;
  switch (kind) {
    case "subfigures": {
      const panels = rng.int(2, 3);
      const w = (0.95 / panels).toFixed(2);
      const subs = Array.from(
        { length: panels },
        () =>
          `\\begin{subfigure}{${w}\\linewidth}\\centering\\resizebox{\\linewidth}{!}{\\plot}\\caption{${sentence(rng, 2, 4).slice(0, -1)}} ${mark(state)}\\end{subfigure}`,
      );
      return float(state, subs.join("\\hfill\n"), words);
    }
    case "sidebyside": {
      if (state.above) return float(state, `\\plot[${width}]`, words);
      // Half the pairs (by the count of captions before them) are set 0.49 wide: their captions are
      // parted by about a word space.
      const share = state.key % 4 < 2 ? "0.47" : "0.49";
      const half = (w) =>
        `\\begin{minipage}[t]{${share}\\linewidth}\\centering\\resizebox{\\linewidth}{!}{\\plot}\n${caption(state, w)}\\end{minipage}`;
      return `\\begin{figure}[htbp]\n${half(words)}\\hfill\n${half(sentence(rng, 4, 8))}\n\\end{figure}`;
    }
    case "listing":
      return float(
        state,
        `\\fbox{\\begin{minipage}{0.8\\linewidth}\\ttfamily 1: read the input\\\\ 2: update the state\\\\ 3: return the estimate\\end{minipage}}`,
        words,
      );
    case "textonly":
      return float(state, `\\begin{minipage}{0.8\\linewidth}${sentence(rng, 12, 20)}\\end{minipage}`, words);
    case "wrap":
      if (profile.twoColumn || state.above) return float(state, `\\plot[${width}]`, words);
      return `\\begin{wrapfigure}{r}{0.45\\textwidth}\\centering\\plot[5]\n${caption(state, words)}\\end{wrapfigure}\n${paragraph(rng, [4, 6])}`;
    case "sideways":
      if (profile.twoColumn) return float(state, `\\plot[${width}]`, words);
      return `\\begin{sidewaysfigure}\\centering\\plot[12]\n${caption(state, words)}\\end{sidewaysfigure}`;
    default:
      return float(state, `\\plot[${width}]`, words);
  }
}

/** A caption-like line that is no figure caption; its number is one no figure carries. */
function trap(state) {
  const { rng } = state;
  const n = ++state.trap;
  const f = `\\gtfalse{figure}{${n}}`;
  switch (rng.pick(["table", "paragraph", "mention", "lineStart"])) {
    case "table": {
      // Table numbers run far from the figure numbers, so a table's number is no figure's.
      const body = `\\begin{tabular}{lr}\\hline Case & Value \\\\ \\hline A & 0.${rng.int(10, 99)} \\\\ B & 0.${rng.int(10, 99)} \\\\ \\hline\\end{tabular}`;
      const cap = `\\setcounter{table}{${n - 1}}\\caption{${sentence(rng, 4, 8)}}${f}`;
      return `\\begin{table}[htbp]\n\\centering\n${cap}\n${body}\n\\end{table}`;
    }
    case "paragraph":
      return `\\par Figure ${n}${f} shows ${sentence(rng, 14, 22)} ${sentence(rng)}`;
    case "mention":
      return `${sentence(rng, 6, 10)} As Fig.~${n}${f} shows, ${sentence(rng, 8, 14)}`;
    default:
      return `${sentence(rng, 16, 24)} The result is the one of\\\\ Figure ${n}.${f} ${sentence(rng, 14, 22)}`;
  }
}
