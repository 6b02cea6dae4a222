// Hostile flow sources, seeded: zip and ratio bombs in EPUB/DOCX/ODT, entity expansion and external
// entities (and XInclude) in every XML part a reader parses, HTML, XHTML, Markdown and JATS nested
// 100,000 deep, EPUB spines naming missing, unknown, looping or climbing files, containers renamed as
// another kind, zips with climbing, absolute, symlinked, duplicated or 20,000 entries, truncations and
// byte flips of the generated containers in test/fixtures/flow-containers/, 0 bytes, invalid UTF-8 and
// UTF-16. Each goes through `citeproof verify <file> --evidence` as a child process under a 5 s deadline:
// the answer must be a verdict or a coded error within the deadline + 5 s, without a stack trace or a
// signal, under the memory cap; an escape is a marker file's content (a file outside the input, named
// by an entity, an XInclude, an entry or a spine) appearing in what the process prints.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateRawSync } from "node:zlib";
import { classify, emptyStats, inPool, runCli } from "./child-run.mjs";
import { rng } from "./seeded.mjs";
import { zipFile } from "./zip-writer.mjs";

const DEADLINE_MS = 5000;
const containers = fileURLToPath(new URL("../../test/fixtures/flow-containers/", import.meta.url));
const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
const WORDS = "The surveyors counted forty wooden boats in the harbour.";
// Only the marker file outside holds these words: a PASS for them is a read outside.
const SECRET = "zebra quokka marmot lantern whistle over the quiet fen";

