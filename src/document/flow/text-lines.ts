/** What the line-based readers (Markdown, plain text) share: lines, and the deadline. */

import { CiteproofError } from "../../errors.js";
import { FlowBuilder } from "./builder.js";
import { decodeText } from "./decode.js";
import type { FlowKind, FlowLimits, FlowReader } from "./model.js";

/** The text's lines, whatever its line ends (CRLF, CR, LF), tabs at a line's start read as 4 spaces. */
export function textLines(text: string): string[] {
  return text
    .split(/\r\n?|\n/u)
    .map((line) => line.replace(/^[ \t]+/u, (lead) => lead.replace(/\t/gu, "    ")));
}

/** EXTRACTION_TIMEOUT once the deadline has passed, looked at every 4096 steps. */
export function checkDeadline(limits: FlowLimits, step: number, what: string): void {
  if (step % 4096 === 0 && limits.deadline !== undefined && Date.now() > limits.deadline)
    throw new CiteproofError("EXTRACTION_TIMEOUT", `${what} was not read before the deadline`);
}

/** The reader of a text kind (UTF-8 unless a byte-order mark or the transport says otherwise) that `append` reads into a builder. */
export function lineReader(
  kind: FlowKind,
  append: (builder: FlowBuilder, text: string, limits: FlowLimits) => void,
): FlowReader {
  return {
    kind,
    read: async (source, limits) => {
      const builder = new FlowBuilder(kind, source.sha256);
      append(builder, decodeText(source.bytes, source.origin, source.charset), limits);
      return builder.finish();
    },
  };
}
