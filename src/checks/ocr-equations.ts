/**
 * OCR for the equation check (verify, check-text): an equation label the text layer does not hold,
 * on a document whose pages are scans, is looked for in the OCR reading of those pages. The label
 * is decided by layout (ocr-equation-labels.ts) and read again from its own crop at two framings and
 * resolutions (a third when they disagree): two readings must give the same label. A PASS found so says so (layer
 * `ocr`, engine, model, resolution), because OCR can misread; a miss changes nothing.
 */
import { boxesMeet } from "../document/box-union.js";
import type { Box, PageText } from "../document/model.js";
import { type OpenedDocument, openDocument } from "../document/open.js";
import { pageLayer, type TextLayerKind } from "../document/text-layer-kind.js";
import { isEquationLabel } from "../layout/labels.js";
import {
  documentBlockTop,
  documentColumns,
  labelStrips,
  type OcrLabelSighting,
  type OcrLabelSpot,
  type OcrPageContext,
  type OcrPageLabels,
  ocrPageColumns,
  ocrPageLabels,
  ocrTextBlock,
  readsAsMathematics,
} from "../layout/ocr-equation-labels.js";
import { textLayerWords } from "../layout/text-layer-words.js";
import { OCR_DPI, type OcrPage, type OcrWord } from "../ocr/page-ocr.js";
import { LABEL_CHARACTERS } from "../ocr/region-reading.js";
import { type OcrEngineOptions, OcrSession, ocrProvenance } from "../ocr/tesseract.js";
import type { Deadline } from "../util/deadline.js";
import { type OcrOutcome, ocrPages } from "./cite-check/ocr-evidence.js";
import { cutByDeadline } from "./deadline-cut.js";
import { pageList } from "./equation.js";
import { CropReads } from "./ocr-crop-reads.js";
import {
  agreement,
  LABEL_READ_DPI,
  LABEL_READINGS,
  labelInSequence,
  labelWithDroppedDots,
  MIN_LABEL_READINGS,
  mayHaveDroppedDots,
} from "./ocr-label-readings.js";
import { MATH_BAND_DPI, type ReadWords, readLabelsAgain } from "./ocr-labels-again.js";
import type { CheckResult } from "./result.js";
import { withEvidence } from "./with-evidence.js";

export interface EquationOcrOptions {
  doc: Pick<OpenedDocument, "source" | "cache">;
  deadline: Deadline;
  password?: string;
  /** Which engine reads (default: the system's tesseract when installed). */
  engine?: OcrEngineOptions;
  /** The pages read already in this check (see ocrPages). */
  read?: Map<number, OcrPage>;
}

/** A label found in a page's OCR reading. */
export interface OcrEquationPlace {
  page: number;
  label: string;
  side: OcrLabelSpot["side"];
  labelBox: Box;
  equationBox: Box;
  /** The crops' readings, as the OCR engine gave them (two that agree, or three when the first two did not). */
  readings: string[];
  /**
   * Present when the readings disagreed on the label's suffix letter alone and the labels agreed
   * next above or below it in its column settled it (see labelInSequence).
   */
  sequence?: { above?: string; below?: string };
  /**
   * Present when the readings disagreed only in dots some of them dropped, settled by another label of
   * the document agreed with the same shape (see labelWithDroppedDots): that label.
   */
  numberedLike?: string;
  png_sha256: string;
}

/** Whether an equation result is one OCR may turn: the text layer found no such label. */
export function wantsEquationOcr(result: CheckResult): boolean {
  return result.kind === "equation" && result.reason === "equation-unresolved";
}

/**
 * The pages whose printed equations a text layer may not hold: a scan's pages (an image, with no
 * text or only someone else's invisible OCR of it). Of an OCR layer, only the pages where its lines
 * leave room (a vertical gap) for something it did not transcribe, or where a line starts or ends
 * with one of the labels looked for (it transcribed the display, as words in no math font).
 */
