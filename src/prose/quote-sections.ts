/**
 * Which section form a draft's quotation is cited under: the nearest before it in its sentence, else
 * the first after it there, or one written right after its closing mark (`"…." (§ 2.1)`). A heading
 * named in quotation marks is the locator, not a quotation.
 */
import { findQuotedSpans } from "./quotes.js";
import { findSectionForms, type SectionForm } from "./section-forms.js";
import { splitSentences } from "./sentences.js";

export interface QuoteSections {
  /** Whether a draft offset stands inside a section form (`section "Methods"`). */
  inForm(atUtf16: number): boolean;
  /** The section form a quotation is cited under, if its sentence names one. */
  of(quote: { startUtf16: number; endUtf16: number }): SectionForm | undefined;
}

export function quoteSections(draft: string): QuoteSections {
  const sections = findSectionForms(draft);
  const sentenceStarts = splitSentences(draft, findQuotedSpans(draft)).map((s) => s.startUtf16);
  const sentenceOf = (at: number) => sentenceStarts.filter((s) => s <= at).length - 1;
  return {
    inForm: (at) => sections.some((s) => at >= s.startUtf16 && at < s.endUtf16),
    of: (quote) => {
      const next = sections.find((s) => s.startUtf16 >= quote.endUtf16);
      if (next && /^[^\S\n]*,?[^\S\n]*\(?[^\S\n]*$/u.test(draft.slice(quote.endUtf16, next.startUtf16)))
        return next;
      const sentence = sentenceOf(quote.startUtf16);
      const same = sections.filter((s) => sentenceOf(s.startUtf16) === sentence);
      let before: SectionForm | undefined;
      for (const s of same) if (s.endUtf16 <= quote.startUtf16) before = s;
      return before ?? same.find((s) => s.startUtf16 >= quote.endUtf16);
    },
  };
}
