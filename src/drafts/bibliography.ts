/**
 * A draft's bibliography: BibTeX and BibLaTeX (through @retorquere/bibtex-parser, the parser of
 * Better BibTeX: `@string`, `crossref`, LaTeX accents), CSL-JSON, or a JSON map `{key: path-or-URL}`.
 * Each entry gives what the checks need: its key, order, title, family names, year, DOI, and where
 * its source is (`file` fields in the forms JabRef, Zotero and Better BibTeX write, `url`). A BibTeX
 * file is cut into entries first and an entry is parsed only when a citation needs it, so a
 * bibliography of 100,000 entries costs one pass; a malformed entry is named with its line and the
 * others still read.
 */
import { CiteproofError } from "../errors.js";
import { isObject } from "../util/json-object.js";
import { type BibChunk, chunkBibtex } from "./bibtex-chunks.js";

export const BIBLIOGRAPHY_FORMATS = ["bibtex", "csl-json", "json-map"] as const;
export type BibliographyFormat = (typeof BIBLIOGRAPHY_FORMATS)[number];

export interface BibEntry {
  key: string;
  /** 1-based position among the entries (numeric citations). */
  index: number;
  /** 1-based line in the bibliography (BibTeX), else null. */
  line: number | null;
  title: string | null;
  /** Family names of the authors (else the editors), in order. */
  families: string[];
  year: string | null;
  doi: string | null;
  /** Local paths as written, the likeliest source first. */
  files: string[];
  urls: string[];
}

export interface BibProblem {
  line: number | null;
  message: string;
}

export interface Bibliography {
  format: BibliographyFormat;
  size: number;
  problems: BibProblem[];
  byKey(key: string): BibEntry | undefined;
  /** A numeric citation: by an entry whose id is the number (CSL-JSON), else by order. */
  byNumber(n: number): BibEntry | undefined;
  /** Entries whose year is this one. */
  byYear(year: string): BibEntry[];
  /** Why an entry with this key could not be read, when it is in the file but malformed. */
  malformed(key: string): string | undefined;
}

