// Layouts the equation rules were not written against, each a class of documents: beamer frames
// whose label stands at the frame's right margin (frames of a display alone, displays in blocks and
// columns, wide and narrow text margins); elsarticle displays breaking across pages, so that a page
// opens with a display's row; a magazine-like page mixing three and two columns (multicol); numbered
// displays inside boxed, shaded theorems (tcolorbox, mdframed). Truth comes from the .aux marks; the
// traps are the equation generator's (prose references, enumerations, superscripts, lines ending
// in a number, table cells).

import { beyondLast, display, formula, mark, trap } from "./equations.gen.mjs";
import { texHas } from "./lib/latex.mjs";
import { paragraph, sentence } from "./lib/prose.mjs";

export const name = "eqlayout";

const TRAPS = ["enumerate", "superscript", "prose", "lineEnd", "table"];

const LAYOUTS = [
  { id: "beamer-margin", needs: "beamer.cls", tex: beamerDeck },
  { id: "elsarticle-pagetop", needs: "elsarticle.cls", tex: pageTop },
  { id: "multicol-mixed", needs: "multicol.sty", tex: mixedColumns },
  // Not in the CI sample yet: a box of two lines of words gives its label no frame (35 of 36).
  { id: "boxed-theorems", needs: "tcolorbox.sty", tex: boxed, ci: false },
];

export function documents({ rng }) {
  const docs = [];
  for (const layout of LAYOUTS) {
    if (!texHas(layout.needs)) continue;
    for (let variant = 0; variant < 2; variant++)
      docs.push({
        id: `${layout.id}-${variant}`,
        group: `${layout.id}/pdflatex`,
        ci: variant === 0 && layout.ci !== false,
        engine: "pdflatex",
        tex: layout.tex(rng.fork(`${layout.id}-${variant}`), variant),
        extraFalse: beyondLast,
      });
  }
  return docs;
}

const state = (rng, profile = {}) => ({ key: 0, trap: 60, rng, profile });

/**
 * A deck whose frames hold a display alone, a display under a line or two, a display in a block, or
 * in the wider of two columns; the text margins differ between the two variants (beamer sets the
 * label at the text width's right edge, the frame's right margin).
 */
function beamerDeck(rng, variant) {
  const s = state(rng, { beamer: true });
  const margins = variant === 0 ? ["1cm", "1cm"] : [rng.pick(["0.4cm", "2cm"]), rng.pick(["0.4cm", "1.5cm"])];
  const lines = [
    "\\documentclass{beamer}",
    variant === 0 ? "\\usetheme{default}" : `\\usetheme{${rng.pick(["Madrid", "CambridgeUS", "Boadilla"])}}`,
    `\\setbeamersize{text margin left=${margins[0]},text margin right=${margins[1]}}`,
    "\\usepackage[T1]{fontenc}",
    "\\usepackage{amsmath,amssymb}",
    "\\begin{document}",
  ];
  const frames = rng.int(9, 12);
  for (let f = 0; f < frames; f++) {
    const kind = rng.pick(["alone", "under", "block", "columns", "two"]);
    const body = [`\\begin{frame}{Result ${f + 1}}`];
    const eq = () => display(s, ["equation", "equation", "align", "gather"]);
    if (kind === "alone") body.push(eq());
    else if (kind === "under") body.push(sentence(rng, 6, 12), eq(), sentence(rng, 4, 8));
    else if (kind === "block")
      body.push(
        `\\begin{block}{${sentence(rng, 2, 3).slice(0, -1)}}`,
        sentence(rng, 5, 9),
        eq(),
        "\\end{block}",
      );
    else if (kind === "columns")
      body.push(
        "\\begin{columns}",
        "\\begin{column}{0.62\\textwidth}",
        eq(),
        "\\end{column}",
        "\\begin{column}{0.33\\textwidth}",
        sentence(rng, 5, 9),
        "\\end{column}",
        "\\end{columns}",
      );
    else body.push(eq(), sentence(rng, 3, 6), eq());
    if (rng.chance(0.3)) body.push(trap(s, ["prose", "superscript"]));
    body.push("\\end{frame}");
    lines.push(body.join("\n"));
  }
  lines.push("\\end{document}");
  return `${lines.join("\n")}\n`;
}

/** An aligned display of many rows that may break across pages, so a page opens with one of its rows. */
function longAlign(s) {
  const rows = Array.from({ length: s.rng.int(5, 9) }, () => {
    const [lhs, rhs] = formula(s.rng).split(" = ");
    return `${lhs} &= ${rhs} ${mark(s).tex}`;
  });
  return `\\begin{align}\n${rows.join(" \\\\\n")}\n\\end{align}`;
}

