/**
 * A whole draft against its bibliography: each citation the draft writes is resolved to an entry
 * (by key, number, or family names and year), the entry's source is opened once (whatever number of
 * citations it gets), and each citation with its locator and quotation goes through the single-source
 * check-text checks. Per bound source, whether the file is the work the entry names (`identity`).
 */
import { dirname } from "node:path";
import { checkCitation, verdictSummary } from "../checks/check-text.js";
import { checkFlowRecord } from "../checks/flow-verify.js";
import type { CheckResult } from "../checks/result.js";
import type { Reason, Verdict } from "../checks/verdicts.js";
import { kindName } from "../document/flow/readers.js";
import {
  type CitationStyle,
  type CitedRef,
  type DraftCitation,
  type DraftKind,
  draftKind,
  readDraftCitations,
} from "../prose/bib-citations.js";
import { type Locator, locatorName } from "../prose/locators.js";
import type { ProseCitation } from "../prose/read-draft.js";
import type { FoldedFlow } from "../text/folded-flow.js";
import type { BibEntry, Bibliography, BibliographyFormat, BibProblem } from "./bibliography.js";
import { type CitedPage, citedPage, citedPageNote, type PageBasis } from "./cited-page.js";
import { type Identity, type IdentityCheck, identityOf } from "./identity.js";
import {
  locationName,
  type OpenedSource,
  openCitedSource,
  type SourceKind,
  type SourceLocation,
  type SourceOptions,
  sourceLocation,
  type UnavailableSource,
} from "./sources.js";

export interface CitationSource {
  path?: string;
  url?: string;
  sha256: string | null;
  kind: SourceKind | null;
}

export interface DraftCitationOutcome {
  /** The key, `[3]`, or `Smith 2024a` as the draft names the work; null for an unanchored quotation. */
  key: string | null;
  /** The entry the citation resolved to, when it did. */
  entry: string | null;
  style: CitationStyle | null;
  written: string | null;
  /** `p. 7`, `pp. 7-8`, `sec. 2`, `Eq. (3)`, `Fig. (2)`; null when no locator is read. */
  anchor: string | null;
  quote: string | null;
  /**
   * Which number a PDF page locator was read as: `printed` (the label the source prints) or
   * `physical` (the file's page); null for no page locator, or a source that is not a PDF.
   */
  pageBasis: PageBasis | null;
  verdict: Verdict;
  reason: Reason;
  message: string;
  line: number;
  column: number;
  source: CitationSource | null;
  evidence: Record<string, unknown>;
}

export interface DraftSourceSummary {
  path?: string;
  url?: string;
  sha256: string | null;
  kind: SourceKind | null;
  pages: number | null;
  /** The worst of its entries': differs, then unknown, then matches. */
  identity: Identity;
  entries: { key: string; identity: Identity; title: IdentityCheck; doi: IdentityCheck }[];
  /** Why it could not be read; absent when it was. */
  unavailable?: string;
  citations: number;
}

export interface DraftCheckReport {
  draft: { kind: DraftKind };
  bibliography: { format: BibliographyFormat; entries: number; problems: BibProblem[] };
  sources: DraftSourceSummary[];
  citations: DraftCitationOutcome[];
  summary: { citations: number; PASS: number; FLAG: number; FAIL: number; unanchored: number };
  not_verified: string;
}

export const DRAFT_NOT_VERIFIED =
  "quotations under the floors, sections of a PDF, locators other than p., pp., sec., eq. and fig., and every unquoted claim";

export interface DraftCheckOptions extends Omit<SourceOptions, "needsAnchors" | "folder"> {
  bibliographyPath: string;
  /** The draft's file name, for its kind by extension. */
  draftName?: string;
  /** Sources opened at once. */
  parallel?: number;
}

type Resolved = { entry: BibEntry } | { verdict: Verdict; reason: Reason; message: string } | null;

/** The largest page range checked page by page. */
const MAX_RANGE_PAGES = 50;

