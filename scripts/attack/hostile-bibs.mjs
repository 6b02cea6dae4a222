// Hostile bibliographies and drafts, seeded, through `citeproof check-text <draft> --bib <refs>` as a
// child process run in the allowed root: 100,000-entry bibliographies (BibTeX, CSL-JSON, a JSON map),
// crossref cycles and chains, unbalanced braces, malformed entries, @string bombs, 500 and 5,000 keys
// in one citation, a 10 MB draft, `file` fields (in each bibliography format and each way of writing
// one) naming a file outside the root, a FIFO, a symlink out, a folder linked out, /proc/self/environ,
// devices, and random mutations of valid .bib files. A marker file outside the root holds words the
// draft quotes: an escape is its token in what the process prints or a PASS for its words. Each call
// must end in a report or a coded error within its deadline + 5 s, without a stack trace or a signal,
// under the memory cap.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { classify, emptyStats, inPool, runCli } from "./child-run.mjs";
import { rng } from "./seeded.mjs";

const DEADLINE_MS = 20_000;
const QUOTE = "harbour survey counted forty-two wooden boats moored";
// Only the marker file outside holds these words: a PASS for them is a read outside.
const SECRET = "zebra quokka marmot lantern whistle over the quiet fen";
const GOOD_SOURCE = `# 1 Intro\n\nThe ${QUOTE} in the bay.\n`;
const DRAFT = `It says "${QUOTE}" [@good, sec. 1]. Elsewhere "${SECRET}" [@s].\n`;

const bibtex = (key, fields) =>
  `@article{${key}, ${Object.entries(fields)
    .map(([k, v]) => `${k} = {${v}}`)
    .join(", ")}}`;
const GOOD_BIB = [
  bibtex("good", { author: "Smith, Ann", title: "Good", year: "2020", file: "good.md" }),
  bibtex("other", { author: "Jones, Bo", title: "Other", year: "2021", file: ":good.md:text/markdown" }),
  "@string{jn = {Journal of Boats}}",
  "@book{parent, title = {Parent}, journal = jn, file = {good.md}}",
  "@inbook{child, crossref = {parent}, title = {Child \\'{e}t\\\"{u}de}}",
].join("\n");

/** The paths a hostile `file` field names, relative to the root the child runs in. */
function outsidePaths(dir) {
  const secret = join(dir, "outside", "secret.txt");
  return {
    "absolute outside": secret,
    "climbing ..": "../outside/secret.txt",
    "climbing from a subfolder": "sub/../../outside/secret.txt",
    "deep climb": `${"../".repeat(40)}${secret.slice(1)}`,
    "file: URL": `file://${secret}`,
    "file: URL, encoded ..": "file:..%2Foutside%2Fsecret.txt",
    "percent-encoded ..": "..%2Foutside%2Fsecret.txt",
    FIFO: "pipe.txt",
    "symlink out": "link.txt",
    "symlink chain out": "chain.txt",
    "folder linked out": "linked/secret.txt",
    "symlink to /proc/self/environ": "env.txt",
    "/proc/self/environ": "/proc/self/environ",
    "/proc/self/cmdline": "/proc/self/cmdline",
    "/proc/self/fd/0": "/proc/self/fd/0",
    "/dev/stdin": "/dev/stdin",
    "/dev/zero": "/dev/zero",
    "/dev/urandom": "/dev/urandom",
    "/etc/passwd": "/etc/passwd",
    "home ~": "~/../../outside/secret.txt",
    "the root folder itself": ".",
    "a folder": "sub",
    "NUL in the path": "good.md\u0000../outside/secret.txt",
    "newline in the path": "good.md\n../outside/secret.txt",
    "path of 100,000 characters": `${"a/".repeat(50_000)}x.txt`,
    "Windows drive": "C:\\outside\\secret.txt",
    "UNC path": "\\\\server\\share\\secret.txt",
  };
}

function fileFieldForms(path) {
  const esc = path.replace(/\\/gu, "\\\\").replace(/:/gu, "\\:").replace(/;/gu, "\\;");
  return {
    bare: path,
    jabref: `:${esc}:text/plain`,
    zotero: `Snapshot:${esc}:text/html;Full Text:${esc}:application/pdf`,
  };
}

