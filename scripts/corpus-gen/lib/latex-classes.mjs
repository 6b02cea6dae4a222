/**
 * The LaTeX document classes the generated corpus is built with: how to open a document of each class
 * (class, options), its sectioning command, and what the class is (two columns, the file texlive must
 * have, a package it needs, its own title block). A module takes the classes it builds by id and adds what
 * only it needs to know about them.
 */
const PROFILES = [
  { id: "article", cls: "article", options: ["11pt"], section: "section" },
  { id: "article-fleqn", cls: "article", options: ["fleqn"], section: "section" },
  { id: "article-leqno", cls: "article", options: ["leqno"], section: "section" },
  { id: "article-twocolumn", cls: "article", options: ["twocolumn"], section: "section", twoColumn: true },
  { id: "report", cls: "report", options: [], section: "chapter" },
  { id: "book", cls: "book", options: ["openany"], section: "chapter" },
  { id: "amsart", cls: "amsart", options: [], section: "section" },
  { id: "amsbook", cls: "amsbook", options: [], section: "chapter" },
  {
    id: "revtex-aps",
    cls: "revtex4-2",
    options: ["aps", "pra", "twocolumn"],
    section: "section",
    twoColumn: true,
    file: "revtex4-2.cls",
  },
  {
    id: "ieee-journal",
    cls: "IEEEtran",
    options: ["journal"],
    section: "section",
    twoColumn: true,
    file: "IEEEtran.cls",
  },
  {
    id: "ieee-conference",
    cls: "IEEEtran",
    options: ["conference"],
    section: "section",
    twoColumn: true,
    file: "IEEEtran.cls",
  },
  {
    id: "acm-sigconf",
    cls: "acmart",
    options: ["sigconf"],
    section: "section",
    twoColumn: true,
    file: "acmart.cls",
    needs: "binhex.tex",
    acm: true,
  },
  {
    id: "acm-acmsmall",
    cls: "acmart",
    options: ["acmsmall"],
    section: "section",
    file: "acmart.cls",
    needs: "binhex.tex",
    acm: true,
  },
  {
    id: "elsarticle",
    cls: "elsarticle",
    options: ["preprint", "12pt"],
    section: "section",
    file: "elsarticle.cls",
  },
  { id: "llncs", cls: "llncs", options: [], section: "section", file: "llncs.cls", llncs: true },
  { id: "memoir", cls: "memoir", options: ["oneside"], section: "chapter", file: "memoir.cls" },
  { id: "scrartcl", cls: "scrartcl", options: [], section: "section", file: "scrartcl.cls" },
  { id: "beamer", cls: "beamer", options: [], section: "frame", file: "beamer.cls", beamer: true },
  {
    // Themes with a sidebar (left or right) and margins set unlike on the two sides: the text
    // width's edges mirror neither each other nor the page's.
    id: "beamer-themes",
    cls: "beamer",
    options: [],
    section: "frame",
    file: "beamer.cls",
    beamer: true,
    themes: ["Berkeley", "Goettingen", "Hannover", "PaloAlto", "Marburg"],
    margins: ["2cm", "0.5cm", "1.5cm"],
  },
];

/** The profiles of the classes named, in that order, each with what the module adds to it (by id). */
export function latexClasses(ids, additions = {}) {
  return ids.map((id) => {
    const profile = PROFILES.find((p) => p.id === id);
    if (!profile) throw new Error(`no LaTeX class profile ${id}`);
    return { ...profile, ...additions[id] };
  });
}
