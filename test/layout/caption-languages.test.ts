import { describe, expect, it } from "vitest";
import { checkFigure } from "../../src/checks/figure.js";
import type { PageText } from "../../src/document/model.js";
import { FIGURE_CAPTION_LANGUAGES, figureKeywords } from "../../src/layout/caption-keywords.js";
import { captionTokens } from "../../src/layout/figure-captions.js";
import { anchorsOf } from "./support.js";

const tokensOf = (text: string) =>
  captionTokens({ text } as PageText).map((t) => [t.keyword, t.label, t.separator]);

describe("figure captions in other languages (babel's own \\figurename, lualatex)", () => {
  it("reads every language's caption as a figure with its graphics", async () => {
    const r = await anchorsOf("caption-languages");
    expect(r.figures.map((f) => [f.label, f.keyword, f.figureBox !== undefined])).toEqual([
      ["1", "Abbildung", true],
      ["2", "Abb.", true],
      ["3", "FIGURE", true],
      ["4", "Figura", true],
      ["5", "Figura", true],
      ["6", "Figura", true],
      ["7", "Figuur", true],
      ["8", "Rysunek", true],
      ["9", "Рис.", true],
    ]);
    for (const label of ["1", "2", "3", "4", "5", "6", "7", "8", "9"])
      expect(checkFigure(r, { label })).toMatchObject({ verdict: "PASS", reason: "found" });
  });

  it("takes no table caption for a figure, and no sentence naming a figure for a caption", async () => {
    const r = await anchorsOf("caption-languages");
    // Tabelle 1 ... Tabela 7, Таблица 8 are tables; there is no figure 10.
    expect(checkFigure(r, { label: "10" }).verdict).toBe("FAIL");
    const mentions = r.rejectedCaptions.filter((c) => / (zeigt|muestra|mostra|toont|pokazuje) /.test(c.text));
    expect(mentions.length).toBeGreaterThan(0);
    expect(r.figures.some((f) => / (zeigt|muestra|mostra|toont|pokazuje) /.test(f.text))).toBe(false);
  });
});

describe("caption keywords as data", () => {
  it("has a source for every language and an upper-case form of every keyword", () => {
    for (const row of FIGURE_CAPTION_LANGUAGES) expect(row.source.length).toBeGreaterThan(0);
    const words = figureKeywords();
    expect(words).toEqual(expect.arrayContaining(["ABBILDUNG", "ABB.", "РИС.", "FIG.", "图", "図"]));
  });

  it("reads Chinese and Japanese keywords run into their number, with a full-width colon", () => {
    expect(tokensOf("图3：系统结构\n圖 4 模型\n図5 結果")).toEqual([
      ["图", "3", "："],
      ["圖", "4", ""],
      ["図", "5", ""],
    ]);
  });

  it("needs a word end after a keyword of letters", () => {
    // "Abbildungen 3" and "Figures 3" are plurals in running text, never a caption's opening.
    expect(tokensOf("Abbildungen 3: x\nFigures 3: y\nBildung 3: z\nFig 3: w")).toEqual([["Fig", "3", ":"]]);
  });
});