export async function checkDraft(
  draft: string,
  bib: Bibliography,
  options: DraftCheckOptions,
): Promise<DraftCheckReport> {
  const reading = readDraftCitations(draft, draftKind(draft, options.draftName));
  const folder = dirname(options.bibliographyPath);
  const resolved: [DraftCitation, Resolved][] = reading.citations.map((c) => [
    c,
    resolveRef(c.ref, bib, reading.numbered),
  ]);
  const kept = resolved.filter((r) => r[1] !== null);
  const bound = new Map<string, { location: SourceLocation; entries: Set<BibEntry>; anchors: boolean }>();
  for (const [c, r] of kept) {
    if (!r || !("entry" in r)) continue;
    const location = sourceLocation(r.entry, folder);
    if (!location) continue;
    const name = locationName(location);
    const slot = bound.get(name) ?? { location, entries: new Set(), anchors: false };
    slot.entries.add(r.entry);
    slot.anchors ||= c.ref.locator?.kind === "equation" || c.ref.locator?.kind === "figure";
    bound.set(name, slot);
  }
  const opened = await openAll([...bound.values()], { ...options, folder }, options.parallel ?? 4);
  const identities = new Map<string, ReturnType<typeof identityOf>>();
  const identityFor = (entry: BibEntry, source: OpenedSource) => {
    const id = `${entry.key}\u0000${locationName(source.location)}`;
    const known = identities.get(id) ?? identityOf(entry, source.front, source.metadataTitle);
    identities.set(id, known);
    return known;
  };
  const citations: DraftCitationOutcome[] = [];
  for (const [c, r] of kept) {
    citations.push(await outcome(c, r, folder, opened, identityFor));
  }
  for (const u of reading.unanchored) {
    citations.push({
      key: null,
      entry: null,
      style: null,
      written: null,
      anchor: null,
      quote: u.quote.text,
      pageBasis: null,
      verdict: "UNANCHORED",
      reason: "no-page",
      message: "quoted, and no citation in its sentence; not checked",
      line: u.line,
      column: u.column,
      source: null,
      evidence: {},
    });
  }
  citations.sort((a, b) => a.line - b.line || a.column - b.column);
  const sources = [...bound.entries()].map(([name, slot]) => {
    const source = opened.get(name);
    const entries = [...slot.entries].map((e) => {
      const id = source && "sha256" in source ? identityFor(e, source) : undefined;
      return {
        key: e.key,
        identity: id?.identity ?? ("unknown" as const),
        title: id?.title ?? ("unknown" as const),
        doi: id?.doi ?? ("unknown" as const),
      };
    });
    const identity: Identity = entries.some((e) => e.identity === "differs")
      ? "differs"
      : entries.some((e) => e.identity === "unknown")
        ? "unknown"
        : "matches";
    const read = source && "sha256" in source ? source : undefined;
    return {
      ...placeOf(slot.location),
      sha256: read?.sha256 ?? null,
      kind: read?.kind ?? null,
      pages: read?.pages ?? null,
      identity,
      entries,
      ...(read ? {} : { unavailable: (source as UnavailableSource | undefined)?.message ?? "not opened" }),
      citations: citations.filter((c) => c.source && locationOf(c.source) === name).length,
    };
  });
  return {
    draft: { kind: reading.kind },
    bibliography: { format: bib.format, entries: bib.size, problems: bib.problems },
    sources,
    citations,
    summary: verdictSummary(citations),
    not_verified: DRAFT_NOT_VERIFIED,
  };
}

function placeOf(location: SourceLocation): { path: string } | { url: string } {
  return "path" in location ? { path: location.path } : { url: location.url };
}

function locationOf(source: CitationSource): string | undefined {
  return source.path ?? source.url;
}

async function openAll(
  slots: { location: SourceLocation; anchors: boolean }[],
  options: Omit<SourceOptions, "needsAnchors">,
  parallel: number,
): Promise<Map<string, OpenedSource | UnavailableSource>> {
  const opened = new Map<string, OpenedSource | UnavailableSource>();
  let next = 0;
  const worker = async () => {
    while (next < slots.length) {
      const slot = slots[next++];
      opened.set(
        locationName(slot.location),
        await openCitedSource(slot.location, { ...options, needsAnchors: slot.anchors }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, slots.length) }, worker));
  return opened;
}

/**
 * The entry a cited work names, a coded outcome when none (or more than one) fits, or null: not a
 * citation. A number names the entry of the draft's own numbered reference list (`numbered`, by key)
 * where it holds one, else the bibliography's.
 */
export function resolveRef(
  ref: CitedRef,
  bib: Bibliography,
  numbered?: ReadonlyMap<number, string>,
): Resolved {
  const work = ref.work;
  if (work.by === "key" || work.by === "number") {
    const listed = work.by === "number" ? numbered?.get(work.number) : undefined;
    const entry =
      work.by === "key"
        ? bib.byKey(work.key)
        : listed !== undefined
          ? bib.byKey(listed)
          : numbered && numbered.size > 0
            ? undefined
            : bib.byNumber(work.number);
    if (entry) return { entry };
    const broken = work.by === "key" ? bib.malformed(work.key) : undefined;
    if (broken) return { verdict: "FLAG", reason: "source-unavailable", message: broken };
    return {
      verdict: "FAIL",
      reason: "unknown-key",
      message:
        work.by === "key"
          ? `the bibliography holds no entry ${work.key}`
          : numbered && numbered.size > 0
            ? `the draft's reference list holds no entry numbered ${work.number}${listed !== undefined ? ` (it lists ${listed}, which the bibliography lacks)` : ""}`
            : `the bibliography holds no entry numbered ${work.number} (it has ${bib.size})`,
    };
  }
  const fits = bib.byYear(work.year).filter((e) => namesFit(work.names, e.families));
  if (fits.length === 0) {
    // Capitalised words before a year in parentheses need not be names: read only names a work has.
    if (work.narrative) return null;
    return { verdict: "FAIL", reason: "unknown-key", message: `no entry of the bibliography is ${ref.key}` };
  }
  if (work.suffix !== "") return bySuffix(ref, fits);
  if (fits.length > 1) {
    return {
      verdict: "FLAG",
      reason: "ambiguous-source",
      message: `${ref.key} fits ${fits.length} entries: ${fits.map((e) => e.key).join(", ")}`,
    };
  }
  return { entry: fits[0] };
}

