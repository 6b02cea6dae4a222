/**
 * An open document: its pages extracted (text layer, graphics, optional per-character geometry) or
 * rendered, one page at a time, each engine call guarded so that an abort or the memory limit
 * comes back as a coded error.
 */

import { CiteproofError } from "../../errors.js";
import type { Box, ExtractedPage, Rotation } from "../model.js";
import type { Outline } from "../outlines.js";
import { decideTextLayer } from "../text-layer-kind.js";
import { intersect } from "./boxes.js";
import { CharScratch, extractCharacters } from "./characters.js";
import type { Engine } from "./engine.js";
import { collectGraphics } from "./graphics.js";
import { metadataTitle } from "./metadata-title.js";
import { pageLabel } from "./page-label.js";
import { type EngineRender, type PngEncoding, renderPage } from "./render-page.js";

const BOX_MEDIA = 0;
const BOX_CROP = 1;

/** A loaded page's boxes and rotation. */
interface PageFrame {
  mediaBox: Box;
  cropBox: Box;
  rotation: Rotation;
}

export class EngineDocument {
  private closed = false;
  readonly pageCount: number;
  private readonly scratch = new CharScratch();

  constructor(
    private readonly engine: Engine,
    readonly handle: number,
    private readonly dataPtr: number,
  ) {
    this.pageCount = engine.raw.FPDF_GetPageCount(handle);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.engine.raw.FPDF_CloseDocument(this.handle);
    this.engine.raw.free(this.dataPtr);
  }

  private pageBox(index: number, type: number): Box | undefined {
    const ptr = this.engine.scratchPtr();
    if (!this.engine.raw.EPDF_GetPageBoxByIndex(this.handle, index, type, ptr)) return undefined;
    return this.engine.readBoxF(ptr);
  }

  /** Loads page `index` (0-based), runs `use` on it under the engine's guard, and closes it. */
  private withPage<T>(index: number, use: (page: number, frame: PageFrame) => T): T {
    return this.engine.guard(`page ${index + 1}`, () => {
      const raw = this.engine.raw;
      const page = raw.FPDF_LoadPage(this.handle, index);
      if (!page) throw new CiteproofError("DAMAGED_PDF", `page ${index + 1} cannot be loaded`);
      try {
        const mediaBox = this.pageBox(index, BOX_MEDIA) ?? {
          left: 0,
          bottom: 0,
          right: raw.FPDF_GetPageWidthF(page),
          top: raw.FPDF_GetPageHeightF(page),
        };
        const cropBox = intersect(this.pageBox(index, BOX_CROP) ?? mediaBox, mediaBox);
        const rotation = (((raw.FPDFPage_GetRotation(page) | 0) & 3) * 90) as Rotation;
        return use(page, { mediaBox, cropBox, rotation });
      } finally {
        raw.FPDF_ClosePage(page);
      }
    });
  }

  /**
   * Extracts one page (0-based index): text in content order, graphics, and with `withGeometry`
   * the per-character geometry. Without it only what the text layer needs is asked of the engine.
   */
  extractPage(index: number, withGeometry = true): ExtractedPage {
    return this.withPage(index, (page, { mediaBox, cropBox, rotation }) => {
      const raw = this.engine.raw;
      const cw = cropBox.right - cropBox.left;
      const ch = cropBox.top - cropBox.bottom;
      const width = rotation % 180 === 0 ? cw : ch;
      const height = rotation % 180 === 0 ? ch : cw;
      const { graphics, dropped, paint, objects } = collectGraphics(this.engine, page);
      const textPage = raw.FPDFText_LoadPage(page);
      if (!textPage) throw new CiteproofError("DAMAGED_PDF", `the text of page ${index + 1} cannot be read`);
      try {
        const chars = extractCharacters(this.engine, textPage, this.scratch, withGeometry, paint);
        return {
          text: {
            page: index + 1,
            mediaBox,
            cropBox,
            rotation,
            width,
            height,
            text: chars.text,
            lines: chars.lines,
            lineEndHyphensUtf16: chars.hyphens,
            scriptBreaksUtf16: chars.scriptBreaks,
            graphics,
            graphicsDropped: dropped,
            fonts: chars.fonts,
            hasTextLayer: /\S/.test(chars.text),
            textLayer: decideTextLayer({
              chars: chars.inkChars,
              hiddenChars: chars.hiddenChars,
              lines: chars.lines,
              graphics,
              objects,
              cropBox,
            }),
            largestImagePixels: paint.largestImagePixels,
            ...pageLabel(this.engine, this.handle, index),
            // A document's property, carried by its first page's record (cached with it).
            ...(index === 0 ? metadataTitle(this.engine, this.handle) : {}),
          },
          geometry: withGeometry
            ? {
                page: index + 1,
                glyphBoxes: chars.glyphBoxes,
                looseBoxes: chars.looseBoxes,
                origins: chars.origins,
                fontSizes: chars.fontSizes,
                fontIndex: chars.fontIndex,
                flags: chars.flags,
              }
            : undefined,
        };
      } finally {
        raw.FPDFText_ClosePage(textPage);
      }
    });
  }

  /**
   * Renders a region of a page (0-based index) to PNG. `box` is in default user space (undefined:
   * the whole visible page); the render applies the page's /Rotate, so the image looks as a viewer
   * shows the page. A box reaching past the page is clipped to it; one wholly outside is refused.
   */
  renderRegion(
    index: number,
    box: Box | undefined,
    dpi: number,
    encoding?: PngEncoding,
    outlines?: readonly Outline[],
  ): EngineRender {
    return this.withPage(index, (page, frame) =>
      renderPage(this.engine, page, index, frame, box, dpi, encoding, outlines),
    );
  }

  /** Several regions of a page, loaded once: the renderer decodes its images once for them all. */
  renderRegions(
    index: number,
    regions: readonly { box: Box; dpi: number }[],
    encoding?: PngEncoding,
  ): EngineRender[] {
    return this.withPage(index, (page, frame) =>
      regions.map((r) => renderPage(this.engine, page, index, frame, r.box, r.dpi, encoding)),
    );
  }

  /** Page count and boxes without extracting text. */
  pageBoxes(index: number): PageFrame {
    const mediaBox = this.pageBox(index, BOX_MEDIA) ?? { left: 0, bottom: 0, right: 612, top: 792 };
    const cropBox = intersect(this.pageBox(index, BOX_CROP) ?? mediaBox, mediaBox);
    const rotation = ((((this.engine.raw.EPDF_GetPageRotationByIndex(this.handle, index) | 0) & 3) * 90) |
      0) as Rotation;
    return { mediaBox, cropBox, rotation };
  }
}
