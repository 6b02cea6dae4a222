/** Reading a flow source from a string or bytes in tests, through the real reader of its kind. */

import { DEFAULT_FLOW_LIMITS, type FlowDocument, type FlowKind } from "../../src/document/flow/model.js";
import { readerOf } from "../../src/document/flow/readers.js";
import { sha256Hex } from "../../src/source/file.js";

export async function readFlow(
  kind: FlowKind,
  content: string | Uint8Array,
  origin = `source.${kind}`,
): Promise<FlowDocument> {
  const bytes = typeof content === "string" ? new Uint8Array(Buffer.from(content, "utf8")) : content;
  const reader = await readerOf(kind, origin);
  return reader.read({ bytes, sha256: sha256Hex(bytes), origin }, DEFAULT_FLOW_LIMITS);
}

/** Each block as `kind region: text`. */
export function blocksOf(doc: FlowDocument): string[] {
  const chars = Array.from(doc.text);
  return doc.blocks.map((b) => `${b.kind} ${b.region}: ${chars.slice(b.startCp, b.endCp).join("")}`);
}

/** The code of the error a promise rejects with. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
  return "none";
}

/** A true quotation of the generated corpus (test/fixtures/flow), under its "1 Introduction". */
export const CORPUS_QUOTE = "hold a large share of the world's farmland";

/** Two records on the corpus: the true quotation (PASS) and the same with a word changed (FAIL). */
export const CORPUS_EVIDENCE = [
  { id: "ok", kind: "quotation" as const, text: CORPUS_QUOTE, section: "Introduction" },
  {
    id: "changed",
    kind: "quotation" as const,
    text: "hold a large share of the world's zebras",
    section: "Introduction",
  },
];
