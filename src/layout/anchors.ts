/**
 * The anchors record: every equation label and figure caption a document prints, as decided from
 * its page layout, with every rejected equation-label candidate and its reasons. Computed once per
 * document and cached beside the extraction; stored extraction records (schema 2 on) carry it.
 */

import { defaultCacheDir, ExtractionCache } from "../document/cache.js";
import {
  type Box,
  EXTRACTION_SCHEMA_VERSION,
  EXTRACTOR_VERSION,
  type PageGeometry,
  type PageText,
  type Rotation,
} from "../document/model.js";
import { DEFAULT_TIMEOUT_MS, type OpenedDocument, type OpenOptions, openDocument } from "../document/open.js";
import { once, processTuning } from "../document/process-tuning.js";
import { DEFAULT_MAX_PDF_BYTES, type PdfBytes, readPdfFile } from "../source/file.js";
import { Deadline } from "../util/deadline.js";
import { derivationKey } from "../util/derivation.js";
import { BodyStyleTally } from "./body-style.js";
import { type BodyStyle, type DecidedCaption, decideCaptions } from "./caption-decisions.js";
import type { CaptionFeatures } from "./caption-features.js";
import type { FigureBoxOmission } from "./caption-rejections.js";
import { roundBox } from "./char-spans.js";
import { type DisplaySpace, displayedPage, displaySpace } from "./display-space.js";
import type { EquationFeatures } from "./equation-features.js";
import {
  type EquationCandidate,
  type EquationToken,
  equationCandidates,
  equationTokens,
  type PageEquations,
  reachedBy,
  type TextWidth,
} from "./equation-labels.js";
import {
  type CaptionCandidate,
  type CaptionKeyword,
  type CaptionRejection,
  type CaptionSeparator,
  type CaptionToken,
  captionCandidates,
  captionTokens,
  turnedTokens,
} from "./figure-captions.js";
import type { GraphicsSide } from "./figure-graphics.js";
import { type LayoutBudget, layoutBudget, UNBOUNDED } from "./layout-budget.js";
import { BandIndex, CharStorage, pageChars, printedSize } from "./page-chars.js";
import type { RejectionReason } from "./rejection-reasons.js";
import { type PanelMark, panelMarks, type SubfigurePanel } from "./subfigure-panels.js";
import { type DocumentFrames, documentFrames, type Frame } from "./text-frames.js";

/** The anchors record belongs to this extraction schema (the first that holds anchors). */
export const ANCHORS_SCHEMA_VERSION = EXTRACTION_SCHEMA_VERSION;
const RECORD_NAME = "anchors";

export interface EquationAnchor {
  label: string;
  page: number;
  /** Box of the printed "(label)". */
  labelBox: Box;
  /** Box of the displayed equation's line beside the label. */
  equationBox: Box;
  side: "right" | "left";
  /** With `explain`: what the decision read and which of its predicates held. */
  explain?: EquationExplanation;
}

/** A candidate's features and the decision's predicates that held for it (see equation-decision.ts). */
export interface EquationExplanation {
  features: EquationFeatures;
  decidedBy: string[];
  /** The column frame the label was measured in, when it stands in one. */
  frame?: Box;
  /** The content beside the label the decision read (a rejected candidate's would-be display). */
  contentBox?: Box;
}

export interface RejectedEquationCandidate {
  label: string;
  /** The token as printed, e.g. "(3)." */
  printed: string;
  page: number;
  labelBox: Box;
  reasons: RejectionReason[];
  /** With `explain`: what the decision read and which of its predicates held. */
  explain?: EquationExplanation;
}

