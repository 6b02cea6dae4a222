// Generated documents with numbered displayed equations, across document classes and TeX engines,
// and the traps that look like equation labels but are not (enumerations, proof cases, table cells,
// superscripts, prose, page numbers, margin notes, numbered example sentences). Office documents
// with formula objects and right-tab labels come from equations-office.gen.mjs.
import { classDocuments, texHas } from "./lib/latex.mjs";
import { latexClasses } from "./lib/latex-classes.mjs";
import { paragraph, sentence } from "./lib/prose.mjs";

export const name = "equations";

/** Document classes: how to open the document, its sectioning, and what the class allows. */
const CLASSES = latexClasses(
  [
    "article",
    "article-fleqn",
    "article-leqno",
    "article-twocolumn",
    "report",
    "book",
    "amsart",
    "amsbook",
    "revtex-aps",
    "ieee-journal",
    "ieee-conference",
    "acm-sigconf",
    "acm-acmsmall",
    "elsarticle",
    "llncs",
    "memoir",
    "scrartcl",
    "beamer",
    "beamer-themes",
  ],
  {
    // Equations numbered within the class's top sectioning unit.
    report: { within: "chapter" },
    book: { within: "chapter" },
    amsart: { within: "section" },
    amsbook: { within: "chapter" },
    memoir: { within: "chapter" },
    // Classes whose layout leaves no room for margin notes (the margin-note trap is not set there).
    "revtex-aps": { noMarginpar: true },
    "ieee-journal": { noMarginpar: true },
    "ieee-conference": { noMarginpar: true },
    "acm-sigconf": { noMarginpar: true },
    beamer: { noMarginpar: true },
    "beamer-themes": { noMarginpar: true },
  },
);

/** Unicode math fonts for XeLaTeX and LuaLaTeX, used where texlive has them. */
const MATH_FONTS = [
  { file: "latinmodern-math.otf" },
  { file: "STIXTwoMath-Regular.otf", text: "STIXTwoText-Regular.otf" },
  { file: "LibertinusMath-Regular.otf", text: "LibertinusSerif-Regular.otf" },
  { file: "XITSMath-Regular.otf" },
];

/** Formula pieces: each is an expression; long displays chain several. */
const TERMS = [
  String.raw`\sum_{i=1}^{n} w_{i} x_{i} + b`,
  String.raw`\frac{\partial u}{\partial t} - D \nabla^{2} u`,
  String.raw`\int_{0}^{\infty} e^{-\lambda t} \, dt`,
  String.raw`p(\theta \mid x) \, p(x)`,
  String.raw`\lVert A x - y \rVert_{2}^{2}`,
  String.raw`\frac{1}{2\sigma^{2}} \sum_{k} (y_{k} - \mu)^{2}`,
  String.raw`\alpha \beta^{2} + \gamma \log \delta`,
  String.raw`x_{t} - \eta \nabla f(x_{t})`,
  String.raw`\prod_{j=1}^{m} (1 - q_{j})`,
  String.raw`\sqrt{a^{2} + b^{2}}`,
  String.raw`\mathbb{E}[X] + \operatorname{Var}(Y)`,
  String.raw`\frac{n!}{k!\,(n-k)!}`,
];
const LHS = [
  "f(x)",
  "E_{k}",
  "L(\\theta)",
  "u(t)",
  "y",
  "J",
  "\\Phi(s)",
  "r_{n}",
  "z",
  "g(\\xi)",
  "h_{ij}",
  "V",
];

export function documents({ rng }) {
  const hasUnicodeMath = texHas("unicode-math.sty");
  const fonts = MATH_FONTS.filter((f) => texHas(f.file) && (!f.text || texHas(f.text)));
  const ciClasses = new Set([
    "article",
    "article-fleqn",
    "amsart",
    "revtex-aps",
    "ieee-conference",
    "beamer",
    "beamer-themes",
  ]);
  return classDocuments({
    rng,
    classes: CLASSES,
    ciClasses,
    tex: document,
    unicode: (profile, count) =>
      !hasUnicodeMath || fonts.length === 0 || profile.acm || profile.beamer
        ? undefined
        : fonts[count % fonts.length],
    extraFalse: beyondLast,
  });
}