/**
 * `2024a`, `2024b`: the letters biblatex (extradate) and natbib's styles give the works of one
 * label (the same names as cited, the same year) in the order the reference list sorts them, by
 * title after names and year. The works of the label are those whose author list the citation
 * writes whole (`et al.`: longer than written), else every work that fits. Works whose order cannot
 * be told (a title missing, or two the same) are FLAG ambiguous-source.
 */
function bySuffix(ref: CitedRef, fits: BibEntry[]): Resolved {
  const work = ref.work;
  if (work.by !== "author-year") return null;
  const label = fits.filter((e) =>
    work.etAl ? e.families.length > work.names.length : e.families.length === work.names.length,
  );
  const group = label.length > 0 ? label : fits;
  const titles = group.map((e) => (e.title === null ? null : sortTitle(e.title)));
  if (group.length > 1 && (titles.includes(null) || new Set(titles).size < titles.length)) {
    return {
      verdict: "FLAG",
      reason: "ambiguous-source",
      message: `${ref.key}: the letter cannot be told among ${group.map((e) => e.key).join(", ")} (${titles.includes(null) ? "a title is missing" : "two titles are the same"})`,
    };
  }
  const sorted = group
    .map((entry, i) => ({ entry, title: titles[i] ?? "" }))
    .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.entry.index - b.entry.index));
  // With one work, only `2024a` names it.
  const entry = sorted[work.suffix.charCodeAt(0) - 97]?.entry;
  if (entry) return { entry };
  return { verdict: "FAIL", reason: "unknown-key", message: `no entry of the bibliography is ${ref.key}` };
}

/** A title as a reference list sorts it: accents and case folded, a leading article and punctuation dropped. */
function sortTitle(title: string): string {
  return title
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/^\s*(?:the|an?)\s+/u, "")
    .replace(/\s+/gu, " ")
    .trim();
}

const PARTICLES = /^(?:(?:van|von|der|den|de|du|da|di|del|della|des|dos|la|le|ter|ten|zu|al|el)\s+)+/u;

/** A family name compared without accents, case, particles and punctuation. */
export function nameKey(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(PARTICLES, "")
    .replace(/[^\p{L}]/gu, "");
}

function namesFit(written: string[], families: string[]): boolean {
  if (written.length === 0 || written.length > families.length) return false;
  return written.every((w, i) => nameKey(w) === nameKey(families[i]));
}

async function outcome(
  c: DraftCitation,
  r: Resolved,
  folder: string,
  opened: Map<string, OpenedSource | UnavailableSource>,
  identityFor: (entry: BibEntry, source: OpenedSource) => ReturnType<typeof identityOf>,
): Promise<DraftCitationOutcome> {
  const base = {
    key: c.ref.key,
    entry: r && "entry" in r ? r.entry.key : null,
    style: c.group.style,
    written: c.group.written,
    anchor: c.ref.locator ? locatorName(c.ref.locator) : (c.ref.note ?? null),
    quote: c.quote?.text ?? null,
    pageBasis: null as PageBasis | null,
    line: c.line,
    column: c.column,
  };
  if (!r || !("entry" in r)) return { ...base, ...(r ?? unreachable()), source: null, evidence: {} };
  const location = sourceLocation(r.entry, folder);
  if (!location) {
    return {
      ...base,
      verdict: "FLAG",
      reason: "source-unavailable",
      message: `the entry ${r.entry.key} names no file and no URL`,
      source: null,
      evidence: {},
    };
  }
  const source = opened.get(locationName(location));
  if (!source || !("sha256" in source)) {
    return {
      ...base,
      verdict: "FLAG",
      reason: "source-unavailable",
      message: source?.message ?? "not opened",
      source: { ...placeOf(location), sha256: null, kind: null },
      evidence: {},
    };
  }
  const { result, basis } = await checkRef(c, source);
  if (basis) base.pageBasis = basis;
  const cited = { ...placeOf(location), sha256: source.sha256, kind: source.kind };
  const id = identityFor(r.entry, source);
  if (result.verdict === "PASS" && id.identity === "differs") {
    return {
      ...base,
      verdict: "FLAG",
      reason: "source-mismatch",
      message: `${result.message}; but the file is not the work ${r.entry.key} names (${id.detail})`,
      source: cited,
      evidence: { ...result.evidence, identity: id },
    };
  }
  return {
    ...base,
    verdict: result.verdict,
    reason: result.reason,
    message: result.message,
    source: cited,
    evidence: result.evidence,
  };
}