export interface FigureAnchor {
  label: string;
  page: number;
  keyword: CaptionKeyword;
  /** What follows the number: ".", ":", "|", a dash, or "" when the caption's words follow directly. */
  separator: CaptionSeparator;
  /** The caption's opening words. */
  text: string;
  labelBox: Box;
  captionBox: Box;
  /** The figure's graphics, only when it is sure which graphics are this caption's figure. */
  figureBox?: Box;
  /** Why figureBox is left out. */
  figureBoxOmitted?: FigureBoxOmission;
  /** The figure's subfigure panels, "(a)", "(b)": printed in its area or enumerated by its caption. */
  panels?: SubfigurePanel[];
  /** With `explain`: what the decision read and which of its predicates held. */
  explain?: CaptionExplanation;
}

/** A caption candidate's features and the decision's predicates that held for it (see caption-decision.ts). */
export interface CaptionExplanation {
  features: CaptionFeatures;
  decidedBy: string[];
  /** The caption's block (its lines), which a rejected candidate's record does not give otherwise. */
  captionBox: Box;
}

export interface RejectedCaption {
  label: string;
  page: number;
  text: string;
  labelBox: Box;
  reasons: CaptionRejection[];
  /** With `explain`: what the decision read and which of its predicates held. */
  explain?: CaptionExplanation;
}

export interface AnchorsRecord {
  schemaVersion: number;
  layoutVersion: string;
  extractorVersion: string;
  sha256: string;
  pageCount: number;
  equations: EquationAnchor[];
  rejectedEquationCandidates: RejectedEquationCandidate[];
  figures: FigureAnchor[];
  rejectedCaptions: RejectedCaption[];
  /** Pages that gave no text (no text layer or a failed extraction): nothing could be read there. */
  pagesWithoutText: number[];
  /**
   * Of those, the pages whose extraction failed (the engine aborted or ran out of its memory
   * limit): a label not found may be printed there. Absent from records stored before it was kept.
   */
  pagesUnreadable?: number[];
}

export interface AnchorsInput {
  sha256: string;
  pageCount: number;
  /** Every page's text layer, indexed by page - 1. */
  pages: readonly (PageText | undefined)[];
  /** The geometry of a page; asked only for pages whose text could hold an anchor. */
  geometry: (page: number) => PageGeometry | undefined;
}

/** The tokens of a page that could be an equation label or open a caption. */
interface PageTokens {
  equations: EquationToken[];
  captions: CaptionToken[];
}

function pageTokens(page: PageText | undefined): PageTokens | undefined {
  if (!page?.hasTextLayer) return undefined;
  const equations = equationTokens(page);
  const captions = captionTokens(page);
  return equations.length > 0 || captions.length > 0 ? { equations, captions } : undefined;
}

function documentTokens(pages: readonly (PageText | undefined)[], budget: LayoutBudget) {
  return pages.map((p) => {
    budget.check();
    return pageTokens(p);
  });
}

/**
 * Up to this many tokens (equation-label and caption candidates over the whole document), a process's
 * first decision is a short run for the process's tuning (process-tuning.ts; the CLI's pauses V8's
 * optimizing compiler, see src/cli/v8-tuning.ts): its compiles cost
 * more than the few candidates earn back. Measured on 2 cores, CPU of deciding in a fresh process,
 * alternating: 30-65% less on the corpus's papers, slides and 418-page book (up to 263 tokens);
 * about even at 240-420 tokens of the bench's dense prose; 20% more at 620 and 2x at 3,900. Above
 * it, a first decision is a long one (the CLI hands only the hottest functions to the optimizing compiler).
 */
export const SMALL_DECIDE_TOKENS = 300;

/** Decisions this process has started (the first one decides with fewer optimizing compiles). */
let decisionsStarted = 0;

function tokenCount(tokens: readonly (PageTokens | undefined)[]): number {
  let n = 0;
  for (const t of tokens) if (t) n += t.equations.length + t.captions.length;
  return n;
}

export function computeAnchors(input: AnchorsInput): AnchorsRecord {
  const builder = new AnchorsBuilder(input.pages);
  for (const page of builder.pagesNeedingGeometry()) {
    const geometry = input.geometry(page);
    if (geometry) builder.addPage(page, geometry);
  }
  for (const page of builder.pagesToJudgeAgain()) {
    const geometry = input.geometry(page);
    if (geometry) builder.judgeAgain(page, geometry);
  }
  return builder.finish(input.sha256, input.pageCount);
}

