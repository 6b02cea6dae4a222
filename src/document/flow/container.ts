/**
 * What every reader of a zip container shares: the flow limits as zip caps, the deadline, and a part
 * read and parsed as XML within them.
 */
import { CiteproofError } from "../../errors.js";
import type { FlowLimits } from "./model.js";
import { parseXml, type XmlDocument, type XmlOptions } from "./xml.js";
import { ZIP_LIMITS, type ZipArchive, type ZipLimits } from "./zip.js";

export function zipLimitsFor(limits: FlowLimits): ZipLimits {
  return {
    ...ZIP_LIMITS,
    entryBytes: Math.min(ZIP_LIMITS.entryBytes, limits.maxInflatedBytes),
    totalBytes: limits.maxInflatedBytes,
    ratio: limits.maxInflateRatio,
  };
}

/** EXTRACTION_TIMEOUT once the limits' deadline has passed. */
export function checkDeadline(limits: FlowLimits, what: string): void {
  if (limits.deadline !== undefined && Date.now() > limits.deadline)
    throw new CiteproofError("EXTRACTION_TIMEOUT", `reading ${what} did not finish in time`, {
      option: "timeout_ms",
    });
}

/** CONTENT_INVALID naming `mimetype` when the container declares another media type than `expected`. */
export function checkMimetype(zip: ZipArchive, expected: string, kind: string): void {
  if (!zip.has("mimetype")) return;
  const declared = new TextDecoder("latin1").decode(zip.read("mimetype")).trim();
  if (declared !== expected)
    throw new CiteproofError(
      "CONTENT_INVALID",
      `${zip.what} declares ${declared.slice(0, 80)}, not ${kind}`,
      {
        part: "mimetype",
      },
    );
}

export function readXmlPart(
  zip: ZipArchive,
  name: string,
  limits: FlowLimits,
  options: XmlOptions = {},
): XmlDocument {
  checkDeadline(limits, `${zip.what} part ${name}`);
  return parseXml(zip.read(name), name, { maxDepth: limits.maxDepth, within: zip.what, ...options });
}