const docx = (documentXml, extra = []) =>
  zipFile([
    {
      name: "[Content_Types].xml",
      data: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    {
      name: "word/_rels/document.xml.rels",
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r0" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    },
    typeof documentXml === "string"
      ? { name: "word/document.xml", data: documentXml, deflate: true }
      : documentXml,
    ...extra,
  ]);
const wDoc = (body, prolog = "") =>
  `${prolog}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`;
const wp = (text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const odt = (contentXml, extra = []) =>
  zipFile([
    { name: "mimetype", data: "application/vnd.oasis.opendocument.text" },
    typeof contentXml === "string" ? { name: "content.xml", data: contentXml, deflate: true } : contentXml,
    ...extra,
  ]);
const oDoc = (body, prolog = "") =>
  `${prolog}<office:document-content ${ODF_NS}><office:body><office:text>${body}</office:text></office:body></office:document-content>`;

const xhtml = (body, prolog = '<?xml version="1.0" encoding="UTF-8"?>') =>
  `${prolog}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body>${body}</body></html>`;
const CONTAINER_XML = `<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;
const opf = (manifest, spine, prolog = "") =>
  `${prolog}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>A Book</dc:title><dc:language>en</dc:language></metadata><manifest>${manifest}</manifest><spine>${spine}</spine></package>`;
const item = (id, href) => `<item id="${id}" href="${href}" media-type="application/xhtml+xml"/>`;
const ref = (id) => `<itemref idref="${id}"/>`;
function epub({
  container = CONTAINER_XML,
  pack,
  chapters = { c1: xhtml(`<h1>1 Intro</h1><p>${WORDS}</p>`) },
  extra = [],
}) {
  return zipFile([
    { name: "mimetype", data: "application/epub+zip" },
    { name: "META-INF/container.xml", data: container },
    {
      name: "OPS/book.opf",
      data:
        pack ??
        opf(
          Object.keys(chapters)
            .map((id) => item(id, `${id}.xhtml`))
            .join(""),
          Object.keys(chapters).map(ref).join(""),
        ),
    },
    ...Object.entries(chapters).map(([id, data]) =>
      typeof data === "string"
        ? { name: `OPS/${id}.xhtml`, data, deflate: true }
        : { ...data, name: `OPS/${id}.xhtml` },
    ),
    ...extra,
  ]);
}

const LAUGHS = `<!DOCTYPE lolz [<!ENTITY lol "lollollollollollollollollollol">${Array.from(
  { length: 9 },
  (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`,
).join("")}]>`;

/** Prologs and in-body references that would read `marker` or expand without bound if honoured. */
function entityAttacks(marker, relative) {
  return {
    "billion laughs": { prolog: LAUGHS, use: "&lol9;" },
    "quadratic blowup": {
      prolog: `<!DOCTYPE q [<!ENTITY a "${"a".repeat(100_000)}">]>`,
      use: "&a;".repeat(20_000),
    },
    "external entity, absolute": {
      prolog: `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file://${marker}">]>`,
      use: "&xxe;",
    },
    "external entity, relative": {
      prolog: `<!DOCTYPE x [<!ENTITY xxe SYSTEM "${relative}">]>`,
      use: "&xxe;",
    },
    "external entity, public": {
      prolog: `<!DOCTYPE x [<!ENTITY xxe PUBLIC "-//A//B" "file://${marker}">]>`,
      use: "&xxe;",
    },
    "parameter entity": {
      prolog: `<!DOCTYPE x [<!ENTITY % p SYSTEM "file://${marker}"> %p;]>`,
      use: "",
    },
    "external DTD": { prolog: `<!DOCTYPE x SYSTEM "file://${marker}">`, use: "" },
    XInclude: {
      prolog: "",
      use: `<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file://${marker}" parse="text"/>`,
    },
  };
}

function generated(marker, bombBytes) {
  const out = {};
  const relative = "../../outside/marker.txt";
  // Bombs: the same deflated zeros, with their true size and with a small size claimed.
  const zeros = Buffer.alloc(bombBytes, 0x20);
  const bomb = { deflated: deflateRawSync(zeros, { level: 9 }), size: bombBytes, crc: crc32(zeros) };
  const liar = { ...bomb, size: 1000 };
  for (const [how, raw] of [
    ["zip bomb", bomb],
    ["ratio bomb, size lied", liar],
  ]) {
    out[`${how} in DOCX document.xml.docx`] = docx({ name: "word/document.xml", raw });
    out[`${how} in DOCX styles.xml.docx`] = docx(wDoc(wp(WORDS)), [{ name: "word/styles.xml", raw }]);
    out[`${how} in ODT content.xml.odt`] = odt({ name: "content.xml", raw });
    out[`${how} in ODT styles.xml.odt`] = odt(oDoc(`<text:p>${WORDS}</text:p>`), [
      { name: "styles.xml", raw },
    ]);
    out[`${how} in EPUB chapter.epub`] = epub({ chapters: { c1: { raw } } });
    out[`${how} in EPUB container.xml.epub`] = zipFile([
      { name: "mimetype", data: "application/epub+zip" },
      { name: "META-INF/container.xml", raw },
    ]);
    out[`${how}, 40 chapters.epub`] = epub({
      chapters: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`c${i}`, { raw }])),
    });
  }
  // Entities, external entities and XInclude in each XML part a reader parses.
  for (const [name, { prolog, use }] of Object.entries(entityAttacks(marker, relative))) {
    const xml = '<?xml version="1.0"?>';
    out[`${name} in DOCX.docx`] = docx(wDoc(wp(`Before ${use} after.`), xml + prolog));
    out[`${name} in DOCX styles.docx`] = docx(wDoc(wp(WORDS)), [
      { name: "word/styles.xml", data: `${xml}${prolog}<w:styles xmlns:w="${W}">${use}</w:styles>` },
    ]);
    out[`${name} in ODT.odt`] = odt(oDoc(`<text:p>Before ${use} after.</text:p>`, xml + prolog));
    out[`${name} in EPUB chapter.epub`] = epub({
      chapters: { c1: xhtml(`<h1>1 Intro</h1><p>Before ${use} after.</p>`, xml + prolog) },
    });
    out[`${name} in EPUB package.epub`] = epub({
      pack: opf(item("c1", "c1.xhtml") + use, ref("c1"), xml + prolog),
    });
    out[`${name} in EPUB container.epub`] = epub({
      container: xml + prolog + CONTAINER_XML.replace("<rootfiles>", `<rootfiles>${use}`),
    });
    out[`${name} in JATS.nxml`] =
      `${xml}${prolog}<article><front><article-meta><title-group><article-title>T</article-title></title-group></article-meta></front><body><sec><title>1 Intro</title><p>Before ${use} after.</p></sec></body></article>`;
    out[`${name} in XHTML.xhtml`] = xhtml(`<h1>1 Intro</h1><p>Before ${use} after.</p>`, xml + prolog);
    out[`${name} in HTML.html`] =
      `<!doctype html>${prolog}<html><body><h1>1 Intro</h1><p>Before ${use} after.</p></body></html>`;
  }
  // Nesting.
  const deep = 100_000;
  out["HTML div nested 100,000 deep.html"] =
    `<!doctype html><html><body>${"<div>".repeat(deep)}<p>${WORDS}</p>${"</div>".repeat(deep)}</body></html>`;
  out["HTML unclosed b 100,000 deep.html"] =
    `<!doctype html><html><body><p>${"<b>".repeat(deep)}${WORDS}</p></body></html>`;
  out["HTML 1,000,000 unclosed spans.html"] =
    `<!doctype html><html><body><p>${"<span>x".repeat(1_000_000)}</p></body></html>`;
  out["HTML table nested 20,000 deep.html"] =
    `<html><body>${"<table><tr><td>".repeat(20_000)}${WORDS}</body></html>`;
  out["XHTML nested 100,000 deep.xhtml"] = xhtml(
    `${"<div>".repeat(deep)}<p>${WORDS}</p>${"</div>".repeat(deep)}`,
  );
  out["Markdown blockquote 100,000 deep.md"] = `# 1 Intro\n\n${">".repeat(deep)} ${WORDS}\n`;
  out["Markdown list 20,000 deep.md"] =
    `# 1 Intro\n\n${Array.from({ length: 20_000 }, (_, i) => `${"  ".repeat(i)}- item ${i}`).join("\n")}\n`;
  out["Markdown emphasis 100,000 deep.md"] = `# 1 Intro\n\n${"*_".repeat(deep)}${WORDS}\n`;
  out["Markdown brackets 100,000 deep.md"] =
    `# 1 Intro\n\n${"[".repeat(deep)}${WORDS}${"](x)".repeat(deep)}\n`;
  out["Markdown 100,000 headings.md"] = Array.from({ length: deep }, (_, i) => `# ${i + 1} H\n`).join("");
  out["JATS sec nested 100,000 deep.nxml"] =
    `<article><body>${"<sec>".repeat(deep)}<p>${WORDS}</p>${"</sec>".repeat(deep)}</body></article>`;
  out["DOCX nested 100,000 deep.docx"] = docx(
    wDoc(`${"<w:sdt><w:sdtContent>".repeat(deep)}${wp(WORDS)}${"</w:sdtContent></w:sdt>".repeat(deep)}`),
  );
  out["ODT sections nested 100,000 deep.odt"] = odt(
    oDoc(`${"<text:section>".repeat(deep)}<text:p>${WORDS}</text:p>${"</text:section>".repeat(deep)}`),
  );
  out["EPUB chapter nested 100,000 deep.epub"] = epub({
    chapters: { c1: xhtml(`${"<div>".repeat(deep)}<p>${WORDS}</p>${"</div>".repeat(deep)}`) },
  });
  out["EPUB opf nested 100,000 deep.epub"] = epub({
    pack: opf(`${"<x>".repeat(deep)}${"</x>".repeat(deep)}${item("c1", "c1.xhtml")}`, ref("c1")),
  });
  // EPUB spines.
  const c1 = xhtml(`<h1>1 Intro</h1><p>${WORDS}</p>`);
  out["EPUB spine names a missing file.epub"] = epub({
    pack: opf(item("c1", "c1.xhtml") + item("c2", "gone.xhtml"), ref("c1") + ref("c2")),
    chapters: { c1 },
  });
  out["EPUB spine names an unknown item.epub"] = epub({
    pack: opf(item("c1", "c1.xhtml"), ref("c1") + ref("nope")),
    chapters: { c1 },
  });
  out["EPUB spine loops on one file.epub"] = epub({
    pack: opf(item("c1", "c1.xhtml") + item("c2", "./c1.xhtml"), ref("c1") + ref("c2")),
    chapters: { c1 },
  });
  out["EPUB spine item 10,000 times.epub"] = epub({
    pack: opf(item("c1", "c1.xhtml"), ref("c1").repeat(10_000)),
    chapters: { c1 },
  });
  out["EPUB spine 10,000 items, one file.epub"] = epub({
    pack: opf(
      Array.from({ length: 10_000 }, (_, i) => item(`i${i}`, "c1.xhtml")).join(""),
      Array.from({ length: 10_000 }, (_, i) => ref(`i${i}`)).join(""),
    ),
    chapters: { c1 },
  });
  out["EPUB spine names the package.epub"] = epub({
    pack: opf(item("p", "book.opf"), ref("p")),
    chapters: { c1 },
  });
  out["EPUB spine climbs out.epub"] = epub({
    pack: opf(item("c1", "../../outside/marker.txt"), ref("c1")),
    chapters: {},
  });
  out["EPUB spine names an absolute path.epub"] = epub({
    pack: opf(item("c1", marker), ref("c1")),
    chapters: {},
  });
  out["EPUB spine names a file: URL.epub"] = epub({
    pack: opf(item("c1", `file://${marker}`), ref("c1")),
    chapters: {},
  });
  out["EPUB rootfile missing.epub"] = epub({
    container: CONTAINER_XML.replace("OPS/book.opf", "OPS/none.opf"),
  });
  out["EPUB rootfile climbs out.epub"] = epub({ container: CONTAINER_XML.replace("OPS/book.opf", relative) });
  out["EPUB rootfile absolute.epub"] = epub({ container: CONTAINER_XML.replace("OPS/book.opf", marker) });
  out["EPUB rootfile is the container.epub"] = epub({
    container: CONTAINER_XML.replace("OPS/book.opf", "META-INF/container.xml"),
  });
  out["EPUB empty spine.epub"] = epub({ pack: opf("", ""), chapters: {} });
  out["EPUB nav loops.epub"] = epub({
    pack: opf(
      `${item("c1", "c1.xhtml")}<item id="nav" href="c1.xhtml" properties="nav" media-type="application/xhtml+xml"/>`,
      ref("c1"),
    ),
    chapters: {
      c1: xhtml(
        `<nav epub:type="toc" xmlns:epub="http://www.idpf.org/2007/ops"><ol><li><a href="c1.xhtml#x">1 Intro</a><ol><li><a href="c1.xhtml">again</a></li></ol></li></ol></nav><p id="x">${WORDS}</p>`,
      ),
    },
  });
  out["EPUB without container.epub"] = zipFile([
    { name: "mimetype", data: "application/epub+zip" },
    { name: "OPS/c1.xhtml", data: c1 },
  ]);
  // Containers renamed as another kind.
  const fixtureBytes = (name) => readFileSync(join(containers, name));
  out["EPUB renamed .docx.docx"] = fixtureBytes("flow.epub");
  out["ODT renamed .docx.docx"] = fixtureBytes("flow.odt");
  out["DOCX renamed .odt.odt"] = fixtureBytes("flow.docx");
  out["DOCX renamed .epub.epub"] = fixtureBytes("flow.docx");
  out["zip of text renamed .docx.docx"] = zipFile([{ name: "readme.txt", data: WORDS }]);
  out["zip of text renamed .epub.epub"] = zipFile([{ name: "readme.txt", data: WORDS }]);
  out["jar renamed .docx.docx"] = zipFile([
    { name: "META-INF/MANIFEST.MF", data: "Manifest-Version: 1.0\n" },
    { name: "A.class", data: Buffer.from([0xca, 0xfe, 0xba, 0xbe]) },
  ]);
  out["DOCX with no document part.docx"] = zipFile([{ name: "[Content_Types].xml", data: "<Types/>" }]);
  out["PDF renamed .docx.docx"] = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
  out["HTML renamed .epub.epub"] = `<html><body><p>${WORDS}</p></body></html>`;
  // Zip structure.
  const good = fixtureBytes("flow.docx");
  out["zip: only the end record.docx"] = good.subarray(good.length - 22);
  const offsetOut = Buffer.from(good);
  offsetOut.writeUInt32LE(0xfffffff0, offsetOut.length - 6);
  out["zip: directory offset past the end.docx"] = offsetOut;
  const countLie = Buffer.from(good);
  countLie.writeUInt16LE(0xffff, countLie.length - 12);
  countLie.writeUInt16LE(0xffff, countLie.length - 14);
  out["zip: entry count 65,535 claimed.docx"] = countLie;
  out["zip: entry climbing out.docx"] = docx(wDoc(wp(WORDS)), [
    { name: "../../outside/marker.txt", data: "x" },
  ]);
  out["zip: entry with absolute name.epub"] = epub({ extra: [{ name: marker, data: "x" }] });
  out["zip: main part a symlink out.docx"] = docx({
    name: "word/document.xml",
    data: marker,
    unix: 0o120777,
  });
  out["zip: chapter a symlink out.epub"] = epub({ chapters: { c1: { data: marker, unix: 0o120777 } } });
  out["zip: content a symlink out.odt"] = odt({ name: "content.xml", data: marker, unix: 0o120777 });
  out["zip: duplicated main part.docx"] = docx(wDoc(wp(WORDS)), [
    { name: "word/document.xml", data: wDoc(wp("Second copy of the words here.")) },
  ]);
  out["zip: 20,000 entries.docx"] = docx(
    wDoc(wp(WORDS)),
    Array.from({ length: 20_000 }, (_, i) => ({ name: `word/media/e${i}.bin`, data: "" })),
  );
  const method99 = docx(wDoc(wp(WORDS)));
  for (let at = method99.indexOf("PK\x01\x02"); at >= 0; at = method99.indexOf("PK\x01\x02", at + 4))
    method99.writeUInt16LE(99, at + 10);
  out["zip: unknown compression method.docx"] = method99;
  const encrypted = docx(wDoc(wp(WORDS)));
  for (let at = encrypted.indexOf("PK\x01\x02"); at >= 0; at = encrypted.indexOf("PK\x01\x02", at + 4))
    encrypted.writeUInt16LE(0x801, at + 8);
  out["zip: encrypted flag.docx"] = encrypted;
  const sizeLie = docx(wDoc(wp(WORDS)));
  for (let at = sizeLie.indexOf("PK\x01\x02"); at >= 0; at = sizeLie.indexOf("PK\x01\x02", at + 4))
    sizeLie.writeUInt32LE(0xfffffff0, at + 20);
  out["zip: compressed sizes past the end.docx"] = sizeLie;
  // Encodings and empty files.
  for (const ext of ["txt", "md", "html", "epub", "docx", "odt", "nxml", "xhtml"])
    out[`0 bytes.${ext}`] = Buffer.alloc(0);
  const text = `# 1 Intro\n\n${WORDS}\n`;
  const le = Buffer.from(text, "utf16le");
  const be = Buffer.from(le).swap16();
  for (const ext of ["txt", "md", "html"]) {
    out[`invalid UTF-8.${ext}`] = Buffer.concat([
      Buffer.from(text),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x80, 0xa0]),
    ]);
    out[`overlong UTF-8.${ext}`] = Buffer.concat([
      Buffer.from(text),
      Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf]),
    ]);
    out[`CESU surrogates.${ext}`] = Buffer.concat([
      Buffer.from(text),
      Buffer.from([0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80]),
    ]);
    out[`UTF-16LE with BOM.${ext}`] = Buffer.concat([Buffer.from([0xff, 0xfe]), le]);
    out[`UTF-16BE with BOM.${ext}`] = Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
    out[`UTF-16LE without BOM.${ext}`] = le;
    out[`UTF-16 odd length.${ext}`] = Buffer.concat([Buffer.from([0xff, 0xfe]), le, Buffer.from([0x41])]);
    out[`NUL bytes.${ext}`] = Buffer.concat([Buffer.from(text), Buffer.alloc(4096)]);
    out[`random bytes.${ext}`] = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24));
  }
  out["UTF-16 JATS.nxml"] = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-16"?><article><body><sec><title>1 Intro</title><p>${WORDS}</p></sec></body></article>`,
      "utf16le",
    ),
  ]);
  out["XML declares EBCDIC.xhtml"] = xhtml(`<p>${WORDS}</p>`, '<?xml version="1.0" encoding="EBCDIC-US"?>');
  out["DOCX part in UTF-16.docx"] = docx({
    name: "word/document.xml",
    data: Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(wDoc(wp(WORDS), '<?xml version="1.0" encoding="UTF-16"?>'), "utf16le"),
    ]),
  });
  out["DOCX part invalid UTF-8.docx"] = docx({
    name: "word/document.xml",
    data: Buffer.concat([Buffer.from(wDoc(wp(WORDS))), Buffer.from([0xff, 0xc3])]),
  });
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, Buffer.from(v)]));
}