/**
 * The heights of a page the rules look at: around each equation-label token, and from a little
 * above each caption's first line down to where a long caption could end. Characters elsewhere are
 * never consulted, so they are not read. Undefined when the windows cover most of the page anyway.
 */
function anchorWindows(
  text: PageText,
  tokens: PageTokens,
  geometry: PageGeometry,
  space: DisplaySpace | undefined,
  frames: Frame[],
): [number, number][] | undefined {
  const windows: [number, number][] = [];
  const g = geometry.glyphBoxes;
  const sizeAt = (i: number) => {
    const size = printedSize(
      geometry.fontSizes[i],
      geometry.looseBoxes[i * 4 + 1],
      geometry.looseBoxes[i * 4 + 3],
    );
    return size > 0 ? size : 10;
  };
  const boxAt = (i: number): Box | undefined => {
    const box = { left: g[i * 4], bottom: g[i * 4 + 1], right: g[i * 4 + 2], top: g[i * 4 + 3] };
    if (!Number.isFinite(box.bottom) || !Number.isFinite(box.left)) return undefined;
    return space ? space.box(box) : box;
  };
  const heights = (i: number): [number, number] | undefined => {
    const b = boxAt(i);
    return b ? [b.bottom, b.top] : undefined;
  };
  for (const { startUtf16: i, inner } of tokens.equations) {
    const em = sizeAt(i);
    const open = boxAt(i);
    if (!open) continue;
    const close = boxAt(i + inner.length + 1);
    // A token that opens at a column's left edge, or closes near its right edge, could be a
    // display's label: its whole display is read. Any other token needs only its neighbourhood.
    let edge = false;
    for (const f of frames) {
      const atRight = close
        ? Math.abs(close.right - f.right) <= Math.max(2, em * 2)
        : f.right - open.left <= em * 6 && f.right >= open.left;
      if (Math.abs(open.left - f.left) <= em || atRight) edge = true;
    }
    const reach = edge ? EQUATION_REACH : NEIGHBOURHOOD;
    windows.push([open.bottom - em * reach, open.top + em * reach]);
  }
  for (const { startUtf16: i } of tokens.captions) {
    const em = sizeAt(i);
    const y = heights(i);
    if (y) windows.push([y[0] - em * CAPTION_REACH, y[1] + em * 3]);
  }
  windows.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const w of windows) {
    const last = merged[merged.length - 1];
    if (last && w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else merged.push([w[0], w[1]]);
  }
  const covered = merged.reduce((sum, [lo, hi]) => sum + (hi - lo), 0);
  return covered > text.height * 0.8 ? undefined : merged;
}

/** How far, in em, the equation rules look above and below a label at a column edge (a tall display). */
const EQUATION_REACH = 10;
/** How far, in em, the rules look above and below any other token (rows above and below it). */
const NEIGHBOURHOOD = 4;
/** How far below its first line, in em, a caption's block can run. */
const CAPTION_REACH = 45;

/** Decides page by page, so only one page's geometry need be held at a time. */
class AnchorsBuilder {
  private readonly frames: DocumentFrames;
  private readonly equations: EquationAnchor[] = [];
  private readonly rejected: RejectedEquationCandidate[] = [];
  private readonly captions: CaptionCandidate[] = [];
  private readonly marks = new Map<number, PanelMark[]>();
  private readonly body = new BodyStyleTally();
  /** What each page's equation labels showed and where they stand, for the document-wide widths. */
  private readonly equationPages = new Map<number, PageEquations>();
  private readonly storage = new CharStorage();

  /** The pages as displayed (a page with /Rotate turned upright), which the rules read. */
  private readonly displayed: (PageText | undefined)[];
  private readonly tokens: (PageTokens | undefined)[];

