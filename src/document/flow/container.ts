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

export function readXmlPart(
  zip: ZipArchive,
  name: string,
  limits: FlowLimits,
  options: XmlOptions = {},
): XmlDocument {
  checkDeadline(limits, `${zip.what} part ${name}`);
  return parseXml(zip.read(name), name, { maxDepth: limits.maxDepth, within: zip.what, ...options });
}