function generated(dir, { big, draftMb }) {
  const out = [];
  const add = (name, bib, { ext = "bib", draft = DRAFT, draftExt = "md", deadline } = {}) =>
    out.push({ name, bib, ext, draft, draftExt, deadline });
  // `file` fields outside the roots, in every bibliography format and every way of writing one.
  for (const [what, path] of Object.entries(outsidePaths(dir))) {
    for (const [form, value] of Object.entries(fileFieldForms(path)))
      add(`${what}, BibTeX ${form}`, `${GOOD_BIB}\n${bibtex("s", { title: "S", file: value })}`);
    add(
      `${what}, crossref inherited`,
      `${GOOD_BIB}\n${bibtex("p2", { title: "P", file: path })}\n${bibtex("s", { crossref: "p2" })}`,
    );
    add(
      `${what}, CSL-JSON file`,
      JSON.stringify([
        { id: "good", file: "good.md" },
        { id: "s", type: "article", file: path },
      ]),
      { ext: "json" },
    );
    add(
      `${what}, CSL-JSON URL`,
      JSON.stringify([
        { id: "good", file: "good.md" },
        { id: "s", URL: `file://${path}` },
      ]),
      { ext: "json" },
    );
    add(`${what}, JSON map`, JSON.stringify({ good: "good.md", s: path }), { ext: "json" });
  }
  // Size.
  const n = big ? 100_000 : 10_000;
  const many = Array.from({ length: n }, (_, i) =>
    bibtex(`k${i}`, { author: "Smith, Ann", title: `T ${i}`, year: `${1900 + (i % 100)}` }),
  );
  add(`${n.toLocaleString("en")}-entry BibTeX`, `${many.join("\n")}\n${GOOD_BIB}`, { deadline: 60_000 });
  add(
    `${n.toLocaleString("en")}-entry CSL-JSON`,
    JSON.stringify([
      ...Array.from({ length: n }, (_, i) => ({ id: `k${i}`, title: `T ${i}` })),
      { id: "good", file: "good.md" },
    ]),
    { ext: "json", deadline: 60_000 },
  );
  add(
    `${n.toLocaleString("en")}-key JSON map`,
    JSON.stringify(
      Object.fromEntries([
        ...Array.from({ length: n }, (_, i) => [`k${i}`, `f${i}.pdf`]),
        ["good", "good.md"],
      ]),
    ),
    { ext: "json", deadline: 60_000 },
  );
  add(
    `${n.toLocaleString("en")} duplicate keys`,
    `${Array.from({ length: n }, () => bibtex("good", { file: "good.md" })).join("\n")}`,
    { deadline: 60_000 },
  );
  // Cross-references.
  add(
    "crossref 2-cycle",
    `${bibtex("s", { crossref: "t", file: "good.md" })}\n${bibtex("t", { crossref: "s" })}\n${GOOD_BIB}`,
  );
  add("crossref to itself", `${bibtex("s", { crossref: "s" })}\n${GOOD_BIB}`);
  add(
    "crossref chain of 10,000",
    `${Array.from({ length: 10_000 }, (_, i) => bibtex(`c${i}`, { crossref: `c${i + 1}` })).join("\n")}\n${bibtex("c10000", { file: "good.md" })}\n${bibtex("s", { crossref: "c0" })}\n${GOOD_BIB}`,
    { deadline: 60_000 },
  );
  add(
    "crossref cycle of 10,000",
    `${Array.from({ length: 10_000 }, (_, i) => bibtex(`c${i}`, { crossref: `c${(i + 1) % 10_000}` })).join("\n")}\n${bibtex("s", { crossref: "c5" })}\n${GOOD_BIB}`,
    { deadline: 60_000 },
  );
  add(
    "xdata cycle",
    `@xdata{x1, xdata = {x2}}\n@xdata{x2, xdata = {x1}}\n${bibtex("s", { xdata: "x1" })}\n${GOOD_BIB}`,
  );
  // Broken syntax.
  add("unbalanced open brace", `${GOOD_BIB}\n@article{s, title = {never {closed}, file = {good.md}`);
  add("unbalanced close brace", `}}}}${GOOD_BIB}\n@article{s, title = {x}}}}}, file = {good.md}}`);
  add(
    "braces 100,000 deep",
    `${GOOD_BIB}\n@article{s, title = ${"{".repeat(100_000)}x${"}".repeat(100_000)}}`,
  );
  add("open braces 100,000, never closed", `${GOOD_BIB}\n@article{s, title = ${"{".repeat(100_000)}`);
  add("quotes never closed", `${GOOD_BIB}\n@article{s, title = "never closed, file = {good.md}}`);
  add("malformed entry", `${GOOD_BIB}\n@article{s, title = {x} year = 2001 file = {good.md}}`);
  add("entry without a key", `${GOOD_BIB}\n@article{, title = {x}}`);
  add("100,000 @ signs", `${"@".repeat(100_000)}\n${GOOD_BIB}`);
  add("100,000 empty entries", `${"@article{}\n".repeat(100_000)}${GOOD_BIB}`, { deadline: 60_000 });
  add("@comment swallowing the rest", `@comment{${GOOD_BIB}`);
  add("@preamble 1 MB", `@preamble{"${"x".repeat(1 << 20)}"}\n${GOOD_BIB}`);
  add("@string undefined", `${GOOD_BIB}\n@article{s, title = undefinedmacro # other, file = {good.md}}`);
  add("@string cycle", `@string{a = b}\n@string{b = a # a}\n${GOOD_BIB}\n@article{s, title = a}`);
  add(
    "@string doubling bomb (2^60)",
    `@string{s0 = "xxxxxxxxxx"}\n${Array.from({ length: 60 }, (_, i) => `@string{s${i + 1} = s${i} # s${i}}`).join("\n")}\n${GOOD_BIB}\n@article{s, title = s60}`,
  );
  add(
    "LaTeX accents 100,000",
    `${GOOD_BIB}\n@article{s, title = {${"\\'{".repeat(100_000)}e${"}".repeat(100_000)}}}`,
  );
  add("field of 5 MB", `${GOOD_BIB}\n@article{s, abstract = {${"word ".repeat(1 << 20)}}, file = {good.md}}`);
  add("NUL bytes", `${GOOD_BIB}\n\u0000\u0000@article{s\u0000, file = {good.md}}`);
  add(
    "invalid UTF-8 bibliography",
    Buffer.concat([Buffer.from(GOOD_BIB), Buffer.from([0xff, 0xfe, 0xc3, 0x28])]),
  );
  add("UTF-16 bibliography", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(GOOD_BIB, "utf16le")]));
  add("0-byte bibliography", "");
  add(
    "random bytes as bibliography",
    Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 2654435761) >>> 24)),
  );
  add("JSON nested 100,000 deep", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, { ext: "json" });
  add("JSON map of objects", JSON.stringify({ s: { file: "../outside/secret.txt" }, good: ["good.md"] }), {
    ext: "json",
  });
  add(
    "CSL-JSON with __proto__",
    '[{"id":"__proto__","file":"good.md"},{"id":"s","__proto__":{"file":"../outside/secret.txt"}}]',
    { ext: "json" },
  );
  add("JSON map with __proto__", '{"__proto__":"../outside/secret.txt","good":"good.md"}', { ext: "json" });
  add(
    "CSL-JSON object values",
    JSON.stringify([{ id: "s", file: { path: "../outside/secret.txt" } }, { id: { x: 1 } }]),
    { ext: "json" },
  );
  // Drafts.
  const keys = (k) => Array.from({ length: k }, (_, i) => `key${i}`);
  add("500 keys in one \\cite", GOOD_BIB, {
    draft: `\\documentclass{article}\nSee \\cite{${keys(500).join(",")}}.`,
    draftExt: "tex",
  });
  add("5,000 keys in one \\cite", GOOD_BIB, {
    draft: `\\documentclass{article}\nSee \\cite[p.~1]{${keys(5000).join(",")}}.`,
    draftExt: "tex",
  });
  add("500 keys in one pandoc citation", GOOD_BIB, {
    draft: `"${QUOTE}" [${keys(500)
      .map((k) => `@${k}, p. 1`)
      .join("; ")}].`,
  });
  add("\\cite unclosed", GOOD_BIB, {
    draft: `\\documentclass{article}\nSee \\cite{good${",good".repeat(100_000)}`,
    draftExt: "tex",
  });
  add("\\cite nested 10,000 deep", GOOD_BIB, {
    draft: `\\documentclass{article}\n${"\\cite{".repeat(10_000)}good${"}".repeat(10_000)}`,
    draftExt: "tex",
  });
  add("100,000 citations", GOOD_BIB, {
    draft: `"${QUOTE}" [@good, sec. 1]. `.repeat(100_000),
    deadline: 120_000,
  });
  add("brackets 100,000 deep in a draft", GOOD_BIB, {
    draft: `${"[".repeat(100_000)}@good${"]".repeat(100_000)}`,
  });
  add("quotes 100,000 unclosed", GOOD_BIB, { draft: `"${QUOTE} `.repeat(100_000) });
  const filler = "The boats were counted again in the autumn, and the lists agreed. ".repeat(30);
  const paragraph = `${filler}Prose (Nobody 1999) and [3] and "${QUOTE}" [@good, sec. 1].\n\n`;
  add(`${draftMb} MB draft`, GOOD_BIB, {
    draft: paragraph.repeat(Math.ceil((draftMb << 20) / paragraph.length)),
    deadline: 120_000,
  });
  add("0-byte draft", GOOD_BIB, { draft: "" });
  add("invalid UTF-8 draft", GOOD_BIB, {
    draft: Buffer.concat([Buffer.from(DRAFT), Buffer.from([0xff, 0xc3, 0x28])]),
  });
  add("UTF-16 draft", GOOD_BIB, {
    draft: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(DRAFT, "utf16le")]),
  });
  add("draft of one 5 MB line", GOOD_BIB, { draft: `${"word ".repeat(1 << 20)}"${QUOTE}" [@good, sec. 1]` });
  add("draft of NUL bytes", GOOD_BIB, { draft: Buffer.alloc(1 << 20) });
  return out;
}

