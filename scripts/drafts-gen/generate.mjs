// Generates drafts that cite many sources through bibliographies, with the verdict each citation must
// get: `node scripts/drafts-gen/generate.mjs <out-dir>`. The sources are fixture PDFs of this repository;
// what is true of them is read from their LaTeX sources (fixtures/src/*.tex, one physical page per
// \newpage), never from citeproof's own extraction. Writes <out>/sources/*.pdf, refs.bib, refs.json
// (CSL-JSON), map.json, draft.md, draft.tex, author-year.txt, csl.md, map.md and truth.json:
// [{draft, line, key, quote, verdict, reason}] for every citation the drafts write.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = join(import.meta.dirname, "..", "..");

// Fixtures whose LaTeX source puts a \newpage between its physical pages and defines no text macros (a
// fact of the fixture), then
// PDFs this script writes itself (their text is its own).
const FIXTURES = [
  { name: "interfaces", pages: 2 },
  { name: "evidence-paper", pages: 2 },
  // Printed i and ii, then 1-3 (its \pagenumbering): a draft cites the printed number.
  { name: "paper", pages: 5, front: 2 },
];
const GENERATED = 7;
const FAMILIES = "Harbour Okafor Müller Lindqvist Nakamura Ferreira Kowalski Dubois Rossi Rossi".split(" ");
// As a .bib writes them: a LaTeX accent the parser decodes.
const FAMILIES_TEX = FAMILIES.map((f) => f.replace("ü", '{\\"u}'));
const CO_AUTHORS = ["Jones", "Li", "Smith"];

/** The sentences of each physical page of a fixture, as its LaTeX source writes them. */
function texPages(name) {
  const tex = readFileSync(join(ROOT, "fixtures", "src", `${name}.tex`), "utf8")
    .replace(/(?<!\\)%.*$/gmu, "")
    .split("\\begin{document}")[1]
    .split("\\end{document}")[0];
  const body = tex
    .replace(
      /\\begin\{(equation\*?|align\*?|figure\*?|table\*?|tabular|displaymath|gather\*?)\}[\s\S]*?\\end\{\1\}/gu,
      " ",
    )
    .replace(/\\\[[\s\S]*?\\\]/gu, " ")
    .replace(/\\(noindent|medskip|bigskip|smallskip|par|hfill|vfill|centering|indent)\b/gu, "");
  // Every word of a page (commands dropped) for the test of uniqueness, and its plain sentences.
  return body.split(/\\(?:newpage|clearpage)\b/u).map((page) => ({
    raw: page.replace(/\\[A-Za-z]+\*?/gu, " "),
    sentences: page
      .split(/\n\s*\n/u)
      .map((p) => p.replace(/\s+/gu, " ").trim())
      .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z])/u))
      .filter((s) => !/[\\$%{}~&"`'_^#]/u.test(s) && s.split(" ").length >= 9),
  }));
}

/** Seven words of a sentence, its first left out, without the punctuation at either end. */
export function quoteOf(sentence) {
  return sentence
    .split(" ")
    .slice(1, 8)
    .join(" ")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}

const fold = (s) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** A seeded generator of numbers in [0, 1): the same drafts on every run. */
function random(seed) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    x ^= x >>> 12;
    return (x >>> 0) / 2 ** 32;
  };
}

const WORDS = (
  "river harbour winter survey sample household income region panel wave office method estimate weight " +
  "measure result report model chain vertex graph timber plank schedule budget season market price " +
  "school teacher reader village bridge garden engine signal pattern record archive letter mountain " +
  "coast island forest field harvest grain mill lantern window painter violin theatre chapter"
).split(" ");
const LINKS = "the of and in with for from over under near across during".split(" ");

