/**
 * A flow document read back from the cache is trusted only when every field is in range: its kind,
 * its hash, its reader's version, and every offset within the text.
 */

import { codePointLength } from "../../util/codepoints.js";
import { isObject } from "../../util/json-object.js";
import {
  FLOW_BLOCK_KINDS,
  FLOW_KINDS,
  FLOW_READER_VERSION,
  FLOW_REGIONS,
  type FlowDocument,
} from "./model.js";

export function validFlowDocument(value: unknown, sha256: string): value is FlowDocument {
  if (!isObject(value)) return false;
  const v = value as Partial<FlowDocument>;
  if (v.sha256 !== sha256 || v.readerVersion !== FLOW_READER_VERSION) return false;
  if (!(FLOW_KINDS as readonly unknown[]).includes(v.kind) || typeof v.text !== "string") return false;
  if (v.lengthCp !== codePointLength(v.text)) return false;
  const length = v.lengthCp;
  const span = (s: unknown, e: unknown) =>
    Number.isInteger(s) &&
    Number.isInteger(e) &&
    (s as number) >= 0 &&
    (s as number) <= (e as number) &&
    (e as number) <= length;
  if (!Array.isArray(v.blocks) || !Array.isArray(v.headings) || !Array.isArray(v.labels)) return false;
  const headings = v.headings.length;
  const blocks = v.blocks.length;
  const index = (i: unknown, n: number) => Number.isInteger(i) && (i as number) >= -1 && (i as number) < n;
  return (
    v.blocks.every(
      (b) =>
        isObject(b) &&
        (FLOW_BLOCK_KINDS as readonly unknown[]).includes(b.kind) &&
        (FLOW_REGIONS as readonly unknown[]).includes(b.region) &&
        index(b.heading, headings) &&
        span(b.startCp, b.endCp),
    ) &&
    // A parent stands before its child, so walking up a heading chain always ends.
    v.headings.every(
      (h, i) =>
        isObject(h) &&
        typeof h.title === "string" &&
        Number.isInteger(h.level) &&
        index(h.parent, headings) &&
        h.parent < i &&
        index(h.block, blocks) &&
        h.block >= 0 &&
        span(h.startCp, h.endCp),
    ) &&
    v.labels.every(
      (l) => isObject(l) && typeof l.label === "string" && index(l.block, blocks) && l.block >= 0,
    ) &&
    (v.pageLabels === undefined ||
      (Array.isArray(v.pageLabels) &&
        v.pageLabels.every((p) => isObject(p) && typeof p.label === "string" && span(p.startCp, p.startCp))))
  );
}