export function scanPagesForLabels(
  pages: readonly (PageText | undefined)[],
  labels: readonly string[] | "any" = [],
): number[] {
  const out: number[] = [];
  for (const page of pages) {
    if (!page || page.extractionError || page.largestImagePixels === 0) continue;
    const layer = pageLayer(page);
    if (layer === "native") continue;
    if (layer === "ocr-layer" && !leavesRoom(page) && !holdsLabel(page, labels)) continue;
    out.push(page.page);
  }
  return out;
}

/**
 * Whether a line of the page starts or ends with one of the labels, with a parenthesis on at least
 * one side (`(3.6a)`, `3.6a)`), as a display's label stands; a mention inside running text does not
 * count. A label asked for also counts anywhere in a line printed whole, `(3.6a)`: an OCR layer's
 * words come in the order its engine wrote them, not always left to right (`eM dt ifx (5.6) wo = …`
 * for a left-numbered display), and reading a page that only mentions it costs time, never a verdict.
 */
function holdsLabel(page: PageText, labels: readonly string[] | "any"): boolean {
  if (labels.length === 0) return false;
  const wanted = (label: string) => (labels === "any" ? isEquationLabel(label) : labels.includes(label));
  for (const line of page.lines) {
    const words = page.text.slice(line.startUtf16, line.endUtf16).trim().split(/\s+/);
    for (const word of [words[0], words[words.length - 1]]) {
      const m = /^(\(?)([^()]+?)(\)?)[.,;:]?$/.exec(word ?? "");
      if (m && (m[1] !== "" || m[3] !== "") && wanted(m[2])) return true;
    }
    if (labels !== "any" && words.some((w) => labels.includes(/^\(([^()]+)\)[.,;:]?$/.exec(w)?.[1] ?? "")))
      return true;
  }
  return false;
}

/**
 * Whether two consecutive lines of the page's body stand apart by two lines' height or more (the
 * first and last lines left out: a running head or foot stands apart from the body anyway).
 */
function leavesRoom(page: PageText): boolean {
  const lines = page.lines.filter((l) => l.box.top > l.box.bottom && l.startUtf16 < l.endUtf16);
  if (lines.length < 4) return true;
  const heights = lines.map((l) => l.box.top - l.box.bottom).sort((a, b) => a - b);
  const height = heights[heights.length >> 1];
  const sorted = [...lines].sort((a, b) => b.box.top - a.box.top);
  for (let i = 2; i < sorted.length - 1; i++) {
    const line = sorted[i];
    let lowest = Number.POSITIVE_INFINITY;
    for (let k = 1; k < i; k++) {
      const above = sorted[k];
      if (above.box.left < line.box.right && line.box.left < above.box.right)
        lowest = Math.min(lowest, above.box.bottom);
    }
    if (lowest !== Number.POSITIVE_INFINITY && lowest - line.box.top >= 2 * height) return true;
  }
  return false;
}

/** What OCR of a document's scanned pages says about its equation labels. */
export interface EquationLabelReading {
  places: OcrEquationPlace[];
  sightings: (OcrLabelSighting & { page: number })[];
  /** The pages chosen to be read, those read, and those not read (why, and a code for a refused page). */
  scanned: number[];
  pagesRead: number[];
  unread: { page: number; why: string; code?: string }[];
  /** Of those not read, the pages the deadline cut. */
  pagesCut: number[];
  /**
   * Whether some reading of the pages' label spots, strips or bands did not come (the deadline passed
   * or it failed): a label not found may then be one left unread.
   */
  labelsCut: boolean;
  /** The OCR engine and model, and the resolution of the page readings. */
  source: {
    provider: string;
    provider_version: string;
    model_package: string;
    model_file: string;
    model_sha256: string;
    dpi: number;
  };
  layers: Map<number, TextLayerKind>;
}

/**
 * The equation labels OCR finds on the document's scanned pages (`scanPagesForLabels`: of an OCR
 * layer, the pages that leave room or start or end a line with one of `labels`, or with any label
 * when `labels` is "any"); undefined when no page is to be read. Throws OCR_UNAVAILABLE (naming the
 * package) when OCR is needed but cannot load.
 */