/** A sentence of 12 to 17 words from the word lists, capitalised, ending with a period. */
function sentence(next) {
  const n = 12 + Math.floor(next() * 6);
  const words = Array.from({ length: n }, (_, i) =>
    i % 3 === 1 ? LINKS[Math.floor(next() * LINKS.length)] : WORDS[Math.floor(next() * WORDS.length)],
  );
  const text = words.join(" ");
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** A generated source: a title, a DOI on its first page, and pages of sentences. */
export function generatedSource(i) {
  const next = random(1000 + i);
  const title = `On the ${WORDS[(i * 7) % WORDS.length]} and the ${WORDS[(i * 11 + 3) % WORDS.length]} of generated source ${i + 1}`;
  const pages = Array.from({ length: 2 + (i % 3) }, () => Array.from({ length: 8 }, () => sentence(next)));
  return {
    name: `generated-${i + 1}`,
    pages: pages.length,
    title,
    doi: `10.5555/citeproof.gen.${i + 1}`,
    sentences: pages,
  };
}

/** A flow source: a title and three sections of sentences, written as HTML or Markdown. */
function flowSource(i, kind) {
  const next = random(5000 + i);
  const title = `Field notes on the ${WORDS[(i * 5 + 2) % WORDS.length]} of flow source ${i + 1}`;
  const sections = ["Methods", "Results", "Discussion"].map((heading) => ({
    heading,
    sentences: Array.from({ length: 4 }, () => sentence(next)),
  }));
  const text =
    kind === "html"
      ? `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${sections.map((x) => `<h2>${x.heading}</h2><p>${x.sentences.join(" ")}</p>`).join("")}</body></html>\n`
      : `# ${title}\n\n${sections.map((x) => `## ${x.heading}\n\n${x.sentences.join(" ")}\n`).join("\n")}`;
  return { name: `notes-${kind}`, file: `notes.${kind === "html" ? "html" : "md"}`, title, sections, text };
}

/** Lines of at most 80 characters, broken at spaces. */
function wrap(text) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + word.length + 1 > 80) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A PDF of text pages in Helvetica (WinAnsi): the title and DOI on the first page, then the sentences;
 * `source.metadataTitle`, when given, as the Info dictionary's /Title.
 */