function unreachable(): never {
  throw new Error("a citation resolved to nothing was dropped before");
}

function unanchored(message: string): CheckResult {
  return { kind: "quotation", verdict: "UNANCHORED", reason: "no-page", message, evidence: {} };
}

/**
 * A citation's check against its opened source, at its locator; with a PDF's page locator, whether
 * its number was read as the printed page or the file's (cited-page.ts).
 */
async function checkRef(
  c: DraftCitation,
  source: OpenedSource,
): Promise<{ result: CheckResult; basis?: PageBasis }> {
  const { locator, note } = c.ref;
  if (note !== undefined)
    return {
      result: unanchored(
        `the locator "${note}" is not one read (p., pp., sec., eq., fig.); nothing was checked`,
      ),
    };
  if (source.kind !== "pdf") return { result: checkFlowRef(c, source.flow, kindName(source.kind)) };
  if (!locator)
    return {
      result: unanchored(
        c.quote ? "quoted, no page named; not checked" : "cited without a page; nothing was checked",
      ),
    };
  if (locator.kind === "section")
    return {
      result: unanchored("a section of a PDF is not checked (a PDF is cited by page); nothing was checked"),
    };
  if (locator.kind !== "pages" && locator.kind !== "page")
    return { result: await checkCitation(source.context, proseCitation(c, locator)) };
  const labels = source.context.pages.labels;
  const from = locator.kind === "page" ? locator : locator.from;
  const to = locator.kind === "page" ? locator : locator.to;
  const start = citedPage(labels, from.page);
  const end = citedPage(labels, to.page);
  // A range is read on one basis: both ends printed, else both physical.
  const basis: PageBasis = start.basis === "printed" && end.basis === "printed" ? "printed" : "physical";
  const first: CitedPage = basis === "printed" ? start : { page: from.page, basis };
  const lastPage = basis === "printed" ? end.page : to.page;
  let firstResult: CheckResult | undefined;
  const last = Math.min(lastPage, first.page + MAX_RANGE_PAGES - 1);
  for (let page = first.page; page <= last; page++) {
    const result = await checkCitation(
      source.context,
      proseCitation(c, { kind: "page", page, digits: String(page) }),
    );
    const note = citedPageNote(labels, { page, basis });
    const noted = note ? { ...result, message: `${result.message}${note}` } : result;
    if (result.verdict === "PASS") return { result: noted, basis };
    firstResult ??= noted;
  }
  return { result: firstResult ?? unanchored("an empty page range; nothing was checked"), basis };
}

/**
 * A citation of a flow source: a quotation under the section named, or anywhere in the source when no
 * locator is given (its whole text is the cited unit); a printed page where the source prints page
 * labels (an EPUB page-list); an equation or figure by its label.
 */
function checkFlowRef(c: DraftCitation, flow: FoldedFlow, kind: string): CheckResult {
  const { locator } = c.ref;
  const text = c.quote?.text;
  if (locator?.kind === "equation" || locator?.kind === "figure")
    return checkFlowRecord(flow, { kind: locator.kind, label: locator.label });
  const printed = (flow.doc.pageLabels?.length ?? 0) > 0;
  if (locator?.kind === "page" || locator?.kind === "pages") {
    if (!printed)
      return unanchored(`the source is ${kind}, which has no pages: cite a section; nothing was checked`);
    const page = locator.kind === "page" ? locator.page : locator.from.page;
    return checkFlowRecord(
      flow,
      text !== undefined ? { kind: "quotation", page, text } : { kind: "page", page },
    );
  }
  if (text === undefined) return unanchored("cited without a quotation; nothing was checked");
  return checkFlowRecord(
    flow,
    locator?.kind === "section"
      ? { kind: "quotation", section: locator.label, text }
      : { kind: "quotation", text },
  );
}

function proseCitation(
  c: DraftCitation,
  anchor: Exclude<Locator, { kind: "pages" | "section" }>,
): ProseCitation {
  const quote = anchor.kind === "page" ? c.quote : undefined;
  return {
    kind: quote ? "quotation" : anchor.kind,
    anchor,
    written: c.group.written,
    ...(quote ? { quote } : {}),
    startUtf16: c.group.startUtf16,
    line: c.line,
    sentence: 0,
  };
}
