// A generated text for the acceptance set, written by producers the fixture builders do not use: LaTeX
// (for pandoc's LaTeX reader, into JATS and EPUB) and a flat OpenDocument text (for LibreOffice's own
// exports: DOCX, ODT, EPUB, HTML). The truth (each sentence and the heading it stands under) is this
// text's, never a reader's.
import { ACADEMIC, prng, SYLLABLES } from "../bench/lib/make-pdf.mjs";

const COMMON = "the of and to in is that for it as was with be by on not this are or from at which".split(
  " ",
);
/** Words a typesetter joins with ligatures or a writer sets with typographic marks. */
const PRONE = ["office", "efficient", "affluent", "fjord", "official", "finally", "flawed", "baffled"];

/**
 * { title, sections: [{ number, title, paragraphs, note?, subsections }] } from `seed`: `sections` top
 * sections of `subsections` each.
 */
export function generatedText(seed, sections = 4, subsections = 2) {
  const rand = prng(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pseudo = () => Array.from({ length: int(2, 4) }, () => pick(SYLLABLES)).join("");
  const word = () => {
    const r = rand();
    if (r < 0.4) return pick(COMMON);
    if (r < 0.7) return pick(ACADEMIC);
    if (r < 0.77) return pick(PRONE);
    if (r < 0.97) return pseudo();
    return String(int(2, 1999));
  };
  const sentence = () => {
    const w = Array.from({ length: int(9, 24) }, word);
    const r = rand();
    if (r < 0.15) w[int(1, w.length - 3)] += ",";
    else if (r < 0.25) {
      const at = int(1, w.length - 4);
      w[at] = `“${w[at]}`;
      w[at + 1] = `${w[at + 1]}”`;
    } else if (r < 0.32) w[int(1, w.length - 2)] = `${int(1900, 1990)}–${int(1991, 2020)}`;
    return `${w[0][0].toUpperCase()}${w[0].slice(1)} ${w.slice(1).join(" ")}.`;
  };
  const paragraph = () => Array.from({ length: int(2, 5) }, sentence).join(" ");
  const heading = () => {
    const t = Array.from({ length: int(2, 4) }, () => (rand() < 0.5 ? pick(ACADEMIC) : pseudo())).join(" ");
    return `${t[0].toUpperCase()}${t.slice(1)}`;
  };
  const used = new Set();
  const uniqueHeading = () => {
    for (;;) {
      const h = heading();
      if (!used.has(h.toLowerCase())) {
        used.add(h.toLowerCase());
        return h;
      }
    }
  };
  const section = (number, depth) => ({
    number,
    title: uniqueHeading(),
    paragraphs: Array.from({ length: int(2, 3) }, paragraph),
    ...(rand() < 0.4 ? { note: sentence() } : {}),
    subsections:
      depth === 0
        ? Array.from({ length: subsections }, (_, i) => section(`${number}.${i + 1}`, depth + 1))
        : [],
  });
  return {
    title: uniqueHeading(),
    sections: Array.from({ length: sections }, (_, i) => section(String(i + 1), 0)),
  };
}

/** Every sentence of the body with the words of the headings it stands under, its own heading's last. */
export function generatedTruth(doc) {
  const sentences = [];
  const headings = [];
  const walk = (s, chain) => {
    const here = [...chain, s.title];
    headings.push({ title: s.title, number: s.number, chain: here });
    for (const p of s.paragraphs)
      for (const text of p.split(/(?<=\.)\s+/u)) sentences.push({ text, section: s.title, chain: here });
    for (const sub of s.subsections) walk(sub, here);
  };
  for (const s of doc.sections) walk(s, []);
  return { sentences, headings };
}

const latexEscape = (t) =>
  t
    .replace(/[&%$#_{}]/gu, (c) => `\\${c}`)
    .replace(/“/gu, "``")
    .replace(/”/gu, "''");

/** The text as LaTeX: numbered sections and subsections, notes as footnotes after a paragraph. */
export function toLatex(doc) {
  const out = [
    "\\documentclass{article}",
    "\\usepackage[utf8]{inputenc}",
    "\\usepackage[T1]{fontenc}",
    `\\title{${latexEscape(doc.title)}}`,
    "\\begin{document}",
    "\\maketitle",
  ];
  const walk = (s, depth) => {
    out.push(`\\${depth === 0 ? "section" : "subsection"}{${latexEscape(s.title)}}`, "");
    s.paragraphs.forEach((p, i) => {
      out.push(`${latexEscape(p)}${i === 0 && s.note ? `\\footnote{${latexEscape(s.note)}}` : ""}`, "");
    });
    for (const sub of s.subsections) walk(sub, depth + 1);
  };
  for (const s of doc.sections) walk(s, 0);
  out.push("\\end{document}", "");
  return out.join("\n");
}

const xmlEscape = (t) => t.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;");

/** The text as a flat ODT: headings at their outline level with their printed number, notes, one table. */
export function toFodt(doc) {
  const body = [`<text:p text:style-name="Title">${xmlEscape(doc.title)}</text:p>`];
  const walk = (s, level) => {
    body.push(
      `<text:h text:style-name="Heading_20_${level}" text:outline-level="${level}">${s.number} ${xmlEscape(s.title)}</text:h>`,
    );
    s.paragraphs.forEach((p, i) => {
      const note =
        i === 0 && s.note
          ? `<text:note text:id="n${s.number}" text:note-class="footnote"><text:note-citation>*</text:note-citation><text:note-body><text:p text:style-name="Footnote">${xmlEscape(s.note)}</text:p></text:note-body></text:note>`
          : "";
      body.push(`<text:p text:style-name="Text_20_body">${xmlEscape(p)}${note}</text:p>`);
    });
    for (const sub of s.subsections) walk(sub, level + 1);
  };
  for (const s of doc.sections) walk(s, 1);
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
<style:style style:name="Standard" style:family="paragraph"/>
<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard"/>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-size="20pt"/></style:style>
<style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard"/>
<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="1"><style:text-properties fo:font-size="16pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="2"><style:text-properties fo:font-size="13pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Footnote" style:family="paragraph" style:parent-style-name="Standard"/>
</office:styles>
<office:body><office:text>
${body.join("\n")}
</office:text></office:body></office:document>
`;
}