function mutations(count, random) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const bytes = Buffer.from(`${GOOD_BIB}\n${bibtex("s", { title: "S", file: "../outside/secret.txt" })}`);
    const kind = ["truncation", "byte flips", "brace flips", "splice"][i % 4];
    let bib = bytes;
    if (kind === "truncation") bib = bytes.subarray(0, Math.floor(random() * bytes.length));
    else if (kind === "byte flips")
      for (let f = 0; f < 1 + Math.floor(random() * 12); f++)
        bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
    else if (kind === "brace flips") {
      const marks = Buffer.from('{}@,="#%\\');
      for (let f = 0; f < 1 + Math.floor(random() * 12); f++)
        bytes[Math.floor(random() * bytes.length)] = marks[Math.floor(random() * marks.length)];
    } else {
      const a = Math.floor(random() * bytes.length);
      const b = Math.floor(random() * bytes.length);
      bib = Buffer.concat([bytes.subarray(0, a), bytes.subarray(b), bytes.subarray(a, b)]);
    }
    out.push({ name: `${kind} ${i}`, bib, ext: "bib", draft: DRAFT, draftExt: "md" });
  }
  return out;
}

/** `sample`: a seeded slice of the generated inputs, smaller sizes and a few mutations. */
export async function hostileBibAttack(dir, { sample, seed }) {
  const random = rng(seed);
  const root = join(dir, "root");
  mkdirSync(join(root, "sub"), { recursive: true });
  mkdirSync(join(dir, "outside"), { recursive: true });
  const token = `OUTSIDE-MARKER-${seed}-${Math.floor(random() * 1e9)}`;
  const secret = join(dir, "outside", "secret.txt");
  writeFileSync(secret, `# 1 Outside\n\n${token} ${SECRET}\n`);
  writeFileSync(join(root, "good.md"), GOOD_SOURCE);
  execFileSync("mkfifo", [join(root, "pipe.txt")]);
  symlinkSync(secret, join(root, "link.txt"));
  symlinkSync(join(root, "link.txt"), join(root, "chain.txt"));
  symlinkSync(join(dir, "outside"), join(root, "linked"));
  symlinkSync("/proc/self/environ", join(root, "env.txt"));
  let inputs = [
    ...generated(dir, { big: !sample, draftMb: sample ? 2 : 10 }),
    ...mutations(sample ? 8 : 120, random),
  ];
  const kept = /bomb|cycle|10,000-|(environ|FIFO|symlink out), BibTeX bare/;
  if (sample) inputs = inputs.filter((input, i) => i % 8 === 0 || kept.test(input.name));
  const stats = emptyStats();
  let heaviest = "";
  // The child's environment carries the token too: /proc/self/environ read back shows it.
  const env = { CITEPROOF_ATTACK_MARKER: token, CITEPROOF_SERVE: "never" };
  await inPool(
    inputs.map((input, i) => ({ ...input, i })),
    2,
    async ({ name, bib, ext, draft, draftExt, deadline = DEADLINE_MS, i }) => {
      const bibFile = join(root, `refs-${i}.${ext}`);
      const draftFile = join(root, `draft-${i}.${draftExt}`);
      writeFileSync(bibFile, bib);
      writeFileSync(draftFile, draft);
      const flags = `--format json --no-cache --timeout-ms ${deadline}`.split(" ");
      const run = await runCli(["check-text", draftFile, "--bib", bibFile, ...flags], {
        timeoutMs: deadline + 5000,
        cwd: root,
        env,
      });
      classify(stats, name, run);
      if (run.peakMb >= stats.peakMb) heaviest = `${name} (${run.peakMb} MB)`;
      const inOutput = run.stdout.includes(token) || run.stderr.includes(token);
      if (inOutput || passesSecret(run.stdout)) {
        stats.escapes++;
        stats.worst += `${name}: ${inOutput ? "marker in output" : "PASS for the outside file"}; `;
      }
    },
  );
  process.stderr.write(`hostile bibliographies: heaviest ${heaviest}\n`);
  if (stats.worst) process.stderr.write(`hostile bibliographies: ${stats.worst}\n`);
  delete stats.worst;
  return stats;
}

function passesSecret(stdout) {
  try {
    const report = JSON.parse(stdout);
    return (report.citations ?? []).some(
      (c) => c.verdict === "PASS" && (c.quote ?? "").includes("zebra quokka"),
    );
  } catch {
    return false;
  }
}