const FIXTURES = [
  "flow.epub",
  "flow-epub2.epub",
  "flow.docx",
  "flow-libreoffice.docx",
  "flow.odt",
  "flow-libreoffice.odt",
  "flow.nxml",
];

function mutations(count, random) {
  const out = {};
  for (let i = 0; i < count; i++) {
    const name = FIXTURES[i % FIXTURES.length];
    const bytes = Buffer.from(readFileSync(join(containers, name)));
    const ext = name.slice(name.lastIndexOf("."));
    if (i % 3 === 0)
      out[`truncation ${i} of ${name}${ext}`] = bytes.subarray(0, Math.floor(random() * bytes.length));
    else {
      for (let f = 0; f < 1 + Math.floor(random() * (i % 3 === 1 ? 4 : 40)); f++)
        bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
      out[`byte flips ${i} of ${name}${ext}`] = bytes;
    }
  }
  return out;
}

/** `sample`: a seeded slice of the generated inputs, smaller bombs and a few mutations. */
export async function hostileFlowAttack(dir, { sample, seed }) {
  const random = rng(seed);
  const inputsDir = join(dir, "in", "inputs");
  mkdirSync(inputsDir, { recursive: true });
  mkdirSync(join(dir, "outside"), { recursive: true });
  const token = `OUTSIDE-MARKER-${seed}-${Math.floor(random() * 1e9)}`;
  const marker = join(dir, "outside", "marker.txt");
  writeFileSync(marker, `${token} ${SECRET}\n`);
  let inputs = Object.entries({
    ...generated(marker, sample ? 32 << 20 : 512 << 20),
    ...mutations(sample ? 12 : 160, random),
  });
  const kept = /bomb in DOCX document|external entity, absolute|laughs in (DOCX|JATS)\.|100,000 deep/;
  if (sample) inputs = inputs.filter(([name], i) => i % 6 === 0 || kept.test(name));
  const evidence = join(dir, "evidence.json");
  writeFileSync(
    evidence,
    JSON.stringify([
      { kind: "quotation", section: "1", text: WORDS },
      { kind: "quotation", text: SECRET },
    ]),
  );
  const stats = emptyStats();
  let heaviest = "";
  await inPool(
    inputs.map(([name, bytes], i) => ({ name, bytes, i })),
    2,
    async ({ name, bytes, i }) => {
      const file = join(inputsDir, `in-${i}${name.slice(name.lastIndexOf("."))}`);
      writeFileSync(file, bytes);
      const flags = `--json --no-cache --serve never --timeout-ms ${DEADLINE_MS}`.split(" ");
      const args = ["verify", file, "--evidence", evidence, ...flags];
      const run = await runCli(args, { timeoutMs: DEADLINE_MS + 5000, cwd: inputsDir });
      classify(stats, name, run);
      if (run.peakMb >= stats.peakMb) heaviest = `${name} (${run.peakMb} MB)`;
      if (`${run.stdout}${run.stderr}`.includes(token)) {
        stats.escapes++;
        stats.worst += `${name}: escape; `;
      } else if (passesToken(run.stdout)) {
        stats.escapes++;
        stats.worst += `${name}: PASS for the outside file; `;
      }
    },
  );
  process.stderr.write(`hostile flow inputs: heaviest ${heaviest}\n`);
  if (stats.worst) process.stderr.write(`hostile flow inputs: ${stats.worst}\n`);
  delete stats.worst;
  return stats;
}

function passesToken(stdout) {
  try {
    const report = JSON.parse(stdout);
    return (report.results ?? []).some(
      (r) => r.verdict === "PASS" && JSON.stringify(r).includes("zebra quokka"),
    );
  } catch {
    return false;
  }
}
