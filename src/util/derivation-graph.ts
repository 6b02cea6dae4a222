/**
 * The derivation manifest: for each kind of record citeproof derives from an input and keeps between
 * runs, a digest of every module that can run while the record is made (its producing modules and all
 * they import, statically, dynamically, or as a worker's `new URL(...)`). A change to any of those
 * modules changes the digest, so a record made by other code is never read back; a change elsewhere
 * leaves it. `npm run build` writes the manifest beside the built code (scripts/derivation-manifest.mjs);
 * derivation.ts reads it.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";

/**
 * Each kind of derived record and the modules that produce it (paths relative to the code's root,
 * without extension). Only the format numbers of what is stored are kept by hand (CACHE_FORMAT,
 * the schema versions); what the records say is named by these digests.
 */
export const DERIVED_RECORDS = {
  /** A PDF's pages as extracted (text layer, geometry): the opening of a document and the engine worker. */
  "page-text": ["document/open", "document/engine-worker"],
  /** The anchors record: equation labels and figure captions decided from the layout. */
  anchors: ["layout/anchors"],
  /** A page's OCR reading: the render, the engines and the parse of their output. */
  "ocr-page": ["ocr/page-ocr", "ocr/tesseract", "checks/cite-check/ocr-evidence"],
  /** A region's OCR reading (a label's line, a strip's rows) for the equation check. */
  "ocr-region": ["checks/ocr-crop-reads", "ocr/region-reading", "ocr/tesseract"],
  /** A flow source (HTML, Markdown, EPUB, ...) read into its document. */
  flow: ["document/flow/open"],
  /** The token index over a document's folded pages. */
  "token-index": ["text/folded-pages", "text/token-index"],
  /** What each page says about its own lines' regions. */
  "regions-pages": ["text/page-regions", "text/body-flow"],
  /** The printed page labels. */
  "printed-labels": ["text/printed-labels"],
  /** Results of quotation and page records. */
  results: ["reading/cited-pages-first", "reading/held-pages"],
  /** Results of quotation and page records against a flow source: its reader, the flow checks, the plan. */
  "flow-results": ["reading/flow-results", "document/flow/open", "checks/flow-verify"],
} as const satisfies Record<string, readonly string[]>;

export type DerivedRecordKind = keyof typeof DERIVED_RECORDS;

export interface DerivationManifest {
  /** The format of this file. */
  format: 1;
  /** Per kind: the digest (16 hex digits) and the modules it covers, sorted. */
  records: Record<DerivedRecordKind, { digest: string; modules: string[] }>;
}

/** The manifest's file name beside the built code (dist/). */
export const MANIFEST_FILE = "derivation-manifest.json";

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew\s+URL\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/gu;
const TYPE_ONLY = /\b(?:import|export)\s+type\s[^;]*?\bfrom\s*["'][^"']+["']/gu;

/** The relative modules a module's source runs: type-only imports and comments left out. */
export function runtimeImports(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//gu, "")
    .replace(/(^|[^:"'`\\])\/\/.*$/gmu, "$1")
    .replace(TYPE_ONLY, "");
  return [...code.matchAll(IMPORT)].map((m) => m[1] as string);
}

/** A module file under `root` for a path without extension: the TypeScript source, else the built JavaScript. */
function moduleFile(root: string, path: string): string | undefined {
  for (const ext of [".ts", ".js"]) if (existsSync(join(root, path + ext))) return path + ext;
  return undefined;
}

/** Reads a module's source, line ends made `\n` (a checkout's line ends name no change). */
export type ReadModule = (file: string) => string;

/**
 * Every module reachable from `roots` (paths without extension, relative to `root`), as files relative
 * to `root`, sorted. A module that cannot be found is an error: the digest would miss it.
 */
export function moduleClosure(root: string, roots: readonly string[], read: ReadModule): string[] {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const path = pending.pop() as string;
    const file = moduleFile(root, path);
    if (file === undefined) throw new Error(`derivation manifest: no module ${path} under ${root}`);
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of runtimeImports(read(file))) {
      if (!/\.[cm]?js$/u.test(specifier)) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      // A CommonJS module (.cjs from .cts) is the CLI's entry, never part of a record's making.
      if (target.endsWith(".cjs") || target.startsWith("..")) continue;
      pending.push(target.replace(/\.m?js$/u, ""));
    }
  }
  return [...seen].sort();
}

/** The digest of files (relative to `root`): each one's path without extension and its contents. */
function digestOf(files: readonly string[], read: ReadModule): string {
  const hash = createHash("sha256");
  for (const file of files)
    hash
      .update(file.replace(/\.[jt]s$/u, ""))
      .update("\0")
      .update(read(file))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** The manifest of the code under `root` (src/ with its .ts modules, or a build's .js modules). */
export function buildManifest(root: string): DerivationManifest {
  const sources = new Map<string, string>();
  const read: ReadModule = (file) => {
    let text = sources.get(file);
    if (text === undefined) {
      text = readFileSync(join(root, file), "utf8").replace(/\r\n?/gu, "\n");
      sources.set(file, text);
    }
    return text;
  };
  const records = {} as DerivationManifest["records"];
  for (const kind of Object.keys(DERIVED_RECORDS) as DerivedRecordKind[]) {
    const modules = moduleClosure(root, DERIVED_RECORDS[kind], read);
    records[kind] = {
      digest: digestOf(modules, read),
      modules: modules.map((m) => m.replace(/\.[jt]s$/u, "")),
    };
  }
  return { format: 1, records };
}
