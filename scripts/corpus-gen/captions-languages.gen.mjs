// Figure captions as babel prints them in other languages: one document per language (German,
// French, Spanish, Italian, Portuguese, Dutch, Polish, Russian), lualatex with a Unicode font, so each
// caption's keyword is babel's own \figurename (Abbildung, Figure in small capitals with a spaced colon,
// Figura, Figuur, Rysunek, Рис.). A German variant renames it "Abb." as theses do. The traps are the
// language's own: table captions (Tabelle, Tableau, Cuadro, Tabella, Tabela, Tabel, Таблица), a
// paragraph opening with the figure word, a mention in a sentence. Truth comes from the .aux marks.
import { texHas } from "./lib/latex.mjs";
import { paragraph, sentence } from "./lib/prose.mjs";

export const name = "captions-lang";

/** babel's option, the word a paragraph and a mention name a figure with, and "shows". */
const LANGUAGES = [
  { id: "de", babel: "ngerman", figure: "Abbildung", shows: "zeigt" },
  { id: "de-abb", babel: "ngerman", figure: "Abb.", shows: "zeigt", rename: "Abb." },
  { id: "fr", babel: "french", figure: "Figure", shows: "montre" },
  { id: "es", babel: "spanish", figure: "Figura", shows: "muestra" },
  { id: "it", babel: "italian", figure: "Figura", shows: "mostra" },
  { id: "pt", babel: "portuguese", figure: "Figura", shows: "mostra" },
  { id: "nl", babel: "dutch", figure: "Figuur", shows: "toont" },
  { id: "pl", babel: "polish", figure: "Rysunek", shows: "pokazuje" },
  { id: "ru", babel: "russian", figure: "Рис.", shows: "показывает" },
];

/** The file each babel language loads, where it is not named after the option. */
const LDF = { portuguese: "portuges.ldf", russian: "russianb.ldf" };

export function documents({ rng }) {
  // The Unicode font babel's Cyrillic needs; without it (or without a language's babel file) no documents.
  if (!texHas("cmunrm.otf")) return [];
  return LANGUAGES.filter((l) => texHas(LDF[l.babel] ?? `${l.babel}.ldf`)).map((language) => ({
    id: `babel-${language.id}`,
    group: `babel/${language.id}`,
    ci: true,
    engine: "lualatex",
    tex: document(language, rng.fork(language.id)),
  }));
}

function document(language, rng) {
  const state = { key: 0, trap: 40, rng, language };
  const lines = [
    "\\documentclass[10pt]{article}",
    "\\usepackage{fontspec}",
    "\\setmainfont{CMU Serif}",
    `\\usepackage[${language.babel}]{babel}`,
    "\\usepackage[a4paper,margin=25mm]{geometry}",
    "\\usepackage{tikz}",
    "\\newcommand{\\plot}[1][5]{\\begin{tikzpicture}\\draw (0,0) rectangle (#1,1.8);\\draw (0.2,0.3) -- (1.5,1.5) -- (3,0.7) -- (#1-0.2,1.6);\\end{tikzpicture}}",
    "\\begin{document}",
  ];
  if (language.rename) lines.push(`\\renewcommand{\\figurename}{${language.rename}}`);
  const sections = rng.int(2, 3);
  for (let s = 0; s < sections; s++) {
    lines.push(`\\section{${sentence(rng, 2, 3).slice(0, -1)}}`, paragraph(rng));
    const blocks = rng.int(2, 3);
    for (let b = 0; b < blocks; b++) {
      lines.push(figure(state), paragraph(rng, [2, 4]), trap(state), paragraph(rng, [2, 4]));
    }
  }
  lines.push("\\end{document}");
  return `${lines.join("\n")}\n`;
}

function figure(state) {
  const key = `fig${++state.key}`;
  const words = sentence(state.rng, 5, 10);
  return `\\begin{figure}[htbp]\n\\centering\n\\plot\n\\caption{${words}}\\label{${key}}\\gttrue{figure}{${key}}\n\\end{figure}`;
}

/** A caption-like line that is no figure caption; its number is one no figure carries. */
function trap(state) {
  const { rng, language } = state;
  const n = ++state.trap;
  const f = `\\gtfalse{figure}{${n}}`;
  switch (rng.pick(["table", "paragraph", "mention"])) {
    case "table": {
      const body = `\\begin{tabular}{lr}\\hline A & 0.${rng.int(10, 99)} \\\\ B & 0.${rng.int(10, 99)} \\\\ \\hline\\end{tabular}`;
      return `\\begin{table}[htbp]\n\\centering\n\\setcounter{table}{${n - 1}}\\caption{${sentence(rng, 4, 8)}}${f}\n${body}\n\\end{table}`;
    }
    case "paragraph":
      return `\\par ${language.figure}~${n}${f} ${language.shows} ${sentence(rng, 14, 22)} ${sentence(rng)}`;
    default:
      return `${sentence(rng, 6, 10)} ${language.figure}~${n}${f} ${language.shows} ${sentence(rng, 8, 14)}`;
  }
}