/** Reads a bibliography's text; `name` (its file name) picks the format by extension, else the content does. */
export async function readBibliography(text: string, name = ""): Promise<Bibliography> {
  const ext = name.toLowerCase().match(/\.([a-z]+)$/u)?.[1];
  const trimmed = text.trimStart();
  if (ext === "json" || (ext !== "bib" && /^[[{]/u.test(trimmed))) return jsonBibliography(text, name);
  return bibtexBibliography(text);
}

function jsonBibliography(text: string, name: string): Bibliography {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CiteproofError(
      "EVIDENCE_NOT_JSON",
      `bibliography ${name} is not JSON: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  if (Array.isArray(data)) return cslBibliography(data, name);
  if (isObject(data)) return mapBibliography(data, name);
  throw new CiteproofError(
    "EVIDENCE_INVALID",
    `bibliography ${name} is neither a CSL-JSON array nor a {key: path-or-URL} map`,
  );
}

function indexed(format: BibliographyFormat, entries: BibEntry[], problems: BibProblem[]): Bibliography {
  const keys = new Map(entries.map((e) => [e.key, e]));
  return {
    format,
    size: entries.length,
    problems,
    byKey: (key) => keys.get(key),
    byNumber: (n) => keys.get(String(n)) ?? entries[n - 1],
    byYear: (year) => entries.filter((e) => e.year === year),
    malformed: () => undefined,
  };
}

function mapBibliography(data: Record<string, unknown>, name: string): Bibliography {
  const entries: BibEntry[] = [];
  const problems: BibProblem[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== "string") {
      problems.push({
        line: null,
        message: `${name}: the value of "${key}" is not a path or URL; it is skipped`,
      });
      continue;
    }
    const url = /^https?:/iu.test(value);
    entries.push({
      ...blank(key, entries.length + 1),
      files: url ? [] : [fileUrlPath(value)],
      urls: url ? [value] : [],
    });
  }
  return indexed("json-map", entries, problems);
}

function blank(key: string, index: number): BibEntry {
  return { key, index, line: null, title: null, families: [], year: null, doi: null, files: [], urls: [] };
}

/** A `file:` URL's path; anything else as it is. */
function fileUrlPath(value: string): string {
  if (!/^file:/iu.test(value)) return value;
  try {
    return decodeURIComponent(new URL(value).pathname);
  } catch {
    return value;
  }
}

function cslBibliography(items: unknown[], name: string): Bibliography {
  const entries: BibEntry[] = [];
  const problems: BibProblem[] = [];
  items.forEach((item, i) => {
    if (!isObject(item) || (typeof item.id !== "string" && typeof item.id !== "number")) {
      problems.push({ line: null, message: `${name}: item ${i + 1} has no id; it is skipped` });
      return;
    }
    const people = Array.isArray(item.author) ? item.author : Array.isArray(item.editor) ? item.editor : [];
    const families = people
      .map((p) => (isObject(p) ? (str(p.family) ?? str(p.literal)) : null))
      .filter((f): f is string => f !== null);
    const issued = isObject(item.issued) ? item.issued : undefined;
    const parts = issued?.["date-parts"];
    const first = Array.isArray(parts) && Array.isArray(parts[0]) ? parts[0][0] : undefined;
    const year = first !== undefined ? String(first) : (str(issued?.raw)?.match(/\d{4}/u)?.[0] ?? null);
    const url = str(item.URL);
    const files = [str(item.file), url && /^file:/iu.test(url) ? fileUrlPath(url) : null].filter(
      (f): f is string => f !== null,
    );
    entries.push({
      ...blank(String(item.id), entries.length + 1),
      title: str(item.title),
      families,
      year,
      doi: str(item.DOI),
      files: files.flatMap(splitFileField),
      urls: url && /^https?:/iu.test(url) ? [url] : [],
    });
  });
  return indexed("csl-json", entries, problems);
}

/**
 * The paths of a `file` field: several separated by `;`; each a bare path (`{papers/a.pdf}`, Better
 * BibTeX), or `Description:path:type` (JabRef, Mendeley, Zotero's export) with `\:` and `\\` escapes.
 * A PDF (by type or extension) comes first.
 */
export function splitFileField(field: string): string[] {
  const items = field
    .split(/(?<!\\);/u)
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const paths = items.map((item) => {
    const parts = item.split(/(?<!\\):/u);
    // A Windows drive (`C:\x`) is one path, not a description.
    const described = parts.length >= 3 && !/^[A-Za-z]$/u.test(parts[0]);
    const path = described ? parts.slice(1, -1).join(":") : item;
    return { path: path.replace(/\\([:;\\])/gu, "$1"), type: described ? parts[parts.length - 1] : "" };
  });
  const pdf = (p: { path: string; type: string }) => /pdf/iu.test(p.type) || /\.pdf$/iu.test(p.path);
  return [...paths.filter(pdf), ...paths.filter((p) => !pdf(p))].map((p) => p.path).filter((p) => p !== "");
}

/**
 * A field's text, trimmed and composed (the BibTeX parser decodes `{\"u}` as u and a combining mark;
 * a draft writes ü), or null when empty or not text.
 */
function str(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v.trim().normalize("NFC") : null;
}

interface ParsedFields {
  [field: string]: unknown;
}

async function bibtexBibliography(text: string): Promise<Bibliography> {
  const { chunks, errors } = chunkBibtex(text);
  const problems: BibProblem[] = errors.map((e) => ({ line: e.line, message: e.message }));
  const broken = new Map(errors.filter((e) => e.key !== "").map((e) => [e.key, e.message]));
  const strings = boundedStrings(
    chunks.filter((c) => c.type === "string"),
    problems,
  );
  const entries = chunks.filter((c) => c.type !== "string" && c.type !== "preamble");
  const byKey = new Map<string, BibChunk>();
  const index = new Map<BibChunk, number>();
  entries.forEach((c, i) => {
    index.set(c, i + 1);
    if (byKey.has(c.key)) {
      problems.push({
        line: c.line,
        message: `the key ${c.key} at line ${c.line} is defined twice; the first is used`,
      });
    } else byKey.set(c.key, c);
  });
  const { parse } = await import("@retorquere/bibtex-parser");
  const parsed = new Map<BibChunk, BibEntry | null>();
  const entryOf = (chunk: BibChunk | undefined): BibEntry | undefined => {
    if (!chunk) return undefined;
    if (parsed.has(chunk)) return parsed.get(chunk) ?? undefined;
    const family = crossrefFamily(chunk, byKey);
    const size = family.reduce((sum, c) => sum + c.text.length, 0);
    if (size > MAX_ENTRY_CHARS) {
      // The parser takes gigabytes on megabytes of LaTeX: an entry this long is not parsed.
      const message = `the entry ${chunk.key} at line ${chunk.line} is malformed: ${size} characters with its crossrefs, over ${MAX_ENTRY_CHARS}`;
      problems.push({ line: chunk.line, message });
      broken.set(chunk.key, message);
      parsed.set(chunk, null);
      return undefined;
    }
    const library = parse([...strings, ...family.map((c) => c.text)].join("\n"), {
      applyCrossRef: true,
      english: false,
      sentenceCase: false,
      caseProtection: false,
      unsupported: "ignore",
    });
    const found = library.entries.find((e) => e.key === chunk.key);
    if (!found || library.errors.some((e) => (e.input ?? "").includes(`{${chunk.key},`))) {
      const reason =
        library.errors[0]?.error.replace(/ at line \d+, column \d+/u, "") ?? "it could not be read";
      const message = `the entry ${chunk.key} at line ${chunk.line} is malformed: ${reason}`;
      problems.push({ line: chunk.line, message });
      broken.set(chunk.key, message);
      parsed.set(chunk, null);
      return undefined;
    }
    // Fields biblatex's inheritance table leaves out (`file`, `url`, `doi`) are taken from the chain too.
    const chain = family.map(
      (c) => library.entries.find((e) => e.key === c.key)?.fields as ParsedFields | undefined,
    );
    const inherited = (field: string) => chain.find((f) => typeof f?.[field] === "string")?.[field];
    const fields = { ...found.fields, file: inherited("file"), url: inherited("url"), doi: inherited("doi") };
    const entry = bibEntry(chunk, index.get(chunk) ?? 0, fields as ParsedFields);
    parsed.set(chunk, entry);
    return entry;
  };
  const yearOf = (c: BibChunk) => c.text.match(/\b(?:year|date)\s*=\s*[{"]?\s*(\d{4})/iu)?.[1];
  return {
    format: "bibtex",
    size: entries.length,
    problems,
    byKey: (key) => entryOf(byKey.get(key)),
    byNumber: (n) => entryOf(entries[n - 1]),
    byYear: (year) =>
      entries
        // A year a crossref gives is read from the parent.
        .filter(
          (c) =>
            (yearOf(c) ??
              crossrefFamily(c, byKey)
                .map(yearOf)
                .find((y) => y)) === year,
        )
        .map(entryOf)
        .filter((e): e is BibEntry => e !== undefined),
    malformed: (key) => {
      entryOf(byKey.get(key));
      return broken.get(key);
    },
  };
}

/** The longest entry (with its crossref chain) parsed; a longer one is malformed, named with its line. */
const MAX_ENTRY_CHARS = 256 << 10;

/** The longest text one `@string` may expand to; a longer one is left out, named with its line. */
const MAX_STRING_CHARS = 1 << 16;

/**
 * The `@string` definitions whose expansion stays under MAX_STRING_CHARS, measured without expanding
 * them: `@string{s1 = s0 # s0}` doubled 60 times would otherwise be built in full by the parser.
 */
function boundedStrings(chunks: BibChunk[], problems: BibProblem[]): string[] {
  const lengths = new Map<string, number>();
  const kept: string[] = [];
  for (const chunk of chunks) {
    const m = /^@\s*string\s*[{(]\s*([^\s=#{}(),"]+)\s*=([\s\S]*)[})]\s*$/iu.exec(chunk.text);
    if (!m) {
      kept.push(chunk.text);
      continue;
    }
    const name = m[1].toLowerCase();
    const length = concatenation(m[2]).reduce((sum, part) => {
      if (/^[{"]/u.test(part)) return sum + part.length - 2;
      if (/^\d+$/u.test(part)) return sum + part.length;
      return sum + (lengths.get(part.toLowerCase()) ?? part.length);
    }, 0);
    if (length > MAX_STRING_CHARS) {
      // Unmeasurable from now on: every @string built on this one is left out too.
      lengths.set(name, Number.POSITIVE_INFINITY);
      problems.push({
        line: chunk.line,
        message: `the @string ${m[1]} at line ${chunk.line} expands past ${MAX_STRING_CHARS} characters, too long; it is left out`,
      });
      continue;
    }
    lengths.set(name, length);
    kept.push(chunk.text);
  }
  return kept;
}

/** The parts of a BibTeX value joined by `#`, each trimmed (a `#` inside braces or quotes is text). */
function concatenation(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === "{") depth++;
    else if (ch === "}") depth = Math.max(0, depth - 1);
    else if (ch === '"' && depth === 0) quoted = !quoted;
    else if (ch === "#" && depth === 0 && !quoted) {
      parts.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(value.slice(start).trim());
  return parts.filter((p) => p !== "");
}

/** The entry and the entries its `crossref` chain names, each once (a cycle ends the chain). */
function crossrefFamily(chunk: BibChunk, byKey: Map<string, BibChunk>): BibChunk[] {
  const family = [chunk];
  for (let at = chunk; ; ) {
    const parent = at.text.match(/\bcrossref\s*=\s*[{"]\s*([^}"\s]+)\s*[}"]/iu)?.[1];
    const next = parent !== undefined ? byKey.get(parent) : undefined;
    if (!next || family.includes(next)) return family;
    family.push(next);
    at = next;
  }
}

function bibEntry(chunk: BibChunk, index: number, fields: ParsedFields): BibEntry {
  const people = (
    Array.isArray(fields.author) ? fields.author : Array.isArray(fields.editor) ? fields.editor : []
  ) as {
    lastName?: string;
    name?: string;
  }[];
  const date = str(fields.date);
  const file = str(fields.file);
  const url = str(fields.url);
  const doi = str(fields.doi)?.replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/iu, "") ?? null;
  return {
    key: chunk.key,
    index,
    line: chunk.line,
    title: str(fields.title),
    families: people.map((p) => (p.lastName ?? p.name ?? "").normalize("NFC")).filter((f) => f !== ""),
    year: str(fields.year)?.match(/\d{4}/u)?.[0] ?? date?.match(/\d{4}/u)?.[0] ?? null,
    doi,
    files: file ? splitFileField(file) : [],
    urls: url && /^https?:/iu.test(url) ? [url] : [],
  };
}
