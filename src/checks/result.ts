/**
 * A check's result: a union told apart by `reason`, each member with the one verdict its reason comes
 * with (REASON_VERDICTS) and its own evidence shape. The shapes are zod schemas, defined once here:
 * the TypeScript types are inferred from them, and the output schemas of the operations and the MCP
 * tools are made from them. An evidence object names the fields its reason promises; a check may add
 * more (what it saw), so each evidence object is open to further fields; the objects inside it list
 * the fields a consumer reads.
 */
import { z } from "zod";
import { EVIDENCE_KINDS } from "./evidence-record.js";
import { REASON_VERDICTS, REASONS, type Reason } from "./verdicts.js";

const box = z.object({ left: z.number(), bottom: z.number(), right: z.number(), top: z.number() });

/** A span of a page's text: UTF-16 offsets, the text there, and its page when the record names two. */
export const spanSchema = z.object({
  page: z.int().optional(),
  startUtf16: z.int(),
  endUtf16: z.int(),
  text: z.string().optional(),
});

/** What every quotation and page result starts with: the pointer as given and the page's labels. */
const pointer = {
  quotation: z.string().optional(),
  /** The page named (as written, digits and all, when it is past the largest number). */
  page: z.union([z.int(), z.string()]).optional(),
  endPage: z.int().optional(),
  printedPage: z.string().nullable().optional(),
};

/** An anchor (equation or figure): its label as given. */
const anchored = { label: z.string().optional() };

const place = z.looseObject({
  page: z.int(),
  labelBox: box.optional(),
  equationBox: box.optional(),
  captionBox: box.optional(),
  caption: z.string().optional(),
});

/**
 * Matches and hints differ between a PDF's pages (UTF-16 offsets in a page) and a flow document's
 * text (its own offsets and sections): listed here as lists and values, read by each consumer.
 */
const matches = z.array(z.unknown());

/** What every result's evidence may start with: the record's claim as given. */
const claimed = { ...pointer, ...anchored };

/** The evidence of each reason: the fields it promises. */
export const EVIDENCE_SHAPES = {
  found: z.looseObject({
    ...claimed,
    matches: matches.optional(),
    pages: z.array(z.int()).optional(),
    places: z.array(place).optional(),
  }),
  "found-elided": z.looseObject({ ...claimed, parts: z.array(z.unknown()), omitted: z.array(z.unknown()) }),
  "wrong-page": z.looseObject({
    ...claimed,
    /** The other pages the words are on (a PDF); a flow document names its matches instead. */
    foundOnPages: z.array(z.int()).optional(),
    foundOnPrintedPages: z.array(z.string().nullable()).optional(),
    matches: matches.optional(),
  }),
  "crosses-page": z.looseObject({ ...claimed, matches }),
  "form-differs": z.looseObject({ ...claimed, pageWords: z.string().optional() }),
  absent: z.looseObject({ ...claimed, hint: z.unknown().optional() }),
  "no-such-page": z.looseObject({ ...claimed, pageCount: z.int().optional() }),
  "page-unreadable": z.looseObject({ ...claimed }),
  "no-quotation": z.looseObject({ ...claimed, words: z.int().optional() }),
  "no-text-layer": z.looseObject({ ...claimed }),
  "no-page": z.looseObject({ ...claimed }),
  "equation-unresolved": z.looseObject({ ...claimed }),
  "equation-evidence-unavailable": z.looseObject({ ...claimed }),
  "unsupported-equation-label": z.looseObject({ ...claimed }),
  deadline: z.looseObject({
    ...claimed,
    deadline: z.object({ limitMs: z.number(), step: z.string(), pagesNotRead: z.array(z.int()) }),
  }),
  "wrong-section": z.looseObject({ ...claimed, matches }),
  "no-such-section": z.looseObject({ ...claimed, headings: z.array(z.string()).optional() }),
  "headings-unreadable": z.looseObject({ ...claimed }),
  "unknown-key": z.looseObject({ ...claimed }),
  "source-unavailable": z.looseObject({ ...claimed }),
  "ambiguous-source": z.looseObject({ ...claimed }),
  "source-mismatch": z.looseObject({ ...claimed }),
} satisfies Record<Reason, z.ZodType>;

type Shapes = typeof EVIDENCE_SHAPES;

/** The result of one reason: its verdict fixed, its evidence of its own shape. */
function memberOf<R extends Reason>(reason: R) {
  return z.object({
    id: z.string().optional(),
    kind: z.enum(EVIDENCE_KINDS),
    verdict: z.literal(REASON_VERDICTS[reason]),
    reason: z.literal(reason),
    message: z.string(),
    evidence: EVIDENCE_SHAPES[reason] as Shapes[R],
  });
}

type Member<R extends Reason> = ReturnType<typeof memberOf<R>>;

/** One evidence record's outcome, as a schema: the union of every reason's member. */
export const checkResultSchema = z.discriminatedUnion(
  "reason",
  REASONS.map((r) => memberOf(r)) as unknown as [Member<Reason>, ...Member<Reason>[]],
);

/** The result of a reason `R`. */
export type CheckResultOf<R extends Reason> = z.infer<Member<R>>;

/** One evidence record's outcome: a verdict, its one reason, a message, and what the check saw. */
export type CheckResult = { [R in Reason]: CheckResultOf<R> }[Reason];
