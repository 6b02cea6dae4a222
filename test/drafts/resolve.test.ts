/** Resolving a cited work to a bibliography entry: keys, numbers, family names and years. */
import { describe, expect, it } from "vitest";
import { readBibliography } from "../../src/drafts/bibliography.js";
import { resolveRef } from "../../src/drafts/check-draft.js";
import { readDraftCitations } from "../../src/prose/bib-citations.js";

const BIB = [
  '@string{j = "Journal"}',
  '@article{muller, author = {M{\\"u}ller, Hans and Li, Cy}, title = {Beta}, year = 2019, journal = j}',
  "@article{berg, author = {van der Berg, Ann}, title = {Gamma}, year = 2020}",
  "@article{rossiB, author = {Rossi, Ann}, title = {Zeta work}, year = 2021}",
  "@article{rossiA, author = {Rossi, Ann}, title = {Alpha work}, year = 2021}",
  "@book{solo, author = {Solo, Ann}, title = {Solo}, year = 2022}",
].join("\n");

async function resolved(text: string, bibText = BIB, name = "refs.bib") {
  const bib = await readBibliography(bibText, name);
  return readDraftCitations(text, "markdown").citations.map((c) => {
    const r = resolveRef(c.ref, bib);
    return r === null ? null : "entry" in r ? r.entry.key : `${r.verdict} ${r.reason}`;
  });
}

describe("resolving citations through a bibliography", () => {
  it("by family names and year: accents, particles and case folded; et al. and co-authors", async () => {
    expect(
      await resolved("(Muller & Li 2019). (Müller et al. 2019). (Berg 2020). (van der Berg 2020)."),
    ).toEqual(["muller", "muller", "berg", "berg"]);
  });

  it("two works that fit are ambiguous; a letter picks one by title order; a letter past them fits none", async () => {
    expect(
      await resolved("(Rossi 2021). (Rossi 2021a). (Rossi 2021b). (Rossi 2021c). (Solo 2022b)."),
    ).toEqual(["FLAG ambiguous-source", "rossiA", "rossiB", "FAIL unknown-key", "FAIL unknown-key"]);
  });

  it("a letter orders the works of the label cited by title, as the reference list sorts them", async () => {
    const bib = [
      "@article{kim1, author = {Kim, Bo}, title = {The zebra study}, year = 2020}",
      "@article{kim2, author = {Kim, Bo}, title = {{\\'A}ngel numbers}, year = 2020}",
      "@article{kim3, author = {Kim, Bo and Lee, Al}, title = {A first look}, year = 2020}",
      "@article{kim4, author = {Kim, Bo and Lee, Al and Park, Jo}, title = {Better ways}, year = 2020}",
      "@article{kim5, author = {Kim, Bo and Oh, Mi and Park, Jo}, title = {All ways}, year = 2020}",
    ].join("\n");
    // Kim alone: `Ángel` before `zebra` (the article dropped); Kim & Lee is a label of its own;
    // et al.: the works of more authors than written, by title.
    expect(
      await resolved(
        "(Kim 2020a). (Kim 2020b). (Kim & Lee 2020a). (Kim et al. 2020a). (Kim et al. 2020b). (Kim 2020c).",
        bib,
      ),
    ).toEqual(["kim2", "kim1", "kim3", "kim5", "kim4", "FAIL unknown-key"]);
  });

  it("a letter among works whose order cannot be told is ambiguous", async () => {
    const bib = [
      "@article{ng1, author = {Ng, Al}, title = {Same title}, year = 2020}",
      "@article{ng2, author = {Ng, Al}, title = {Same Title.}, year = 2020}",
      "@article{ho1, author = {Ho, Al}, year = 2021}",
      "@article{ho2, author = {Ho, Al}, title = {Two}, year = 2021}",
    ].join("\n");
    expect(await resolved("(Ng 2020a). (Ho 2021b).", bib)).toEqual([
      "FLAG ambiguous-source",
      "FLAG ambiguous-source",
    ]);
  });

  it("a wrong year or name is an unknown key; a narrative form no entry fits is no citation", async () => {
    expect(await resolved("(Rossi 2019). In Summer (2021) we went. Rossi (2021a) wrote.")).toEqual([
      "FAIL unknown-key",
      null,
      "rossiA",
    ]);
  });

  it("numbers: by the bibliography's order, or by CSL-JSON ids that are numbers", async () => {
    expect(await resolved("[1] and [5] and [6].")).toEqual(["muller", "solo", "FAIL unknown-key"]);
    const csl = JSON.stringify([
      { id: "2", title: "Two" },
      { id: "1", title: "One" },
    ]);
    const bib = await readBibliography(csl, "refs.json");
    const refs = readDraftCitations("[1] and [2].", "markdown").citations.map((c) => resolveRef(c.ref, bib));
    expect(refs.map((r) => (r && "entry" in r ? r.entry.title : null))).toEqual(["One", "Two"]);
  });

  it("reads the @string, the accents and the fields an entry needs", async () => {
    const bib = await readBibliography(BIB, "refs.bib");
    expect(bib.byKey("muller")).toMatchObject({
      families: ["Müller", "Li"],
      year: "2019",
      title: "Beta",
      line: 2,
    });
    expect(bib.size).toBe(5);
  });

  it("reads file fields in the forms JabRef, Zotero and Better BibTeX write", async () => {
    const bib = await readBibliography(
      [
        "@article{a, file = {papers/a.pdf}}",
        "@article{b, file = {:papers/b.pdf:PDF}}",
        "@article{c, file = {Snapshot:snap.html:text/html;Full Text:papers/c.pdf:application/pdf}}",
        "@article{d, file = {C\\:\\\\papers\\\\d.pdf}}",
      ].join("\n"),
      "refs.bib",
    );
    expect(["a", "b", "c"].map((k) => bib.byKey(k)?.files[0])).toEqual([
      "papers/a.pdf",
      "papers/b.pdf",
      "papers/c.pdf",
    ]);
    expect(bib.byKey("c")?.files).toEqual(["papers/c.pdf", "snap.html"]);
    expect(bib.byKey("d")?.files[0]).toMatch(/^C:.*d\.pdf$/);
  });

  it("a JSON bibliography that is neither CSL-JSON nor a map is a coded error", async () => {
    await expect(readBibliography("42", "refs.json")).rejects.toMatchObject({ code: "EVIDENCE_INVALID" });
  });
});
