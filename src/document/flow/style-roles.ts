/**
 * What a word processor's paragraph style name says a paragraph is, for DOCX and ODT alike. Names are
 * compared in lower case without spaces, dashes and underscores (`Table Caption`, `TableCaption`,
 * `Heading_20_1` decoded to `Heading 1`).
 */
export type ParagraphRole =
  | { role: "title" }
  | { role: "heading"; level: number }
  | { role: "caption" }
  | { role: "block-quote" }
  | { role: "reference" }
  | { role: "paragraph" };

const HEADING = /^heading([1-9])$/u;
const ROLES: Record<string, ParagraphRole> = {
  title: { role: "title" },
  caption: { role: "caption" },
  imagecaption: { role: "caption" },
  tablecaption: { role: "caption" },
  figurecaption: { role: "caption" },
  figure: { role: "caption" },
  illustration: { role: "caption" },
  drawing: { role: "caption" },
  quote: { role: "block-quote" },
  intensequote: { role: "block-quote" },
  blocktext: { role: "block-quote" },
  blockquote: { role: "block-quote" },
  quotations: { role: "block-quote" },
  bibliography: { role: "reference" },
  bibliography1: { role: "reference" },
};

/** The role the first telling name in a style chain gives, or undefined when none tells. */
export function roleOfStyleNames(names: readonly string[]): ParagraphRole | undefined {
  for (const name of names) {
    const bare = name.toLowerCase().replace(/[\s_-]+/gu, "");
    const heading = HEADING.exec(bare);
    if (heading) return { role: "heading", level: Number(heading[1]) };
    const role = ROLES[bare];
    if (role !== undefined) return role;
  }
  return undefined;
}