/** The number after the last plain equation number, which the document never prints. */
export function beyondLast(labels) {
  const plain = [...(labels.equation ?? [])].filter((l) => /^\d+$/.test(l)).map(Number);
  if (plain.length === 0) return [];
  const next = Math.max(...plain) + 1;
  return [{ kind: "equation", label: String(next), note: "one past the last equation number" }];
}

function document(profile, rng, font) {
  const state = { key: 0, trap: 60, rng, profile };
  const opts = [...profile.options];
  const lines = [`\\documentclass[${opts.join(",")}]{${profile.cls}}`];
  if (profile.themes) {
    lines.push(`\\usetheme{${rng.pick(profile.themes)}}`);
    if (rng.chance(0.5)) {
      const [left, right] = [rng.pick(profile.margins), rng.pick(profile.margins)];
      lines.push(`\\setbeamersize{text margin left=${left},text margin right=${right}}`);
    }
  }
  if (font) {
    lines.push("\\usepackage{amsmath,amssymb}", "\\usepackage{unicode-math}");
    lines.push(`\\setmathfont{${font.file}}`);
    if (font.text) lines.push(`\\setmainfont{${font.text}}`);
  } else {
    lines.push("\\usepackage[T1]{fontenc}", "\\usepackage{amsmath,amssymb}");
  }
  if (profile.acm)
    lines.push(
      "\\settopmatter{printacmref=false}",
      "\\setcopyright{none}",
      "\\renewcommand\\footnotetextcopyrightpermission[1]{}",
    );
  if (!profile.beamer && rng.chance(0.6)) lines.push("\\usepackage{hyperref}");
  // Section-numbered equations leave plain numbers free, so page numbers printed "(5)" are traps.
  const pageTraps =
    !profile.within && !profile.beamer && !profile.acm && !profile.twoColumn && rng.chance(0.4);
  if (pageTraps) {
    lines.push("\\numberwithin{equation}{section}");
    lines.push(
      "\\makeatletter\\def\\ps@parenfoot{\\def\\@oddhead{}\\def\\@evenhead{}\\def\\@oddfoot{\\hfil(\\thepage)\\gtfalse{equation}{\\thepage}\\hfil}\\let\\@evenfoot\\@oddfoot}\\makeatother",
      "\\pagestyle{parenfoot}",
    );
  } else if (profile.within) lines.push(`\\numberwithin{equation}{${profile.within}}`);
  lines.push("\\begin{document}");
  if (profile.llncs)
    lines.push("\\title{A Generated Study}\\author{A. Author}\\institute{Institute}\\maketitle");
  else if (profile.acm) lines.push("\\title{A Generated Study}\\author{A. Author}\\maketitle");
  else if (!profile.beamer) lines.push("\\title{A Generated Study}\\author{A. Author}\\date{}\\maketitle");
  const sections = profile.beamer ? rng.int(6, 9) : rng.int(3, 5);
  for (let s = 0; s < sections; s++) lines.push(section(state, s));
  lines.push("\\end{document}");
  return `${lines.join("\n")}\n`;
}

function section(state, s) {
  const { rng, profile } = state;
  if (profile.beamer) return frame(state, s);
  const out = [`\\${profile.section}{Part ${s + 1}}`, paragraph(rng)];
  const blocks = rng.int(3, 5);
  for (let b = 0; b < blocks; b++) {
    out.push(display(state));
    out.push(rng.chance(0.5) ? paragraph(rng, [1, 3]) : `where ${sentence(rng, 8, 14)}`);
    if (rng.chance(0.55)) out.push(trap(state));
    out.push(paragraph(rng, [2, 4]));
  }
  return out.join("\n\n");
}