export async function readEquationLabels(
  pages: readonly (PageText | undefined)[],
  labels: readonly string[] | "any",
  options: EquationOcrOptions,
): Promise<EquationLabelReading | undefined> {
  const scanned = scanPagesForLabels(pages, labels);
  if (scanned.length === 0) return undefined;
  const provenance = ocrProvenance(options.engine);
  const outcomes = await ocrPages(options.doc.source, scanned, {
    engine: options.engine,
    read: options.read,
    deadline: options.deadline,
    cache: options.doc.cache,
    password: options.password,
    imagePixels: (page) => pages[page - 1]?.largestImagePixels ?? 0,
  });
  const layers = new Map<number, TextLayerKind>();
  for (const p of scanned) {
    const page = pages[p - 1];
    if (page) layers.set(p, pageLayer(page));
  }
  const layerWords = await ocrLayerWords(
    pages,
    scanned.filter((p) => layers.get(p) === "ocr-layer"),
    options,
  );
  const { places, sightings, cut } = await labelPlaces(outcomes, layerWords, labels, options);
  return {
    places,
    sightings,
    labelsCut: cut,
    scanned,
    pagesRead: scanned.filter((p) => outcomes.get(p)?.state === "ok"),
    unread: [...outcomes].filter(([, o]) => o.state !== "ok").map(([p, o]) => ({ page: p, ...notRead(o) })),
    pagesCut: [...outcomes].filter(([, o]) => o.state === "cut").map(([p]) => p),
    source: {
      provider: provenance.provider,
      provider_version: provenance.provider_version,
      model_package: provenance.model_package,
      model_file: provenance.model_file,
      model_sha256: provenance.model_sha256,
      dpi: OCR_DPI,
    },
    layers,
  };
}

/**
 * The equation results with OCR applied to those the text layer left unresolved. Throws
 * OCR_UNAVAILABLE (naming the package) when OCR is needed but cannot load.
 */
export async function applyEquationOcr(
  pages: readonly (PageText | undefined)[],
  results: readonly CheckResult[],
  options: EquationOcrOptions,
): Promise<CheckResult[]> {
  const wanted = results.map(wantsEquationOcr);
  if (!wanted.some(Boolean)) return [...results];
  const labels = results.filter((_, i) => wanted[i]).map((r) => String(r.evidence.label));
  const reading = await readEquationLabels(pages, labels, options);
  if (reading === undefined) return [...results];
  const { places, sightings, scanned, unread, source, layers, pagesRead, labelsCut, pagesCut } = reading;
  const said = `${source.provider} ${source.provider_version}, ${source.model_package} ${source.model_file}, ${OCR_DPI} dpi`;
  return results.map((result, i) => {
    if (!wanted[i]) return result;
    const label = String(result.evidence.label);
    const found = places.filter((p) => p.label === label);
    if (found.length === 0) {
      const missed = unread.length > 0 ? `; ${unread.length} of them not read (${unread[0].why})` : "";
      const outcome = labelsCut
        ? "did not find it in what it read before the deadline passed, with some of the labels they show not read"
        : "did not find it either";
      const notFound = withEvidence(
        result,
        {
          ocr: {
            ...source,
            found: false,
            sightings: sightings.filter((x) => x.label === label).map(({ label: _, ...x }) => x),
            pagesRead,
            ...(unread.length > 0 ? { pagesNotRead: unread } : {}),
            ...(labelsCut ? { labelsCut: true } : {}),
          },
        },
        `${result.message}; OCR of the ${scanned.length} scanned page(s) (${said}) ${outcome}${missed}`,
      );
      // Not decided: the deadline passed before OCR read every page (or label spot) to be read.
      if (pagesCut.length > 0 || (labelsCut && options.deadline.expired()))
        return cutByDeadline(notFound, {
          limitMs: options.deadline.totalMs,
          step: "OCR",
          pagesNotRead: pagesCut,
        });
      return notFound;
    }
    const onPages = [...new Set(found.map((p) => p.page))];
    return {
      ...result,
      verdict: "PASS",
      reason: "found",
      message: `equation (${label}) is printed beside a displayed equation on ${pageList(onPages)} in its OCR reading (${said}), which can misread: the page's text layer does not hold it`,
      evidence: {
        label,
        pages: onPages,
        layer: "ocr",
        textLayer: [...new Set(onPages.map((p) => layers.get(p)))],
        ocr: { ...source, label_dpi: LABEL_READ_DPI },
        places: found.map((p) => ({
          page: p.page,
          labelBox: p.labelBox,
          equationBox: p.equationBox,
          side: p.side,
          readings: p.readings,
          ...(p.sequence ? { sequence: p.sequence } : {}),
          ...(p.numberedLike ? { numberedLike: p.numberedLike } : {}),
          png_sha256: p.png_sha256,
        })),
      },
    };
  });
}