  constructor(
    private readonly pages: readonly (PageText | undefined)[],
    private readonly budget: LayoutBudget = UNBOUNDED,
    tokens: (PageTokens | undefined)[] = documentTokens(pages, budget),
    private readonly explain = false,
  ) {
    this.displayed = pages.map((p) => (p ? displayedPage(p) : undefined));
    this.frames = documentFrames(this.displayed);
    this.tokens = tokens;
  }

  /** Pages whose text could hold an equation label or a caption: only these need geometry. */
  pagesNeedingGeometry(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.tokens.length; i++) if (this.tokens[i]) out.push(i + 1);
    return out;
  }

  addPage(page: number, geometry: PageGeometry): void {
    const read = this.readPage(page, geometry);
    if (!read) return;
    const { original, text, tokens, chars, index, user } = read;
    const judged = equationCandidates(text, chars, this.frames, index, tokens.equations, this.budget);
    // Kept only where it matters: the widths a page shows, and where its labels stand.
    if (judged.widths.length > 0 || judged.labelEdges.length > 0)
      this.equationPages.set(page, { ...judged, candidates: [] });
    this.addEquations(page, user, judged.candidates);
    const bodyLines = this.frames.bodyLines[page - 1] ?? [];
    this.body.add(text, geometry, bodyLines);
    const found = captionCandidates(text, chars, index, this.frames, tokens.captions, this.budget);
    for (const c of found) this.captions.push(inUserSpace(c, user));
    if (found.length > 0)
      this.marks.set(
        page,
        panelMarks(text).map((m) => ({ letter: m.letter, box: user(m.box) })),
      );
    this.addTurnedCaptions(original, geometry, turnedTokens(chars, tokens.captions));
  }

  /**
   * The pages whose equation labels stand at the right edge of a text width that other pages show
   * (all pages added): their labels are judged again against those widths (`judgeAgain`). Which
   * pages, and what they decide, does not depend on the order the pages came in.
   */
  pagesToJudgeAgain(): number[] {
    const out: number[] = [];
    for (const [page, judged] of this.equationPages)
      if (reachedBy(judged, this.widthsBesides(page))) out.push(page);
    return out.sort((a, b) => a - b);
  }

  judgeAgain(page: number, geometry: PageGeometry): void {
    const read = this.readPage(page, geometry);
    if (!read) return;
    const { text, tokens, chars, index, user } = read;
    const shown = this.widthsBesides(page);
    const judged = equationCandidates(text, chars, this.frames, index, tokens.equations, this.budget, shown);
    const others = <T extends { page: number }>(list: T[]) => list.filter((e) => e.page !== page);
    this.equations.splice(0, this.equations.length, ...others(this.equations));
    this.rejected.splice(0, this.rejected.length, ...others(this.rejected));
    this.addEquations(page, user, judged.candidates);
  }

  /** The text widths shown by the pages other than this one. */
  private widthsBesides(page: number): TextWidth[] {
    const out: TextWidth[] = [];
    for (const [p, judged] of this.equationPages) if (p !== page) out.push(...judged.widths);
    return out;
  }

  /** A page's text, tokens and characters as the rules read them, when it has tokens. */
  private readPage(page: number, geometry: PageGeometry) {
    const original = this.pages[page - 1];
    const text = this.displayed[page - 1];
    const tokens = this.tokens[page - 1];
    if (!original || !text || !tokens) return undefined;
    const space = displaySpace(original);
    const user = (b: Box) => (space ? roundBox(space.toUser(b)) : b);
    const frames = [...(this.frames.pageFrames[page - 1] ?? []), ...this.frames.docFrames];
    const chars = pageChars(
      text,
      geometry,
      this.storage,
      anchorWindows(text, tokens, geometry, space, frames),
      space,
    );
    this.budget.check();
    return { original, text, tokens, chars, index: new BandIndex(chars), user };
  }

  private addEquations(page: number, user: (b: Box) => Box, candidates: EquationCandidate[]): void {
    for (const c of candidates) {
      if (c.reasons.length === 0 && c.side && c.equationBox) {
        this.equations.push({
          label: c.label,
          page,
          labelBox: user(c.labelBox),
          equationBox: user(c.equationBox),
          side: c.side,
          ...this.explanation(c, user),
        });
      } else {
        this.rejected.push({
          label: c.label,
          printed: c.printed.trim(),
          page,
          labelBox: user(c.labelBox),
          reasons: c.reasons,
          ...this.explanation(c, user),
        });
      }
    }
  }

  private captionExplanation(c: DecidedCaption): { explain?: CaptionExplanation } {
    if (!this.explain) return {};
    return { explain: { features: c.features, decidedBy: c.decidedBy, captionBox: c.captionBox } };
  }

  private explanation(c: EquationCandidate, user: (b: Box) => Box): { explain?: EquationExplanation } {
    if (!this.explain) return {};
    return {
      explain: {
        features: c.features,
        decidedBy: c.decidedBy,
        ...(c.frame ? { frame: user(c.frame) } : {}),
        ...(c.equationBox ? { contentBox: user(c.equationBox) } : {}),
      },
    };
  }

  /**
   * Captions set sideways (turned a quarter on an unrotated page, as by a sideways float): read on
   * the page turned so that they run left to right, with their boxes turned back into user space.
   */
  private addTurnedCaptions(
    original: PageText,
    geometry: PageGeometry,
    turned: { token: CaptionToken; turn: 90 | 270 }[],
  ): void {
    for (const turn of [90, 270] as const) {
      const list = turned.filter((t) => t.turn === turn).map((t) => t.token);
      if (list.length === 0) continue;
      const view: PageText = {
        ...original,
        rotation: ((original.rotation + turn) % 360) as Rotation,
        width: original.height,
        height: original.width,
      };
      const space = displaySpace(view);
      if (!space) continue;
      const text = displayedPage(view);
      const chars = pageChars(text, geometry, this.storage, undefined, space);
      // The running text of the page reads the other way: nothing of it bounds the turned figure.
      const frames: DocumentFrames = {
        ...this.frames,
        bodyLines: [],
        pageFrames: [],
        docFrames: [],
        textBlock: undefined,
      };
      const user = (b: Box) => roundBox(space.toUser(b));
      // Its formatting is its own: a turned caption's size and font are not compared by the row.
      for (const c of captionCandidates(text, chars, new BandIndex(chars), frames, list, this.budget))
        this.captions.push({ ...inUserSpace(c, user), style: `${c.style}|turned` });
    }
  }

  finish(sha256: string, pageCount: number): AnchorsRecord {
    const byPage = <T extends { page: number }>(list: T[]) => list.sort((a, b) => a.page - b.page);
    const figures: FigureAnchor[] = [];
    const rejectedCaptions: RejectedCaption[] = [];
    const body: BodyStyle | undefined = this.body.dominant();
    for (const c of decideCaptions(byPage(this.captions), body, (p) => this.marks.get(p) ?? [])) {
      if (c.rejections.length === 0) {
        figures.push({
          label: c.label,
          page: c.page,
          keyword: c.keyword,
          separator: c.separator,
          text: c.text,
          labelBox: c.labelBox,
          captionBox: c.captionBox,
          ...(c.figureBox ? { figureBox: c.figureBox } : {}),
          ...(c.figureBoxOmitted ? { figureBoxOmitted: c.figureBoxOmitted } : {}),
          ...(c.panels.length > 0 ? { panels: c.panels } : {}),
          ...this.captionExplanation(c),
        });
      } else {
        rejectedCaptions.push({
          label: c.label,
          page: c.page,
          text: c.text,
          labelBox: c.labelBox,
          reasons: c.rejections,
          ...this.captionExplanation(c),
        });
      }
    }
    const pagesWithoutText: number[] = [];
    const pagesUnreadable: number[] = [];
    for (let p = 1; p <= pageCount; p++) {
      const text = this.pages[p - 1];
      if (!text?.hasTextLayer || text.extractionError !== undefined) pagesWithoutText.push(p);
      if (text?.extractionError !== undefined) pagesUnreadable.push(p);
    }
    return {
      schemaVersion: ANCHORS_SCHEMA_VERSION,
      layoutVersion: derivationKey("anchors"),
      extractorVersion: EXTRACTOR_VERSION,
      sha256,
      pageCount,
      equations: byPage(this.equations),
      rejectedEquationCandidates: byPage(this.rejected),
      figures,
      rejectedCaptions,
      pagesWithoutText,
      pagesUnreadable,
    };
  }
}

