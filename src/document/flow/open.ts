/**
 * Opening a flow source: its kind from its content, its reader under a deadline, and the parsed
 * document kept in the extraction cache under its sha256 (as a PDF's extraction is), so a second
 * check of the same bytes parses nothing.
 */

import { defaultCacheDir, ExtractionCache } from "../cache.js";
import { DEFAULT_TIMEOUT_MS } from "../open.js";
import { detectKind } from "./detect.js";
import {
  DEFAULT_FLOW_LIMITS,
  FLOW_READER_VERSION,
  type FlowDocument,
  type FlowKind,
  type FlowLimits,
  type SourceBytes,
  type SourceKind,
} from "./model.js";
import { readerOf } from "./readers.js";
import { validFlowDocument } from "./valid.js";

export interface FlowOpenOptions {
  cacheDir?: string;
  noCache?: boolean;
  /** Deadline for reading, in milliseconds. */
  timeoutMs?: number;
  limits?: Partial<FlowLimits>;
}

const RECORD = `flow-${FLOW_READER_VERSION}`;

/** The kind of the source's bytes (detect.ts). */
export function sourceKind(source: SourceBytes): SourceKind {
  return detectKind(source.bytes, source.origin).kind;
}

/** The parsed flow document of a source of a flow kind, from the cache or its reader. */
export async function openFlow(
  source: SourceBytes,
  kind: FlowKind,
  options: FlowOpenOptions = {},
): Promise<FlowDocument> {
  const cache = options.noCache
    ? undefined
    : new ExtractionCache(options.cacheDir ?? defaultCacheDir(), source.sha256);
  // The same bytes served under another charset read as another text.
  const record =
    source.charset === undefined ? RECORD : `${RECORD}-charset-${encodeURIComponent(source.charset)}`;
  const cached = cache?.readRecord<unknown>(record);
  if (cached !== undefined && validFlowDocument(cached, source.sha256)) return cached;
  const reader = await readerOf(kind, source.origin);
  const limits: FlowLimits = {
    ...DEFAULT_FLOW_LIMITS,
    ...options.limits,
    deadline: Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  };
  const doc = await reader.read(source, limits);
  try {
    cache?.writeRecord(record, doc);
  } catch {
    // An unwritable cache slows the next run; it never changes a result.
  }
  return doc;
}