function notRead(outcome: OcrOutcome): { why: string; code?: string } {
  if (outcome.state === "refused") return { why: outcome.message, code: outcome.code };
  if (outcome.state === "cut") return { why: "OCR did not finish before the deadline" };
  if (outcome.state === "unavailable") return { why: `OCR could not run: ${outcome.message}` };
  return { why: "" };
}

/**
 * The words of the pages' invisible OCR layers (another engine's reading of the images), by page;
 * pages whose geometry cannot be read are left out (their own reading still counts).
 */
async function ocrLayerWords(
  pages: readonly (PageText | undefined)[],
  layerPages: number[],
  options: EquationOcrOptions,
): Promise<Map<number, OcrWord[]>> {
  const out = new Map<number, OcrWord[]>();
  if (layerPages.length === 0 || options.deadline.expired()) return out;
  let opened: OpenedDocument;
  try {
    opened = await openDocument(options.doc.source, {
      noCache: true,
      pages: layerPages,
      withGeometry: true,
      password: options.password,
      timeoutMs: Math.max(1, options.deadline.remaining()),
    });
  } catch {
    return out;
  }
  for (const p of layerPages) {
    const text = pages[p - 1];
    const geometry = opened.geometry.get(p);
    if (text && geometry) out.set(p, textLayerWords(text, geometry));
  }
  return out;
}

/** The spots of `extra` that stand where none of `own` stands (the same label seen twice counts once). */
export function spotsBeside(own: readonly OcrLabelSpot[], extra: readonly OcrLabelSpot[]): OcrLabelSpot[] {
  return extra.filter((x) => !own.some((o) => boxesMeet(o.labelBox, x.labelBox)));
}

/**
 * Every label the layout finds in the pages read (this process's reading, and an OCR layer's words
 * where the page has one) and two crop readings agree on.
 */
async function labelPlaces(
  outcomes: Map<number, OcrOutcome>,
  layerWords: Map<number, OcrWord[]>,
  labels: readonly string[] | "any",
  options: EquationOcrOptions,
): Promise<LabelPlaces> {
  const session = new OcrSession({ kind: "line", characters: LABEL_CHARACTERS }, options.engine);
  const rowSession = new OcrSession({ kind: "page" }, options.engine);
  const cropOptions = {
    source: options.doc.source,
    cache: options.doc.cache,
    deadline: options.deadline,
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(options.engine !== undefined ? { engine: options.engine } : {}),
  };
  const reads = {
    labels: new CropReads("ocr-label", session, cropOptions),
    rows: new CropReads("ocr-rows", rowSession, cropOptions),
  };
  try {
    // The labels asked for, each agreed by its own crops at a spot of the pages' readings, need
    // nothing read again: the strips and bands only add spots for labels a reading missed.
    if (labels !== "any") {
      const first = await placesOf(outcomes, layerWords, reads, false);
      const agreed = new Set(first.places.filter((p) => !p.sequence && !p.numberedLike).map((p) => p.label));
      if (labels.every((l) => agreed.has(l))) return first;
    }
    // Crops read for the first look are taken from what it read.
    return await placesOf(outcomes, layerWords, reads, true);
  } finally {
    await session.close().catch(() => undefined);
    await rowSession.close().catch(() => undefined);
  }
}

type LabelPlaces = {
  places: OcrEquationPlace[];
  sightings: (OcrLabelSighting & { page: number })[];
  cut: boolean;
};

/**
 * The places of the labels the layout finds in the pages' readings (and OCR layers) and crops
 * agree on; with `readAgain`, also those of the labels read again from the strips down the columns'
 * edges and of the spots refused for want of mathematics whose bands, read finer, show it.
 */
