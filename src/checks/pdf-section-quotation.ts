/**
 * A quotation on a PDF named by section (with or without a page): the words must stand under the
 * heading named, in its text or a subsection's, as the PDF's layout shows its headings; with a page
 * too, on that page as well. The verdicts are those of flow sources: `wrong-section` names the heading
 * chain the words stand under, `no-such-section` lists the headings. A PDF whose layout shows no
 * heading, whose heading numbers skip one where the section named ends, or where a line that may be a
 * heading (doubtful, pdf-outline.ts) stands between the heading and the words or is the one named,
 * answers FLAG `headings-unreadable`: the section could not be told, so nothing passes.
 */
import { everyPage } from "../document/page-source.js";
import { countWords, fold } from "../text/fold.js";
import type { FoldedPages } from "../text/folded-pages.js";
import { shortList } from "./flow-quotation.js";
import { PdfOutline, type PdfPlace } from "./pdf-outline.js";
import { checkQuotation, type QuotationInput } from "./quotation.js";
import type { CheckResult } from "./result.js";
import { MIN_QUOTATION_WORDS } from "./verdicts.js";

const outlines = new WeakMap<FoldedPages, PdfOutline>();

/** The outline, from every page; undefined while only some are held (built from them it would be wrong). */
function outlineOf(pages: FoldedPages): PdfOutline | undefined {
  let outline = outlines.get(pages);
  if (outline === undefined) {
    if (!pages.everyPageReadable()) return undefined;
    outline = new PdfOutline(everyPage(pages.pages));
    outlines.set(pages, outline);
  }
  return outline;
}

interface Located extends PdfPlace {
  endUtf16: number;
  text: string;
  section: string;
}

export function checkSectionQuotation(
  pages: FoldedPages,
  pageCount: number,
  record: QuotationInput & { section: string },
): CheckResult {
  const base = { id: record.id, kind: "quotation" as const };
  const evidence = {
    quotation: record.text,
    section: record.section,
    ...(record.page !== undefined ? { page: record.page } : {}),
  };
  const outline = outlineOf(pages);
  // Undefined only while some pages are not held: the plan reads them and asks again.
  if (outline === undefined || outline.headings.length === 0)
    return {
      ...base,
      verdict: "FLAG",
      reason: "headings-unreadable",
      message: `no section heading could be read from the PDF's layout, so section "${record.section.trim()}" could not be told; the words were not checked`,
      evidence,
    };
  const named = outline.named(record.section);
  const doubtfulNamed = outline.doubtfulNamed(record.section);
  if (named.length === 0 && doubtfulNamed.length > 0)
    return {
      ...base,
      verdict: "FLAG",
      reason: "headings-unreadable",
      message: `"${doubtfulNamed[0]}" is set apart from the body by its face or size alone, unnumbered, so whether it is a heading could not be told; the words were not checked`,
      evidence,
    };
  if (named.length === 0) {
    const headings = outline.headings.map((_, i) => outline.chainName(i));
    return {
      ...base,
      verdict: "FAIL",
      reason: "no-such-section",
      message: `no heading reads "${record.section}"; the headings are ${shortList(outline.headings.map((h) => `"${h.title}"`))}`,
      evidence: { ...evidence, headings },
    };
  }
  const locate = (page: number, startUtf16: number, endUtf16: number): Located => {
    const at = outline.headingAt({ page, startUtf16 });
    return {
      page,
      startUtf16,
      endUtf16,
      text: pages.pages.get(page)?.text.slice(startUtf16, endUtf16) ?? "",
      section: at < 0 ? "" : outline.chainName(at),
    };
  };
  let found: Located[];
  if (record.page !== undefined) {
    const onPage = checkQuotation(pages, pageCount, record);
    if (onPage.verdict !== "PASS") return onPage;
    const matches = (onPage.evidence.matches ?? []) as {
      page?: number;
      startUtf16: number;
      endUtf16: number;
    }[];
    found = matches.map((m) => locate(m.page ?? record.page ?? 0, m.startUtf16, m.endUtf16));
  } else {
    const words = countWords(record.text);
    if (words < MIN_QUOTATION_WORDS)
      return {
        ...base,
        verdict: "FLAG",
        reason: "no-quotation",
        message: `no quotation to verify: ${words} words, need ${MIN_QUOTATION_WORDS}`,
        evidence: { ...evidence, words },
      };
    const needle = fold(record.text, { trim: true }).text;
    found = pages
      .pagesContaining(needle)
      .flatMap((p) => pages.findOnPage(p, needle).map((m) => locate(m.page, m.startUtf16, m.endUtf16)));
  }
  const name = `section "${record.section.trim()}"`;
  const inScope = found.filter((m) => named.some((i) => outline.holds(i, m)));
  const known = inScope.filter((m) => named.some((i) => outline.holds(i, m) && outline.headings[i].endKnown));
  const sure = known.filter((m) => named.some((i) => outline.holds(i, m) && !outline.doubtfulBetween(i, m)));
  if (inScope.length > 0 && known.length === 0)
    return {
      ...base,
      verdict: "FLAG",
      reason: "headings-unreadable",
      message: `the words stand after the heading of ${name}, but the next heading read is not its numbered successor, so where the section ends is not known; not checked`,
      evidence: { ...evidence, matches: inScope },
    };
  if (known.length > 0 && sure.length === 0)
    return {
      ...base,
      verdict: "FLAG",
      reason: "headings-unreadable",
      message: `the words stand after the heading of ${name}, but a line between is set apart by its face or size alone and may be a heading that ends the section; not checked`,
      evidence: { ...evidence, matches: known },
    };
  if (inScope.length > 0)
    return {
      ...base,
      verdict: "PASS",
      reason: "found",
      message: `found in ${name}, under "${sure[0].section}" on page ${sure[0].page}`,
      evidence: { ...evidence, matches: sure },
    };
  if (found.length > 0)
    return {
      ...base,
      verdict: "FAIL",
      reason: "wrong-section",
      message: `not found in ${name}; the words are under ${[...new Set(found.map((m) => `"${m.section}"`))].join(", ")}`,
      evidence: { ...evidence, matches: found },
    };
  const unreadable = firstUnreadable(pages);
  if (unreadable !== undefined)
    return {
      ...base,
      verdict: "FLAG",
      reason: "page-unreadable",
      message: `not found, but page ${unreadable} could not be read; the words were not checked there`,
      evidence,
    };
  return {
    ...base,
    verdict: "FAIL",
    reason: "absent",
    message: `not found in ${name}, nor elsewhere in the document`,
    evidence,
  };
}

/** The first page the engine could not read, reading every page; undefined when every page was read. */
function firstUnreadable(pages: FoldedPages): number | undefined {
  for (let page = 1; page <= pages.pages.count; page++)
    if (pages.pages.get(page)?.extractionError !== undefined) return page;
  return undefined;
}
