/**
 * The section citations a draft writes for a source without pages: `§ 3.2`, `§§ 3`, `Section 3.2`,
 * `Sec. 3.2`, `Sect. 3.2`, and a section named by its heading, `section "Methods"` (any quotation
 * marks), in any case. A section named in quotation marks is a locator, not a quotation.
 */

export interface SectionForm {
  /** The heading's number or words as written. */
  section: string;
  /** The form as the draft writes it, whitespace runs collapsed. */
  written: string;
  startUtf16: number;
  endUtf16: number;
}

const NUMBERED =
  /(?<![\p{L}\p{N}])(?:§{1,2}\s*|(?:sections?|sect\.|sec\.)\s*)((?:\d{1,3}|[A-Z])(?:\.\d{1,3})*)(?![\p{L}\p{N}]|\.\d)/giu;
const NAMED =
  /(?<![\p{L}\p{N}])(?:section|sect\.|sec\.|§)\s*["\u201c\u201e\u00ab]([^"\u201c\u201d\u201e\u00ab\u00bb\n]{1,80})["\u201d\u201c\u00bb]/giu;

export function findSectionForms(draft: string): SectionForm[] {
  const forms: SectionForm[] = [];
  for (const re of [NUMBERED, NAMED])
    for (const m of draft.matchAll(re)) {
      const start = m.index ?? 0;
      forms.push({
        section: m[1].trim(),
        written: m[0].replace(/\s+/gu, " "),
        startUtf16: start,
        endUtf16: start + m[0].length,
      });
    }
  return forms.sort((a, b) => a.startUtf16 - b.startUtf16);
}