async function placesOf(
  outcomes: Map<number, OcrOutcome>,
  layerWords: Map<number, OcrWord[]>,
  reads: { labels: CropReads; rows: CropReads },
  readAgain: boolean,
): Promise<LabelPlaces> {
  const out: OcrEquationPlace[] = [];
  const sightings: (OcrLabelSighting & { page: number })[] = [];
  const { labels: labelReads, rows: rowReads } = reads;
  // Set when a reading of a crop, strip or band did not come (the deadline passed, or it failed):
  // labels may then be left unread, and the result must not say OCR did not find them.
  let cut = false;
  const noted = <T>(read: T | undefined): T | undefined => {
    if (read === undefined) cut = true;
    return read;
  };
  const readWordsOf = async (page: number, box: Box, dpi: number) =>
    noted(await rowReads.words(page, box, dpi));
  // Settled once every page is read: the rule looks for another label of the document numbered alike.
  const droppedDots: { place: (label: string) => OcrEquationPlace; readings: string[]; printed: string[] }[] =
    [];
  const read = [...outcomes].filter(([, o]) => o.state === "ok") as [number, OcrOutcome & { ocr: OcrPage }][];
  const blockTop = documentBlockTop(read.map(([, o]) => ocrTextBlock(o.ocr.words)));
  const layerBlockTop = documentBlockTop([...layerWords.values()].map((words) => ocrTextBlock(words)));
  const columns = documentColumns(read.map(([, o]) => ocrPageColumns(o.ocr.words)));
  const layerColumns = documentColumns([...layerWords.values()].map((words) => ocrPageColumns(words)));
  // Every page's strips in one run of the engine; readLabelsAgain then takes them from that run.
  if (readAgain)
    await rowReads.prefetch(
      read.flatMap(([page, o]) =>
        labelStrips(o.ocr.words).map((strip) => ({ page, box: strip.box, dpi: OCR_DPI })),
      ),
    );
  const pageSpots: { page: number; ocr: OcrPage; spots: OcrLabelSpot[] }[] = [];
  for (const [page, outcome] of read) {
    const found = ocrPageLabels(outcome.ocr.words, { blockTop, columns });
    for (const sighting of found.sightings) sightings.push({ page, ...sighting });
    const layer = layerWords.get(page);
    const fromLayer = layer
      ? ocrPageLabels(layer, { blockTop: layerBlockTop, columns: layerColumns }).spots
      : [];
    const ownAndLayer = [...found.spots, ...spotsBeside(found.spots, fromLayer)];
    const again = readAgain
      ? await readLabelsAgain(outcome.ocr.words, (box, dpi) => readWordsOf(page, box, dpi))
      : { words: outcome.ocr.words, labels: [] };
    // The labels of the reading amended by the strips, judged in a page context.
    const judgedAgain = (context: OcrPageContext) =>
      again.labels.length > 0 ? ocrPageLabels(again.words, context) : undefined;
    const fromAgain = judgedAgain({ blockTop, columns });
    const recoveredIn = (labels: OcrPageLabels | undefined) =>
      (labels?.spots ?? []).filter((spot) => again.labels.some((w) => boxesMeet(w.box, spot.labelBox)));
    const recovered = recoveredIn(fromAgain);
    // A label read again from a strip was misread or dropped by the reading: its spot, framed on
    // the label as the strip read it, takes the place of one the reading made of the same place.
    const spots = [...spotsBeside(recovered, ownAndLayer), ...recovered];
    // Labels refused only for want of mathematics beside them: their bands read finer, and where
    // that finds the display's signs, the page judged again with them.
    const mathBands = readAgain
      ? await mathReadAgain([...found.mathBandsToRead, ...(fromAgain?.mathBandsToRead ?? [])], (box, dpi) =>
          readWordsOf(page, box, dpi),
        )
      : [];
    if (mathBands.length > 0) {
      const withMath = { blockTop, columns, mathBands };
      // The bands are all that changed: a spot the pages did not give before stands beside one.
      const more = [
        ...ocrPageLabels(outcome.ocr.words, withMath).spots,
        ...recoveredIn(judgedAgain(withMath)),
      ];
      for (const spot of spotsBeside(spots, more)) spots.push(spot);
    }
    pageSpots.push({ page, ocr: outcome.ocr, spots });
  }
  // Each spot's crops, framing after framing (LABEL_READINGS): every spot of every page still to
  // be read at a framing is read in one run of the engine.
  const states = pageSpots.flatMap(({ page, spots }) => spots.map((spot) => new SpotReading(page, spot)));
  // No label is taken on fewer readings than MIN_LABEL_READINGS: those framings are read together.
  await labelReads.prefetch(
    states.flatMap((s) =>
      LABEL_READINGS.slice(0, MIN_LABEL_READINGS).map(({ crop, dpi }) => ({
        page: s.page,
        box: s.spot.cropBoxes[crop],
        dpi,
      })),
    ),
  );
  for (const [k, { crop, dpi }] of LABEL_READINGS.entries()) {
    const due = states.filter((s) => s.wants());
    if (due.length === 0) break;
    const regions = due.map((s) => ({ page: s.page, box: s.spot.cropBoxes[crop], dpi }));
    await labelReads.prefetch(regions);
    for (const [i, state] of due.entries()) {
      const text = noted(await labelReads.text(regions[i].page, regions[i].box, dpi));
      state.take(text, k);
    }
  }
  for (const { page, ocr, spots } of pageSpots) {
    const place = (spot: OcrLabelSpot, label: string, readings: string[], sequence?: Neighbours) => ({
      page,
      label,
      side: spot.side,
      labelBox: spot.labelBox,
      equationBox: spot.equationBox,
      readings,
      ...(sequence ? { sequence } : {}),
      png_sha256: ocr.render.png_sha256,
    });
    const agreedLabels = new Map<OcrLabelSpot, string>();
    const disputed: { spot: OcrLabelSpot; readings: string[] }[] = [];
    for (const state of states.filter((s) => s.page === page)) {
      const { spot, readings, outcome } = state;
      if (outcome.state === "agreed") {
        agreedLabels.set(spot, outcome.label);
        out.push(place(spot, outcome.label, readings));
      } else if (outcome.state === "disputed") disputed.push({ spot, readings });
      else if (outcome.state === "dropped-dots")
        droppedDots.push({
          place: (label) => place(spot, label, readings),
          readings,
          printed: printedWords(spot),
        });
    }
    for (const { spot, readings, label, neighbours } of settleInSequence(disputed, spots, agreedLabels))
      out.push(place(spot, label, readings, neighbours));
  }
  const agreedInDocument = out.filter((p) => p.sequence === undefined).map((p) => p.label);
  for (const { place, readings, printed } of droppedDots) {
    const settled = labelWithDroppedDots(readings, agreedInDocument, printed);
    if (settled) out.push({ ...place(settled.label), numberedLike: settled.numberedLike });
  }
  return { places: out, sightings, cut };
}