export interface AnchorsOptions {
  password?: string;
  /** Bounds the pages read again and the layout rules, when no `deadline` is given. */
  timeoutMs?: number;
  /** The operation's deadline, when it began before the document was opened. */
  deadline?: Deadline;
  /**
   * Give every equation-label candidate its features and the predicates that decided it. Such a
   * record is decided afresh (a cached one holds no explanations) and not cached.
   */
  explain?: boolean;
}

/**
 * Opens a document for work that needs its anchors. When the cache holds no current anchors
 * record, the glyph geometry is held as the pages are extracted or read, so deciding the anchors
 * does not read it back from the cache afterwards.
 */
export async function openForAnchors(
  input: string | PdfBytes,
  options: OpenOptions = {},
): Promise<OpenedDocument> {
  const source =
    typeof input === "string" ? await readPdfFile(input, options.maxBytes ?? DEFAULT_MAX_PDF_BYTES) : input;
  let current = false;
  if (!options.noCache) {
    const cache = new ExtractionCache(options.cacheDir ?? defaultCacheDir(), source.sha256);
    const record = cache.readRecord<AnchorsRecord>(RECORD_NAME);
    current = record !== undefined && isCurrent(record, source.sha256);
  }
  const needsGeometry = !current || options.withGeometry === true;
  // Geometry read only to decide the anchors (which are cached) is not worth writing to the cache.
  return openDocument(source, {
    ...options,
    withGeometry: needsGeometry,
    cacheGeometry: options.cacheGeometry ?? options.withGeometry === true,
  });
}

