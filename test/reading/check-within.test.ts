// A check against a document read in part maps the context and a record to the result the whole
// document gives, or to the pages it still needs; it never fails for a page not read, and an error a
// check raises is never swallowed.
import { types } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { checkWithin, UnheldReads } from "../../src/checks/check-within.js";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import { type CheckContext, checkRecord, foldedPagesWith } from "../../src/checks/verify.js";
import type { PageText } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { DocumentHandle } from "../../src/reading/document-handle.js";
import { FoldedPages } from "../../src/text/folded-pages.js";
import { fixture } from "../helpers/fixture-files.js";

type TextRecord = Extract<EvidenceRecord, { kind: "quotation" | "page" }>;
let whole: (PageText | undefined)[] = [];
let sha256 = "";

beforeAll(async () => {
  const doc = await openDocument(fixture("paper"), { noCache: true });
  whole = doc.pages;
  sha256 = doc.sha256;
});

/** A context over a handle that holds the given pages only. */
function partial(held: number[]): { handle: DocumentHandle; context: CheckContext } {
  const handle = new DocumentHandle(sha256);
  handle.open(whole.length);
  for (const page of held) handle.put(whole[page - 1] as PageText);
  const context: CheckContext = {
    sha256,
    pageCount: whole.length,
    pages: foldedPagesWith(undefined, handle.pages, undefined, {
      readable: () => handle.everyPageHeld(),
      wanted: () => handle.unheld.noteEveryPage(),
    }),
  };
  return { handle, context };
}

const wholeResult = (record: TextRecord) =>
  checkRecord({ sha256, pageCount: whole.length, pages: new FoldedPages(whole) }, record);

const around = (page: number, radius: number) =>
  Array.from({ length: 2 * radius + 1 }, (_, i) => page - radius + i).filter(
    (p) => p >= 1 && p <= whole.length,
  );

describe("checkWithin", () => {
  const onPage5: TextRecord = {
    kind: "quotation",
    page: 5,
    text: "reduced the mean squared error by roughly a third",
  };
  const elsewhere: TextRecord = { ...onPage5, page: 3 };

  it("answers from the pages held what the whole document answers", () => {
    const { handle, context } = partial(around(5, 6));
    const outcome = checkWithin(context, handle.unheld, onPage5);
    expect(outcome).toEqual({ result: wholeResult(onPage5) });
    expect(handle.unheld.any).toBe(false);
  });

  it("names every page as needed when the words are not on the pages held, and answers once they are in", () => {
    const { handle, context } = partial(around(3, 6).filter((p) => p !== 5));
    expect(checkWithin(context, handle.unheld, elsewhere)).toEqual({
      needs: { pages: expect.any(Array), everyPage: true },
    });
    for (let page = 1; page <= whole.length; page++)
      if (!handle.holds(page)) handle.put(whole[page - 1] as PageText);
    expect(checkWithin(context, handle.unheld, elsewhere)).toEqual({ result: wholeResult(elsewhere) });
  });

  it("names the pages not held that a check read, rather than taking them for empty", () => {
    const { handle, context } = partial([5]);
    const outcome = checkWithin(context, handle.unheld, onPage5);
    expect("needs" in outcome && outcome.needs.pages.length).toBeGreaterThan(0);
    expect("needs" in outcome && outcome.needs.pages.includes(5)).toBe(false);
  });

  it("reads its pages through an explicit API: a page not held is undefined and noted, never thrown for", () => {
    const { handle } = partial([5]);
    expect(types.isProxy(handle.pages)).toBe(false);
    expect(handle.pages.count).toBe(whole.length);
    expect(handle.pages.get(5)).toBe(whole[4]);
    expect(handle.unheld.any).toBe(false);
    expect(handle.pages.held()).toEqual([whole[4]]);
    expect(handle.unheld.any).toBe(false);
    expect(handle.pages.get(4)).toBeUndefined();
    expect(handle.pages.get(whole.length + 1)).toBeUndefined();
    expect([...handle.unheld.pages]).toEqual([4]);
    // Once the rest is stored, a page not held is read back, and nothing is noted.
    handle.unheld.clear();
    handle.readBackWith((page) => whole[page - 1]);
    expect(handle.pages.get(4)).toBe(whole[3]);
    expect(handle.unheld.any).toBe(false);
  });

  it("lets an error a check raises through", () => {
    const unheld = new UnheldReads();
    const broken = {
      sha256,
      pageCount: 1,
      get pages(): FoldedPages {
        throw new TypeError("no pages here");
      },
    } as CheckContext;
    expect(() => checkWithin(broken, unheld, onPage5)).toThrow(TypeError);
  });
});