function frame(state, s) {
  const { rng } = state;
  const items = Array.from({ length: rng.int(1, 3) }, () => `\\item ${sentence(rng, 5, 9)}`);
  const body = [
    ...(state.profile.themes ? [`\\section{Topic ${s + 1}}`] : []),
    `\\begin{frame}{Topic ${s + 1}}`,
    "\\begin{itemize}",
    ...items,
    "\\end{itemize}",
  ];
  body.push(display(state, ["equation", "equation", "align", "gather", "split"]));
  if (rng.chance(0.4)) body.push(trap(state, ["prose", "superscript"]));
  body.push("\\end{frame}");
  return body.join("\n");
}

export function formula(rng, terms = rng.int(1, 2)) {
  const parts = Array.from({ length: terms }, () => rng.pick(TERMS));
  return `${rng.pick(LHS)} = ${parts.join(" + ")}`;
}

export function mark(state) {
  const key = `eq${++state.key}`;
  return { key, tex: `\\label{${key}}\\gttrue{equation}{${key}}` };
}

const KINDS = [
  "equation",
  "equation",
  "long",
  "align",
  "alignat",
  "gather",
  "multline",
  "split",
  "eqnarray",
  "subequations",
  "tag",
  "cases",
  "unnumbered",
];

export function display(state, kinds = KINDS) {
  const { rng, profile } = state;
  const kind = rng.pick(kinds);
  const row = () => {
    const [lhs, rhs] = formula(rng).split(" = ");
    return `${lhs} &= ${rhs}`;
  };
  switch (kind) {
    case "long": {
      const terms = profile.twoColumn ? 3 : 5;
      return `\\begin{equation}\n${formula(rng, terms)} ${mark(state).tex}\n\\end{equation}`;
    }
    case "align":
    case "alignat": {
      const rows = Array.from({ length: rng.int(2, 4) }, () => {
        if (rng.chance(0.25)) return `${row()} \\nonumber`;
        return `${row()} ${mark(state).tex}`;
      });
      if (kind === "alignat")
        return `\\begin{alignat}{2}\n${rows.map((r) => r.replace("&=", "&=&\\quad ")).join(" \\\\\n")}\n\\end{alignat}`;
      return `\\begin{align}\n${rows.join(" \\\\\n")}\n\\end{align}`;
    }
    case "gather": {
      const rows = Array.from({ length: rng.int(2, 3) }, () => `${formula(rng)} ${mark(state).tex}`);
      return `\\begin{gather}\n${rows.join(" \\\\\n")}\n\\end{gather}`;
    }
    case "multline": {
      const parts = Array.from({ length: 3 }, () => rng.pick(TERMS));
      return `\\begin{multline}\n${rng.pick(LHS)} = ${parts[0]} \\\\\n + ${parts[1]} \\\\\n + ${parts[2]} ${mark(state).tex}\n\\end{multline}`;
    }
    case "split": {
      const [lhs, rhs] = formula(rng).split(" = ");
      return `\\begin{equation}\n\\begin{split}\n${lhs} &= ${rhs} \\\\\n&= ${rng.pick(TERMS)}\n\\end{split}\n${mark(state).tex}\n\\end{equation}`;
    }
    case "eqnarray": {
      const rows = Array.from({ length: rng.int(2, 3) }, () => {
        const [lhs, rhs] = formula(rng).split(" = ");
        return `${lhs} &=& ${rhs} ${mark(state).tex}`;
      });
      return `\\begin{eqnarray}\n${rows.join(" \\\\\n")}\n\\end{eqnarray}`;
    }
    case "subequations": {
      const parent = `eq${++state.key}`;
      const rows = Array.from({ length: rng.int(2, 3) }, () => `${row()} ${mark(state).tex}`);
      return `\\begin{subequations}\\label{${parent}}\\gtfalselabel{equation}{${parent}}\n\\begin{align}\n${rows.join(" \\\\\n")}\n\\end{align}\n\\end{subequations}`;
    }
    case "tag": {
      const tag = `${rng.pick(["A", "S", "B"])}${++state.key}`;
      return `\\begin{equation}\n${formula(rng)} \\tag{${tag}} ${mark(state).tex}\n\\end{equation}`;
    }
    case "cases":
      return `\\begin{equation}\n${rng.pick(LHS)} = \\begin{cases} ${rng.pick(TERMS)} & \\text{if } x > 0, \\\\ ${rng.pick(TERMS)} & \\text{otherwise} \\end{cases} ${mark(state).tex}\n\\end{equation}`;
    case "unnumbered":
      return `\\[\n${formula(rng)}\n\\]`;
    default:
      return `\\begin{equation}\n${formula(rng)} ${mark(state).tex}\n\\end{equation}`;
  }
}

