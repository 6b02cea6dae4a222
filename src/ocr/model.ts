/**
 * The English LSTM model both OCR engines read: the `4.0.0_best_int` folder of the package
 * @tesseract.js-data/eng (integer-quantised from the "best" models), never downloaded.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { CiteproofError } from "../errors.js";

const require = createRequire(import.meta.url);

export const MODEL_FOLDER = "4.0.0_best_int";

export function modelFolder(): { folder: string; packageVersion: string } {
  let pkgJson: string;
  try {
    pkgJson = require.resolve("@tesseract.js-data/eng/package.json");
  } catch {
    throw new CiteproofError(
      "OCR_UNAVAILABLE",
      "the OCR model package @tesseract.js-data/eng is not installed",
    );
  }
  const version = (JSON.parse(readFileSync(pkgJson, "utf8")) as { version: string }).version;
  return { folder: join(dirname(pkgJson), MODEL_FOLDER), packageVersion: version };
}

type ModelFile = { bytes: Buffer; sha256: string; packageVersion: string };

/** The installed package's file, read and hashed once: it does not change under a running process. */
let held: ModelFile | undefined;

/** The model file's bytes (gzip-compressed) and what names it; throws OCR_UNAVAILABLE when unreadable. */
export function modelFile(): ModelFile {
  if (held) return held;
  const { folder, packageVersion } = modelFolder();
  const file = join(folder, "eng.traineddata.gz");
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new CiteproofError(
      "OCR_UNAVAILABLE",
      `the OCR model ${file} of the package @tesseract.js-data/eng cannot be read`,
    );
  }
  held = { bytes, sha256: createHash("sha256").update(bytes).digest("hex"), packageVersion };
  return held;
}

let unpacked: Buffer | undefined;

/**
 * The model file unpacked (the system's tesseract reads it uncompressed), unpacked once: every OCR
 * session of a check (the pages, the label crops, the strips) writes it into its own folder.
 */
export function unpackedModel(): Buffer {
  unpacked ??= gunzipSync(modelFile().bytes);
  return unpacked;
}

/** The version of the installed tesseract.js; throws OCR_UNAVAILABLE when it is not installed. */
export function tesseractJsVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(require.resolve("tesseract.js/package.json"), "utf8")) as { version: string }
    ).version;
  } catch {
    throw new CiteproofError("OCR_UNAVAILABLE", "the OCR engine tesseract.js is not installed");
  }
}