/** Pages extracted at once when geometry must be read again (bounds the memory held). */
const GEOMETRY_BATCH = 256;

/**
 * The anchors of an opened document: from the cache when it holds a record made by these rules,
 * else computed from the pages' geometry (the cache's, or a fresh extraction) and cached.
 */
export async function documentAnchors(
  doc: OpenedDocument,
  options: AnchorsOptions = {},
): Promise<AnchorsRecord> {
  const explain = options.explain === true;
  const cached = explain ? undefined : doc.cache?.readRecord<AnchorsRecord>(RECORD_NAME);
  if (cached && isCurrent(cached, doc.sha256)) return cached;
  const deadline = options.deadline ?? new Deadline(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const budget = layoutBudget(deadline);
  budget.check();
  // Opened for some pages only: the layout rules need every page's text.
  const pages: (PageText | undefined)[] = Array.from(
    { length: doc.pageCount },
    (_, i) => doc.pages[i] ?? doc.cache?.readPageText(i + 1),
  );
  const absent = pages.flatMap((p, i) => (p ? [] : [i + 1]));
  if (absent.length > 0) {
    const rest = await openDocument(doc.source, {
      noCache: true,
      pages: absent,
      password: options.password,
      timeoutMs: Math.max(1, deadline.remaining()),
    });
    for (const p of absent) pages[p - 1] = rest.pages[p - 1];
  }
  const tokens = documentTokens(pages, budget);
  // A process's first decision is told to the process's tuning as a short run (few candidates) or a
  // long first decision (many); never while an extraction is started (its workers would take what
  // the tuning sets). A resident process's later decisions run on code optimized once.
  const first = decisionsStarted++ === 0;
  const small = tokenCount(tokens) <= SMALL_DECIDE_TOKENS;
  let resume: (() => void) | undefined;
  const pause = () => {
    if (first) resume ??= once(small ? processTuning().shortRun() : processTuning().longFirstDecision());
  };
  const lift = () => {
    resume?.();
    resume = undefined;
  };
  // Each page's geometry: held, cached, or extracted again in batches.
  const eachGeometry = async (list: number[], use: (page: number, geometry: PageGeometry) => void) => {
    const missing: number[] = [];
    for (const page of list) {
      const geometry = doc.geometry.get(page) ?? doc.cache?.readPageGeometry(page);
      if (geometry) use(page, geometry);
      else missing.push(page);
    }
    for (let i = 0; i < missing.length; i += GEOMETRY_BATCH) {
      budget.check();
      const batch = missing.slice(i, i + GEOMETRY_BATCH);
      lift();
      const again = await openDocument(doc.source, {
        noCache: true,
        pages: batch,
        withGeometry: true,
        password: options.password,
        timeoutMs: Math.max(1, deadline.remaining()),
      });
      pause();
      for (const [page, geometry] of again.geometry) use(page, geometry);
    }
  };
  let record: AnchorsRecord;
  pause();
  try {
    const builder = new AnchorsBuilder(pages, budget, tokens, explain);
    await eachGeometry(builder.pagesNeedingGeometry(), (page, geometry) => builder.addPage(page, geometry));
    await eachGeometry(builder.pagesToJudgeAgain(), (page, geometry) => builder.judgeAgain(page, geometry));
    record = builder.finish(doc.sha256, doc.pageCount);
  } finally {
    lift();
  }
  // A page the engine failed on may read with another memory limit: such a record is not kept.
  if (doc.cache && !explain && record.pagesUnreadable?.length === 0) {
    try {
      doc.cache.writeRecord(RECORD_NAME, record);
    } catch {
      // An unwritable cache costs time on the next run, never a result.
    }
  }
  return record;
}

function isCurrent(record: AnchorsRecord, sha256: string): boolean {
  return (
    isAnchorsRecord(record) &&
    Array.isArray(record.pagesUnreadable) &&
    record.schemaVersion === ANCHORS_SCHEMA_VERSION &&
    record.layoutVersion === derivationKey("anchors") &&
    record.extractorVersion === EXTRACTOR_VERSION &&
    record.sha256 === sha256
  );
}

/** Checks the shape of an anchors record read from storage (a stored extraction, the cache). */
export function isAnchorsRecord(value: unknown): value is AnchorsRecord {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.schemaVersion === "number" &&
    typeof v.layoutVersion === "string" &&
    typeof v.sha256 === "string" &&
    typeof v.pageCount === "number" &&
    Array.isArray(v.equations) &&
    Array.isArray(v.rejectedEquationCandidates) &&
    Array.isArray(v.figures) &&
    Array.isArray(v.rejectedCaptions) &&
    Array.isArray(v.pagesWithoutText) &&
    (v.equations as unknown[]).every((e) => isLabelled(e)) &&
    (v.figures as unknown[]).every((f) => isLabelled(f)) &&
    (v.rejectedEquationCandidates as unknown[]).every(
      (c) => isLabelled(c) && Array.isArray((c as { reasons?: unknown }).reasons),
    )
  );
}

function isLabelled(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.label === "string" && typeof v.page === "number";
}

/** A caption candidate with its boxes, and its graphics' boxes, in default user space. */
function inUserSpace(c: CaptionCandidate, user: (b: Box) => Box): CaptionCandidate {
  const side = (g: GraphicsSide | undefined) => (g ? { gap: g.gap, box: user(g.box) } : undefined);
  const above = side(c.graphics.above);
  const below = side(c.graphics.below);
  return {
    ...c,
    labelBox: user(c.labelBox),
    captionBox: user(c.captionBox),
    graphics: { ...(above ? { above } : {}), ...(below ? { below } : {}) },
  };
}
