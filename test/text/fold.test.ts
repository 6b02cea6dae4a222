// The `fold` profile: every rule, and the offset map back to the original text.
import { describe, expect, it } from "vitest";
import { countWords, type FoldedText, fold, foldedText, skeleton } from "../../src/text/fold.js";

/** The original text each folded unit maps back to. */
function sources(original: string, folded: FoldedText): string[] {
  return Array.from(folded.text, (_, k) => original.slice(folded.startUtf16[k], folded.endUtf16[k]));
}

function expectWellFormedMap(original: string, folded: FoldedText): void {
  expect(folded.startUtf16.length).toBe(folded.text.length);
  expect(folded.endUtf16.length).toBe(folded.text.length);
  for (let k = 0; k < folded.text.length; k++) {
    expect(folded.startUtf16[k]).toBeGreaterThanOrEqual(0);
    expect(folded.endUtf16[k]).toBeGreaterThan(folded.startUtf16[k]);
    expect(folded.endUtf16[k]).toBeLessThanOrEqual(original.length);
    if (k > 0) expect(folded.startUtf16[k]).toBeGreaterThanOrEqual(folded.startUtf16[k - 1]);
  }
}

describe("fold", () => {
  it("folds case, locale-independently", () => {
    expect(fold("The DATA, Ärger, İSTANBUL, ΣΟΦΊΑ").text).toBe("the data, ärger, i̇stanbul, σοφία");
    // A capital I is always i (never a dotless ı).
    expect(fold("INDEX").text).toBe("index");
    // Astral letters fold too, and stay one code point of two units.
    const deseret = fold("\u{10400}X");
    expect(deseret.text).toBe("\u{10428}x");
    expect(Array.from(deseret.startUtf16)).toEqual([0, 0, 2]);
    expect(Array.from(deseret.endUtf16)).toEqual([2, 2, 3]);
  });

  it("turns every run of whitespace and line breaks into one space", () => {
    const original = "a \t b\n\nc\u00a0\u2009d\u3000\u202fe\r\nf\u2028g\ufeffh";
    const folded = fold(original);
    expect(folded.text).toBe("a b c d e f g h");
    expectWellFormedMap(original, folded);
    // The space maps back to the whole run it replaced.
    expect(sources(original, folded)[1]).toBe(" \t ");
    expect(sources(original, folded)[3]).toBe("\n\n");
  });

  it("keeps or drops leading and trailing whitespace (trim)", () => {
    expect(fold("  words here \n").text).toBe(" words here ");
    expect(fold("  words here \n", { trim: true }).text).toBe("words here");
  });

  it("expands the ligatures U+FB00-FB06, each letter mapping to the ligature", () => {
    const original = "\ufb00 \ufb01 \ufb02 \ufb03 \ufb04 \ufb05 \ufb06";
    const folded = fold(original);
    expect(folded.text).toBe("ff fi fl ffi ffl st st");
    expectWellFormedMap(original, folded);
    const at = folded.text.indexOf("ffi");
    for (let k = at; k < at + 3; k++) {
      expect(original.slice(folded.startUtf16[k], folded.endUtf16[k])).toBe("\ufb03");
    }
    expect(fold("e\ufb03cient").text).toBe(fold("efficient").text);
  });

  it("makes curly quotes and primes straight", () => {
    expect(fold("\u2018a\u2019 \u201ab\u201b \u201cc\u201d \u201ed\u201f").text).toBe("'a' 'b' \"c\" \"d\"");
    expect(fold("5\u2032 3\u2033 \u2035 \u2036").text).toBe("5' 3\" ' \"");
    // The straight forms stay as they are.
    expect(fold("'a' \"b\"").text).toBe("'a' \"b\"");
  });

  it("makes every dash and minus a hyphen-minus", () => {
    const dashes = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d";
    expect(fold(dashes).text).toBe("-".repeat(10));
    expect(fold("5\u20138%").text).toBe("5-8%");
    expect(fold("\u22123.5").text).toBe("-3.5");
  });

  it("removes soft hyphens", () => {
    const original = "perfor\u00admance";
    const folded = fold(original);
    expect(folded.text).toBe("performance");
    expectWellFormedMap(original, folded);
    expect(folded.startUtf16[6]).toBe(7);
  });

  it("changes nothing else: no NFKC over digits, symbols or letters", () => {
    expect(fold("x\u00b2").text).toBe("x\u00b2");
    expect(fold("x\u00b2").text).not.toBe("x2");
    expect(fold("H\u2082O").text).toBe("h\u2082o");
    expect(fold("\u00bd \u2160 \uff21").text).toBe("\u00bd \u2170 \uff41");
    expect(fold("caf\u00e9").text).not.toBe(fold("cafe").text);
    expect(fold("5.8% < 6 \u2264 7 \u00b1 1").text).toBe("5.8% < 6 \u2264 7 \u00b1 1");
    expect(fold("\u2026").text).toBe("\u2026");
  });

  it("recombines an accent set before its letter, as TeX's OT1 fonts draw it, keeping offsets", () => {
    const original = "Cs\u00a8org\u02ddo, Gin\u00b4e and G\u00a8otze";
    const folded = fold(original);
    expect(folded.text).toBe("csörgő, giné and götze");
    expectWellFormedMap(original, folded);
    // The composed letter maps back to the accent and the letter together.
    expect(sources(original, folded)[2]).toBe("\u00a8o");
    expect(sources(original, folded)[5]).toBe("\u02ddo");
    for (const [accent, letter, composed] of [
      ["\u00a8", "o", "ö"],
      ["\u02dd", "u", "ű"],
      ["\u00b4", "e", "é"],
      ["`", "a", "à"],
      ["\u02c6", "o", "ô"],
      ["\u02dc", "n", "ñ"],
      ["\u00af", "a", "ā"],
      ["\u02d8", "g", "ğ"],
      ["\u02c7", "c", "č"],
      ["\u02d9", "z", "ż"],
      ["\u02da", "a", "å"],
      ["\u00b8", "c", "ç"],
      ["\u02db", "e", "ę"],
    ]) {
      expect(fold(`x${accent}${letter}y`).text).toBe(`x${composed}y`);
      expect(fold(`x${letter}${accent} y`).text).toBe(`x${composed} y`);
    }
  });

  it("recombines an accent after its letter, combining marks and dotless letters, then composes (NFC)", () => {
    expect(fold("Go\u0308tze").text).toBe("götze");
    expect(fold("O\u0308").text).toBe("ö");
    expect(fold("cafe\u0301").text).toBe(fold("caf\u00e9").text);
    expect(fold("Gin\u00e9").text).toBe(fold("Gin\u00b4e").text);
    // \'{\i} and \v{\j} set over TeX's dotless letters.
    expect(fold("\u00b4\u0131").text).toBe("í");
    expect(fold("\u02c7\u0237").text).toBe("ǰ");
    expect(fold("\u0131").text).toBe("\u0131");
    // Canonical singletons: the Ångström and Kelvin signs are their letters.
    expect(fold("\u212b \u212a").text).toBe("å k");
    // An accent standing apart (no letter beside it) stays as it is.
    expect(fold("x \u00b4 y").text).toBe("x \u00b4 y");
    expect(fold("`quoted'").text).toBe("`quoted'");
    const original = "caf\u00b4e au lait";
    expectWellFormedMap(original, fold(original));
  });

  it("keeps a missing or different accent different: only the skeleton drops accents", () => {
    expect(fold("Gine").text).not.toBe(fold("Gin\u00b4e").text);
    expect(fold("Gin\u00e8").text).not.toBe(fold("Gin\u00b4e").text);
    expect(skeleton("Gin\u00b4e").text).toBe("gine");
    expect(skeleton("Cs\u00f6rg\u0151").text).toBe("csorgo");
    expect(skeleton("\u0131").text).toBe("i");
  });

  it("keeps astral characters whole and maps both units back", () => {
    const original = "let \u{1d465} = \u{1d466}\u{1f600}";
    const folded = fold(original);
    expect(folded.text).toBe(original);
    expectWellFormedMap(original, folded);
    const at = folded.text.indexOf("\u{1d465}");
    expect(original.slice(folded.startUtf16[at], folded.endUtf16[at])).toBe("\u{1d465}");
    expect(original.slice(folded.startUtf16[at + 1], folded.endUtf16[at + 1])).toBe("\u{1d465}");
  });

  it("joins a line-end hyphen between letters, or keeps it, as asked", () => {
    const original = "overall perfor-\nmance of";
    const hyphen = original.indexOf("-");
    const joined = fold(original, { lineEndHyphensUtf16: [hyphen] });
    expect(joined.text).toBe("overall performance of");
    expectWellFormedMap(original, joined);
    const m = joined.text.indexOf("mance");
    expect(joined.startUtf16[m]).toBe(hyphen + 2);
    const kept = fold(original, { lineEndHyphensUtf16: [hyphen], hyphenReading: "kept" });
    expect(kept.text).toBe("overall perfor-mance of");
    expect(kept.startUtf16[kept.text.indexOf("-")]).toBe(hyphen);
    // A hyphen that is not flagged is an ordinary character followed by a line break.
    expect(fold(original).text).toBe("overall perfor- mance of");
    // Not between two letters: the hyphen stays even when joining.
    const covid = "COVID-\n19 cases";
    expect(fold(covid, { lineEndHyphensUtf16: [5] }).text).toBe("covid-19 cases");
  });

  it("grows past its first guess when ligatures lengthen a long text", () => {
    const original = `${"\uFB03".repeat(40)} End`;
    const folded = fold(original);
    expect(folded.text).toBe(`${"ffi".repeat(40)} end`);
    expectWellFormedMap(original, folded);
    expect(sources(original, folded).slice(0, 3)).toEqual(["\uFB03", "\uFB03", "\uFB03"]);
  });

  it("maps every folded unit back to the original unit it came from", () => {
    const original =
      "The \ufb01rst \u201cOf\ufb01ce\u201d\u2014seen   on p.\u00a03\u2009\u2013\u20095\u00ad6 \u{1d465}\u00b2";
    const folded = fold(original);
    expect(folded.text).toBe('the first "office"-seen on p. 3 - 56 \u{1d465}\u00b2');
    expectWellFormedMap(original, folded);
    for (let k = 0; k < folded.text.length; k++) {
      const from = original.slice(folded.startUtf16[k], folded.endUtf16[k]);
      const again = fold(from).text;
      // Each source folds to a string that holds the folded unit.
      expect(again.includes(folded.text[k]) || /^\s+$/u.test(from)).toBe(true);
    }
  });
});