/**
 * One spot's crop readings, framing after framing: read until two agree (`agreement`); on a conflict,
 * or when every framing is read without agreement, a lettered reading or dropped dots call for every
 * framing's reading (the sequence and dotted-label rules weigh them all), anything else is dropped.
 */
class SpotReading {
  readonly readings: string[] = [];
  private phase: "reading" | "rest" | "done" = "reading";
  outcome:
    | { state: "open" }
    | { state: "agreed"; label: string }
    | { state: "disputed" }
    | { state: "dropped-dots" }
    | { state: "dropped" } = { state: "open" };
  private lettered = false;

  constructor(
    readonly page: number,
    readonly spot: OcrLabelSpot,
  ) {}

  wants(): boolean {
    return this.phase !== "done";
  }

  /** The reading of framing `k` (undefined: it did not come). */
  take(text: string | undefined, k: number): void {
    const last = k === LABEL_READINGS.length - 1;
    if (this.phase === "rest") {
      if (text !== undefined) this.readings.push(text);
      if (text === undefined || last) this.finish();
      return;
    }
    if (text === undefined) {
      this.phase = "done";
      return;
    }
    this.readings.push(text);
    const agreed = agreement(this.readings, this.spot.printed);
    if (agreed.state === "agreed") {
      this.outcome = agreed;
      this.phase = "done";
      return;
    }
    if (agreed.state === "open" && !last) return;
    this.lettered = this.readings.some((r) => LETTERED_READING.test(r.trim()));
    if (!this.lettered && !mayHaveDroppedDots(this.readings)) {
      this.outcome = { state: "dropped" };
      this.phase = "done";
      return;
    }
    if (last) this.finish();
    else this.phase = "rest";
  }