/** elsarticle with displays allowed to break across pages and paragraphs of varied length before them. */
function pageTop(rng) {
  const s = state(rng);
  const lines = [
    "\\documentclass[preprint,12pt]{elsarticle}",
    "\\usepackage[T1]{fontenc}",
    "\\usepackage{amsmath,amssymb}",
    "\\allowdisplaybreaks",
    "\\begin{document}",
    "\\begin{frontmatter}\\title{A Generated Study}\\author{A. Author}\\end{frontmatter}",
  ];
  const sections = rng.int(3, 4);
  for (let n = 0; n < sections; n++) {
    lines.push(`\\section{Part ${n + 1}}`, paragraph(rng));
    const blocks = rng.int(3, 5);
    for (let b = 0; b < blocks; b++) {
      lines.push(paragraph(rng, [1, rng.int(2, 6)]));
      lines.push(rng.chance(0.6) ? longAlign(s) : display(s));
      if (rng.chance(0.4)) lines.push(trap(s, TRAPS));
    }
  }
  lines.push("\\end{document}");
  return `${lines.join("\n")}\n`;
}

/** A magazine-like page: a lead in three columns, then two, then three again, displays in each. */
function mixedColumns(rng, variant) {
  const s = state(rng, { twoColumn: true });
  const lines = [
    `\\documentclass[${variant === 0 ? "10pt" : "9pt"}]{${variant === 0 ? "article" : "extarticle"}}`,
    "\\usepackage[T1]{fontenc}",
    "\\usepackage{amsmath,amssymb}",
    "\\usepackage{multicol}",
    "\\usepackage[a4paper,margin=15mm]{geometry}",
    "\\setlength{\\columnsep}{5mm}",
    "\\begin{document}",
  ];
  const parts = rng.int(4, 6);
  for (let p = 0; p < parts; p++) {
    const columns = p % 2 === 0 ? 3 : 2;
    const body = [`\\begin{multicols}{${columns}}`, `\\section*{Story ${p + 1}}`, paragraph(rng, [2, 3])];
    const blocks = rng.int(2, 3);
    for (let b = 0; b < blocks; b++) {
      body.push(display(s, ["equation", "equation", "align", "gather", "split"]), paragraph(rng, [1, 3]));
      if (rng.chance(0.4))
        body.push(
          trap(
            s,
            TRAPS.filter((t) => t !== "table"),
          ),
        );
    }
    body.push("\\end{multicols}");
    lines.push(body.join("\n\n"));
  }
  lines.push("\\end{document}");
  return `${lines.join("\n")}\n`;
}

/** Numbered displays inside shaded, framed theorem boxes (tcolorbox, or mdframed where texlive has it). */
function boxed(rng, variant) {
  const s = state(rng);
  const useMd = variant === 1 && texHas("mdframed.sty");
  const lines = [
    "\\documentclass[11pt]{article}",
    "\\usepackage[T1]{fontenc}",
    "\\usepackage{amsmath,amssymb,amsthm}",
    "\\usepackage[a4paper,margin=25mm]{geometry}",
    "\\usepackage{xcolor}",
    useMd ? "\\usepackage{mdframed}" : "\\usepackage[most]{tcolorbox}",
    useMd
      ? "\\newmdtheoremenv[backgroundcolor=blue!6,linecolor=blue!50,innerleftmargin=12pt,innerrightmargin=12pt]{theorem}{Theorem}"
      : "\\newtcbtheorem[number within=section]{theorem}{Theorem}{colback=gray!10,colframe=black!60,fonttitle=\\bfseries}{th}",
    "\\begin{document}",
  ];
  const sections = rng.int(3, 4);
  for (let n = 0; n < sections; n++) {
    lines.push(`\\section{Part ${n + 1}}`, paragraph(rng));
    const blocks = rng.int(2, 4);
    for (let b = 0; b < blocks; b++) {
      const inside = [
        sentence(rng, 8, 14),
        display(s, ["equation", "equation", "align", "gather", "split"]),
        sentence(rng, 5, 9),
      ];
      if (useMd) lines.push(`\\begin{theorem}\n${inside.join("\n")}\n\\end{theorem}`);
      else
        lines.push(
          `\\begin{theorem}{${sentence(rng, 2, 3).slice(0, -1)}}{t${n}-${b}}\n${inside.join("\n")}\n\\end{theorem}`,
        );
      lines.push(paragraph(rng, [1, 3]));
      if (rng.chance(0.5)) lines.push(display(s), paragraph(rng, [1, 2]));
      if (rng.chance(0.4)) lines.push(trap(s, TRAPS));
    }
  }
  lines.push("\\end{document}");
  return `${lines.join("\n")}\n`;
}