describe("foldedText", () => {
  it("is fold's text, whatever the call before it left in the buffer it reuses", () => {
    const long = `${"A LONG LINE OF CAPITALS, ﬁ LIGATURES AND WIDE — DASHES. ".repeat(400)}end`;
    const hyphenated = "perfor-\nmance of the re-\nsult";
    const hyphens = [6, hyphenated.lastIndexOf("-")];
    const cases: [string, Parameters<typeof fold>[1]][] = [
      [long, {}],
      // An accent composed with the letter folded before it reads the buffer's offsets back.
      ["Caf\u00b4e and na\u0308ive", {}],
      [hyphenated, { lineEndHyphensUtf16: hyphens }],
      [hyphenated, { lineEndHyphensUtf16: hyphens, hyphenReading: "kept" }],
      ["  two  spaces  ", { trim: true }],
      ["αβγ 𝐀𝐁 ΣΑΣ", {}],
      ["", {}],
      [long.slice(0, 40), {}],
    ];
    for (const [text, options] of cases) expect(foldedText(text, options)).toBe(fold(text, options).text);
    // Each case again after the longest one.
    for (const [text, options] of cases) {
      foldedText(long);
      expect(foldedText(text, options)).toBe(fold(text, options).text);
    }
  });
});

describe("skeleton", () => {
  it("keeps letters and digits only, so 5-8% and 58% share one", () => {
    expect(skeleton("an effect of 5\u20138% was seen").text).toBe("aneffectof58wasseen");
    expect(skeleton("an effect of 58% was seen").text).toBe("aneffectof58wasseen");
    expect(skeleton("x\u00b2 \u{1d465}").text).toBe("x\u00b2\u{1d465}");
  });

  it("maps back to the original", () => {
    const original = "5\u20138% of \ufb01les";
    const s = skeleton(original);
    expect(s.text).toBe("58offiles");
    expect(original.slice(s.startUtf16[0], s.endUtf16[1])).toBe("5\u20138");
    expect(original.slice(s.startUtf16[4], s.endUtf16[5])).toBe("\ufb01");
  });
});

describe("countWords", () => {
  it("counts whitespace-separated tokens that hold a letter or digit", () => {
    expect(countWords("a finite set of nodes")).toBe(5);
    expect(countWords("  — 58 % \u201cgood\u201d  ")).toBe(2);
    expect(countWords("")).toBe(0);
    expect(countWords("\u2013 \u2014 !")).toBe(0);
  });
});
