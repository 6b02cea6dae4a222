// The truth of a document citeproof did not write: pandoc (an independent reader) turns the source into
// its AST, and every sentence of a body paragraph is kept with the chain of headings it stands under.
// Paragraphs holding math, images, raw markup or code are left out (their printed text is uncertain).
import { execFileSync } from "node:child_process";

/** `{ sentences: [{ text, section, chain }], headings: [{ title, chain }] }` of `file` read as `from`. */
export function pandocTruth(file, from) {
  const json = execFileSync("pandoc", ["-f", from, "-t", "json", file], { maxBuffer: 256 * 1024 * 1024 });
  return truthOf(JSON.parse(json.toString("utf8")).blocks);
}

class Unsafe extends Error {}

function inlines(list) {
  let out = "";
  for (const node of list) {
    const c = node.c;
    switch (node.t) {
      case "Str":
        out += c;
        break;
      case "Space":
      case "SoftBreak":
      case "LineBreak":
        out += " ";
        break;
      case "Emph":
      case "Strong":
      case "Underline":
      case "Strikeout":
      case "SmallCaps":
        out += inlines(c);
        break;
      case "Quoted":
        out += c[0].t === "DoubleQuote" ? `“${inlines(c[1])}”` : `‘${inlines(c[1])}’`;
        break;
      case "Cite":
        out += inlines(c[1]);
        break;
      case "Link":
      case "Span":
        out += inlines(c[1]);
        break;
      case "Note":
        break;
      default:
        // Code, Math, Image, RawInline, Superscript, Subscript: set apart or printed unlike their source.
        throw new Unsafe(node.t);
    }
  }
  return out;
}

function truthOf(blocks) {
  const sentences = [];
  const headings = [];
  const chain = [];
  const walk = (list) => {
    for (const block of list) {
      if (block.t === "Header") {
        const [level, , content] = block.c;
        let title;
        try {
          title = inlines(content).replace(/\s+/gu, " ").trim();
        } catch {
          title = "";
        }
        chain.length = Math.min(chain.length, level - 1);
        while (chain.length < level - 1) chain.push("");
        chain.push(title);
        headings.push({ title, chain: chain.filter((h) => h !== "") });
      } else if (block.t === "Para") {
        let text;
        try {
          text = inlines(block.c).replace(/\s+/gu, " ").trim();
        } catch {
          continue;
        }
        const here = chain.filter((h) => h !== "");
        for (const s of text.split(/(?<=[.!?])\s+(?=[A-Z“"])/u))
          sentences.push({ text: s, section: chain.at(-1) ?? "", chain: here });
      } else if (block.t === "Div") walk(block.c[1]);
    }
  };
  walk(blocks);
  return { sentences, headings };
}