export function writePdf(path, source) {
  const objects = [];
  const add = (body) => objects.push(body) + 2; // object numbers start at 3
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const esc = (t) => t.replace(/[\\()]/gu, (c) => `\\${c}`);
  const kids = source.sentences.map((sentences, p) => {
    const lines =
      p === 0
        ? [`/F1 16 Tf (${esc(source.title)}) Tj T* T*`, `/F1 9 Tf (doi:${source.doi}) Tj T* T*`, "/F1 11 Tf"]
        : ["/F1 11 Tf"];
    for (const s of sentences) for (const l of wrap(s)) lines.push(`(${esc(l)}) Tj T*`);
    lines.push(`T* (${p + 1}) Tj`);
    const stream = `BT 72 720 Td 15 TL ${lines.join("\n")} ET`;
    const contents = add(
      `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`,
    );
    return add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`,
    );
  });
  const all = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`,
    ...objects,
    ...(source.metadataTitle ? [`<< /Title (${esc(source.metadataTitle)}) >>`] : []),
  ];
  let pdf = "%PDF-1.4\n";
  const offsets = all.map((body, i) => {
    const at = Buffer.byteLength(pdf, "latin1");
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${all.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  const info = source.metadataTitle ? ` /Info ${all.length} 0 R` : "";
  pdf += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R${info} >>\nstartxref\n${xref}\n%%EOF\n`;
  writeFileSync(path, Buffer.from(pdf, "latin1"));
}

/** Per source: a quotation printed on exactly one page of it (and on no page of any other source). */
function facts() {
  const all = [
    ...FIXTURES.map((s) => {
      const pages = texPages(s.name);
      if (pages.length !== s.pages)
        throw new Error(`${s.name}: ${pages.length} pages in its source, ${s.pages} expected`);
      return {
        ...s,
        doi: null,
        sentences: pages.map((p) => p.sentences),
        texts: pages.map((p) => fold(p.raw)),
      };
    }),
    ...Array.from({ length: GENERATED }, (_, i) => generatedSource(i)).map((s) => ({
      ...s,
      texts: s.sentences.map((p) => fold(p.join(" "))),
    })),
  ];
  const everywhere = all.flatMap((s) => s.texts);
  return all.map((s, i) => {
    const picks = [];
    s.sentences.forEach((sentences, p) => {
      for (const sentence of sentences) {
        const quote = quoteOf(sentence);
        const hits = everywhere.filter((t) => t.includes(fold(quote))).length;
        if (hits === 1) picks.push({ page: p + 1, quote });
      }
    });
    // A draft cites the page number printed on the page: past a source's roman front matter, the
    // arabic number (physical page less the front pages); the front pages are not cited.
    const front = s.front ?? 0;
    const cited = picks.filter((p) => p.page > front).map((p) => ({ ...p, page: p.page - front }));
    if (cited.length === 0) throw new Error(`${s.name}: no quotation found on one page only`);
    // A fixture's title: the opening words of its first page's first sentence, printed there.
    const first = s.sentences[0].find((x) => x.split(" ").length >= 9) ?? s.sentences.flat()[0];
    const title =
      s.title ??
      first
        .split(" ")
        .slice(0, 6)
        .join(" ")
        .replace(/[^\p{L}\p{N}]+$/u, "");
    return {
      ...s,
      pages: s.pages - front,
      index: i,
      key: `${s.name.replace(/-/gu, "")}${2001 + i}`,
      year: String(2001 + i),
      picks: cited,
      title,
    };
  });
}

/** The quotation with one word changed: the words are not on any page. */
function falsified(quote) {
  const words = quote.split(" ");
  const at = Math.floor(words.length / 2);
  words[at] = words[at] === "marmalade" ? "porcupine" : "marmalade";
  return words.join(" ");
}

function fileField(i, path) {
  switch (i % 4) {
    case 0:
      return `{${path}}`; // Better BibTeX
    case 1:
      return `{:${path}:PDF}`; // JabRef
    case 2:
      return `{Full Text PDF:${path}:application/pdf}`; // Zotero export
    default:
      return `{Snapshot:sources/snapshot.html:text/html;Full Text:${path}:application/pdf}`; // several
  }
}

function main(out) {
  const sources = facts();
  // Two works by Rossi in one year: the bare year fits both; a letter names one by title order.
  sources[9].year = sources[8].year;
  mkdirSync(join(out, "sources"), { recursive: true });
  for (const s of sources) {
    const path = join(out, "sources", `${s.name}.pdf`);
    if (s.doi) writePdf(path, s);
    else copyFileSync(join(ROOT, "test", "fixtures", `${s.name}.pdf`), path);
  }
  const flows = [flowSource(0, "html"), flowSource(1, "markdown")];
  for (const f of flows) writeFileSync(join(out, "sources", f.file), f.text);
  const truth = [];
  const bib = ['@string{pub = "Fixture Press"}', ""];
  sources.forEach((s, i) => {
    // The two works by Rossi (8 and 9) share their label, one author and one year: letters tell them apart.
    const authors =
      i % 3 === 0 || i === 8
        ? `${FAMILIES_TEX[i]}, Ann`
        : i % 3 === 1
          ? `${FAMILIES_TEX[i]}, Ann and ${CO_AUTHORS[0]}, Bo`
          : `${FAMILIES_TEX[i]}, Ann and ${CO_AUTHORS[1]}, Cy and ${CO_AUTHORS[2]}, Di`;
    bib.push(
      `@article{${s.key},`,
      `  author = {${authors}},`,
      `  title = {{${s.title}}},`,
      `  journal = pub,`,
      `  year = {${s.year}},`,
      ...(s.doi ? [`  doi = {${s.doi}},`] : []),
      `  file = ${fileField(i, `sources/${s.name}.pdf`)}`,
      "}",
      "",
    );
  });
  // After the numbered sources: numeric citations count the bibliography's order.
  flows.forEach((f, i) => {
    f.key = `notes${2020 + i}`;
    bib.push(
      `@online{${f.key}, author = {Field, Ann}, title = {${f.title}}, year = {${2020 + i}}, file = {sources/${f.file}}}`,
    );
  });
  const [a, b] = sources;
  // A crossref child that takes its file and year from its parent.
  bib.push(
    `@proceedings{parentvolume, title = {{${a.title}}}, year = {${a.year}}, file = {sources/${a.name}.pdf}}`,
    `@inproceedings{crosschild, author = {Okafor, Ann}, title = {{${a.title}}}, crossref = {parentvolume}}`,
    // The title of one work, the file of another.
    `@article{wrongfile, author = {Harbour, Ann}, title = {{${a.title}}}, year = {1999}, file = {sources/${b.name}.pdf}}`,
    `@online{webonly, author = {Web, Ann}, title = {A page on the web}, year = {2020}, url = {https://example.org/paper.pdf}}`,
    `@article{outside, author = {Out, Ann}, title = {Outside}, year = {2020}, file = {/etc/hostname}}`,
    `@article{nofile, author = {None, Ann}, title = {Nothing bound}, year = {2020}}`,
    "",
  );
  writeFileSync(join(out, "refs.bib"), bib.join("\n"));

  const md = [];
  const add = (lines, draft, key, quote, expected, text) => {
    const [verdict, reason] = expected.split(" ");
    lines.push(text);
    truth.push({ draft, line: lines.length, key, quote, verdict, reason });
  };
  const addMd = (...row) => add(md, "draft.md", ...row);
  for (const s of sources) {
    const fact = s.picks[0];
    const other = s.pages > 1 ? (fact.page % s.pages) + 1 : null;
    addMd(s.key, fact.quote, "PASS found", `The authors write "${fact.quote}" [@${s.key}, p. ${fact.page}].`);
    addMd(
      s.key,
      falsified(fact.quote),
      "FAIL absent",
      `They also write "${falsified(fact.quote)}" [see @${s.key}, p. ${fact.page}].`,
    );
    if (other !== null)
      addMd(s.key, fact.quote, "FAIL wrong-page", `Elsewhere, "${fact.quote}" [-@${s.key}, p. ${other}].`);
    const lo = Math.max(1, fact.page - 1);
    const hi = Math.min(s.pages, fact.page + 1);
    if (hi > lo)
      addMd(s.key, fact.quote, "PASS found", `As @${s.key} [pp. ${lo}-${hi}] puts it, "${fact.quote}".`);
    addMd(s.key, null, "FLAG no-quotation", `The method is set out in [@${s.key}, p. ${fact.page}].`);
    addMd(
      `[${s.index + 1}]`,
      fact.quote,
      "PASS found",
      `In numbered form, "${fact.quote}" [${s.index + 1}, p. ${fact.page}].`,
    );
  }
  const qa = a.picks[0].quote;
  const qb = b.picks[0].quote;
  const special = [
    ["nosuchkey2020", qa, "FAIL unknown-key", `A lost work says "${qa}" [@nosuchkey2020, p. 1].`],
    ["[99]", null, "FAIL unknown-key", "A numbered work that is not listed [99]."],
    [
      "wrongfile",
      qb,
      "FLAG source-mismatch",
      `A misfiled work says "${qb}" [@wrongfile, p. ${b.picks[0].page}].`,
    ],
    ["webonly", qa, "FLAG source-unavailable", `A web page says "${qa}" [@webonly, p. 1].`],
    ["outside", qa, "FLAG source-unavailable", `A file outside says "${qa}" [@outside, p. 1].`],
    ["nofile", qa, "FLAG source-unavailable", `An unbound work says "${qa}" [@nofile, p. 1].`],
    ["crosschild", qa, "PASS found", `Through its volume, "${qa}" [@crosschild, p. ${a.picks[0].page}].`],
    [null, qb, "UNANCHORED no-page", `Someone said "${qb}" once.`],
  ];
  for (const [key, quote, expected, text] of special) addMd(key, quote, expected, text);
  // Flow sources: cited by section, or as a whole; they have no pages.
  const [html, mdNotes] = flows;
  const inMethods = quoteOf(html.sections[0].sentences[1]);
  const inResults = quoteOf(mdNotes.sections[1].sentences[2]);
  const flowCases = [
    [html.key, inMethods, "PASS found", `The notes say "${inMethods}" [@${html.key}, sec. Methods].`],
    [html.key, inMethods, "FAIL wrong-section", `Not so: "${inMethods}" [@${html.key}, sec. Results].`],
    [mdNotes.key, inResults, "PASS found", `Anywhere in them, "${inResults}" [@${mdNotes.key}].`],
    [
      mdNotes.key,
      falsified(inResults),
      "FAIL absent",
      `Altered, "${falsified(inResults)}" [@${mdNotes.key}, sec. Results].`,
    ],
    [mdNotes.key, inResults, "UNANCHORED no-page", `By page, "${inResults}" [@${mdNotes.key}, p. 2].`],
  ];
  for (const [key, quote, expected, text] of flowCases) addMd(key, quote, expected, text);
  writeFileSync(join(out, "draft.md"), `${md.join("\n")}\n`);

  const tex = ["\\documentclass{article}", "\\begin{document}"];
  const addTex = (...row) => add(tex, "draft.tex", ...row);
  const forms = [
    (k, p) => `\\cite[p.~${p}]{${k}}`,
    (k, p) => `\\citep[see][${p}]{${k}}`,
    (k, p) => `\\parencite[${p}]{${k}}`,
    (k, p) => `\\textcite[p.~${p}]{${k}}`,
    (k, p) => `\\autocite[p.~${p}]{${k}}`,
    (k, p) => `\\footcite[p.~${p}]{${k}}`,
    (k, p) => `\\citet[p.~${p}]{${k}}`,
  ];
  sources.forEach((s, i) => {
    const fact = s.picks[s.picks.length - 1];
    const cite = forms[i % forms.length](s.key, fact.page);
    addTex(s.key, fact.quote, "PASS found", `As written, \`\`${fact.quote}'' ${cite}.`);
    addTex(
      s.key,
      falsified(fact.quote),
      "FAIL absent",
      `Not as written, \\enquote{${falsified(fact.quote)}} ${forms[(i + 1) % forms.length](s.key, fact.page)}.`,
    );
  });
  addTex(a.key, null, "UNANCHORED no-page", `Two works agree \\cite{${a.key},${b.key}}.`);
  truth.push({
    draft: "draft.tex",
    line: tex.length,
    key: b.key,
    quote: null,
    verdict: "UNANCHORED",
    reason: "no-page",
  });
  addTex("missingkey", null, "FAIL unknown-key", "A missing work \\citep[p.~3]{missingkey}.");
  tex.push("\\end{document}");
  writeFileSync(join(out, "draft.tex"), `${tex.join("\n")}\n`);

  const ay = [];
  const addAy = (...row) => add(ay, "author-year.txt", ...row);
  sources.slice(0, 8).forEach((s, i) => {
    const fact = s.picks[0];
    const family = FAMILIES[i];
    const names = i % 3 === 0 ? family : i % 3 === 1 ? `${family} & ${CO_AUTHORS[0]}` : `${family} et al.,`;
    const key = `${i % 3 === 0 ? family : i % 3 === 1 ? `${family} & ${CO_AUTHORS[0]}` : `${family} et al.`} ${s.year}`;
    if (i % 2 === 0)
      addAy(
        key,
        fact.quote,
        "PASS found",
        `They found "${fact.quote}" (${names} ${s.year}, p. ${fact.page}).`,
      );
    else
      addAy(
        key,
        fact.quote,
        "PASS found",
        `${names.replace(/,$/u, "")} (${s.year}, p. ${fact.page}) found "${fact.quote}".`,
      );
  });
  const rossi = sources.slice(8, 10);
  const byTitle = [...rossi].sort((x, y) => x.title.localeCompare(y.title));
  addAy(
    `Rossi ${rossi[0].year}`,
    null,
    "FLAG ambiguous-source",
    `Rossi has argued this (Rossi ${rossi[0].year}).`,
  );
  byTitle.forEach((s, j) => {
    const letter = "ab"[j];
    addAy(
      `Rossi ${s.year}${letter}`,
      s.picks[0].quote,
      "PASS found",
      `Rossi wrote "${s.picks[0].quote}" (Rossi ${s.year}${letter}, p. ${s.picks[0].page}).`,
    );
  });
  addAy("Nobody 2020", null, "FAIL unknown-key", "This was claimed before (Nobody 2020, p. 4).");
  writeFileSync(join(out, "author-year.txt"), `${ay.join("\n")}\n`);
  // CSL-JSON and a JSON map, each with a Markdown draft over two sources.
  const csl = [a, b].map((s, i) => ({
    id: s.key,
    type: "article-journal",
    title: s.title,
    author: [{ family: FAMILIES[i], given: "Ann" }],
    issued: { "date-parts": [[Number(s.year)]] },
    ...(i === 0
      ? { file: `sources/${s.name}.pdf` }
      : { URL: `file://${join(out, "sources", `${s.name}.pdf`)}` }),
  }));
  writeFileSync(join(out, "refs.json"), JSON.stringify(csl, null, 2));
  writeFileSync(
    join(out, "map.json"),
    JSON.stringify(Object.fromEntries([a, b].map((s) => [s.key, `sources/${s.name}.pdf`]))),
  );
  for (const draft of ["csl.md", "map.md"]) {
    const lines = [];
    for (const s of [a, b]) {
      const fact = s.picks[0];
      add(
        lines,
        draft,
        s.key,
        fact.quote,
        "PASS found",
        `It reads "${fact.quote}" [@${s.key}, p. ${fact.page}].`,
      );
      add(
        lines,
        draft,
        s.key,
        falsified(fact.quote),
        "FAIL absent",
        `It does not read "${falsified(fact.quote)}" [@${s.key}, p. ${fact.page}].`,
      );
    }
    writeFileSync(join(out, draft), `${lines.join("\n")}\n`);
  }
  writeFileSync(join(out, "truth.json"), `${JSON.stringify(truth, null, 1)}\n`);
}

// Run as a script; imported (the bench), it only lends its generated sources.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = process.argv[2];
  if (!out) {
    console.error("usage: node scripts/drafts-gen/generate.mjs <out-dir>");
    process.exit(2);
  }
  main(out);
}