const TRAPS = [
  "enumerate",
  "proof",
  "superscript",
  "prose",
  "table",
  "margin",
  "example",
  "lineEnd",
  "stderr",
];

/** A label-like token that is no equation label; its number is one no equation carries. */
export function trap(state, kinds = TRAPS) {
  const { rng, profile } = state;
  const n = ++state.trap;
  const f = `\\gtfalse{equation}{${n}}`;
  const kind = rng.pick(kinds.filter((k) => k !== "margin" || !profile.noMarginpar));
  switch (kind) {
    case "enumerate": {
      state.trap += 2;
      const items = [0, 1, 2].map((i) => `\\item ${sentence(rng, 8, 16)}\\gtfalse{equation}{${n + i}}`);
      return `\\begin{enumerate}\\renewcommand\\labelenumi{(\\arabic{enumi})}\\setcounter{enumi}{${n - 1}}\n${items.join("\n")}\n\\end{enumerate}`;
    }
    case "proof":
      state.trap += 1;
      return `\\noindent\\textit{Proof.} (${n})${f} Suppose $x > 0$; then ${sentence(rng, 8, 12)} (${n + 1})\\gtfalse{equation}{${n + 1}} Otherwise ${sentence(rng, 8, 12)}`;
    case "superscript":
      return `${sentence(rng, 6, 10)} The estimate $w^{(${n})}$${f} of the weights ${sentence(rng, 6, 10)}`;
    case "prose":
      return `${sentence(rng, 6, 10)} As noted in (${n})${f}, ${sentence(rng, 6, 10)}`;
    case "table": {
      state.trap += 1;
      // Set at the text size or smaller, rows as tight as 0.85 of a line, cells of mathematics with
      // signs (a display's signs too): the rows are still a table's, the "(n)" a cell. A fork, so the
      // style leaves the document's other draws as they were.
      const style = rng.fork(`table-${n}`);
      const size = style.pick(["", "\\small", "\\footnotesize"]);
      const stretch = style.pick(["1", "0.85"]);
      const value = () =>
        style.chance(0.5)
          ? `$${style.int(0, 9)}.${style.int(10, 99)} \\pm 0.${style.int(10, 99)}$`
          : `0.${style.int(10, 99)}`;
      return `\\begin{center}${size}\\renewcommand{\\arraystretch}{${stretch}}\\begin{tabular}{lrrr}\\hline Model & Estimate & Error & Case \\\\ \\hline A & ${value()} & ${value()} & (${n})${f} \\\\ B & ${value()} & ${value()} & (${n + 1})\\gtfalse{equation}{${n + 1}} \\\\ \\hline\\end{tabular}\\end{center}`;
    }
    case "margin":
      return `${sentence(rng, 10, 16)}\\marginpar{(${n})${f}} ${sentence(rng, 10, 16)}`;
    case "example":
      return `\\par\\noindent(${n})${f}\\hspace{1.5em}\\parbox[t]{0.8\\linewidth}{${sentence(rng, 6, 10)}}\\par`;
    case "lineEnd":
      return `\\par\\noindent ${sentence(rng, 5, 8)}\\hfill(${n})${f}\\par`;
    default: {
      const err = `0.0${rng.int(10, 99)}`;
      return `\\begin{center}\\begin{tabular}{lrr}\\hline Variable & Coefficient & Std. error \\\\ \\hline Age & 0.214 & (${err})\\gtfalse{equation}{${err}} \\\\ Income & 1.032 & (0.${rng.int(100, 999)}) \\\\ \\hline\\end{tabular}\\end{center}`;
    }
  }
}