  private finish(): void {
    this.outcome = { state: this.lettered ? "disputed" : "dropped-dots" };
    this.phase = "done";
  }
}

/**
 * The bands beside spots refused only because nothing beside them read as mathematics, each read at
 * finer resolutions in turn (MATH_BAND_DPI) until its words show mathematics: those that did.
 */
async function mathReadAgain(bands: readonly Box[], readWords: ReadWords): Promise<Box[]> {
  const out: Box[] = [];
  for (const mathBand of bands) {
    if (out.some((b) => boxesMeet(b, mathBand))) continue;
    for (const dpi of MATH_BAND_DPI) {
      const words = await readWords(mathBand, dpi);
      if (words === undefined) return out;
      if (readsAsMathematics(words)) {
        out.push(mathBand);
        break;
      }
    }
  }
  return out;
}

/** A reading that gives a lettered label whole: `(13b)`, or with a letter of the wrong case (`(13D)`). */
const LETTERED_READING = /^\(.*\d[A-Za-z]\)$/;

/** The page reading's words at a spot. */
function printedWords(spot: OcrLabelSpot): string[] {
  return spot.printed.split(/\s+/).filter((w) => w.length > 0);
}

/**
 * The disputed lettered labels the sequence rule settles (labelInSequence), in passes: a label it
 * settles is a neighbour for the next pass (`(4.9c)` agreed settles `(4.9b)` above it, which settles
 * `(4.9a)` above that). `agreed` gains the labels settled.
 */
export function settleInSequence(
  disputed: readonly { spot: OcrLabelSpot; readings: string[] }[],
  spots: readonly OcrLabelSpot[],
  agreed: Map<OcrLabelSpot, string>,
): { spot: OcrLabelSpot; readings: string[]; label: string; neighbours: Neighbours }[] {
  const settled: { spot: OcrLabelSpot; readings: string[]; label: string; neighbours: Neighbours }[] = [];
  let open = disputed;
  while (open.length > 0) {
    const left: (typeof open)[number][] = [];
    for (const d of open) {
      const neighbours = columnNeighbours(d.spot, spots, agreed);
      const label = labelInSequence(d.readings, neighbours, printedWords(d.spot));
      if (label === undefined) {
        left.push(d);
        continue;
      }
      agreed.set(d.spot, label);
      settled.push({ ...d, label, neighbours });
    }
    if (left.length === open.length) break;
    open = left;
  }
  return settled;
}

/** The labels agreed on for the spots next above and below a spot in its column (same side). */
type Neighbours = { above?: string; below?: string };

/**
 * The spots next above and below `spot` among the page's spots at the same side whose label boxes
 * overlap it across, and the labels agreed on for them (none when that spot's readings disagreed).
 */
export function columnNeighbours(
  spot: OcrLabelSpot,
  spots: readonly OcrLabelSpot[],
  agreed: ReadonlyMap<OcrLabelSpot, string>,
): Neighbours {
  let above: OcrLabelSpot | undefined;
  let below: OcrLabelSpot | undefined;
  const b = spot.labelBox;
  for (const o of spots) {
    if (o === spot || o.side !== spot.side) continue;
    if (!(o.labelBox.left < b.right && b.left < o.labelBox.right)) continue;
    if (o.labelBox.bottom >= b.top && (!above || o.labelBox.bottom < above.labelBox.bottom)) above = o;
    if (o.labelBox.top <= b.bottom && (!below || o.labelBox.top > below.labelBox.top)) below = o;
  }
  const out: Neighbours = {};
  const up = above && agreed.get(above);
  const down = below && agreed.get(below);
  if (up) out.above = up;
  if (down) out.below = down;
  return out;
}
