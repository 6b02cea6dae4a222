/** The `--ocr <mode>` flag of verify and check-text. */
import { OCR_MODES, type OcrMode } from "../checks/cite-check/verdicts.js";
import { CiteproofError } from "../errors.js";

export const OCR_FLAG_HELP =
  "auto: OCR cited pages whose words are an image (no text layer, or only a stamp over a scan); tesseract: also pages where the text layer gives no PASS";

export function ocrOption(value: string | undefined): { ocr?: OcrMode } {
  if (value === undefined) return {};
  if (!(OCR_MODES as readonly string[]).includes(value))
    throw new CiteproofError(
      "USAGE",
      `--ocr must be one of ${OCR_MODES.join(", ")} (got ${JSON.stringify(value)})`,
    );
  return { ocr: value as OcrMode };
}
