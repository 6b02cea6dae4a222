import { isAbsolute, resolve } from "node:path";
import { CITE_CHECK_LIMITS as L } from "../checks/cite-check/limits.js";
import { parseCiteCheckRequest } from "../checks/cite-check/request.js";
import { citeCheck } from "../checks/cite-check/run.js";
import { NORMALIZATIONS, OCR_MODES } from "../checks/cite-check/verdicts.js";
import type { AgentTool } from "./tool.js";

const BOX = {
  type: "object",
  description: "PDF default user space of the page (points, origin bottom-left of the MediaBox)",
  properties: {
    left: { type: "number" },
    bottom: { type: "number" },
    right: { type: "number" },
    top: { type: "number" },
  },
  required: ["left", "bottom", "right", "top"],
  additionalProperties: false,
};

export const citeCheckTool: AgentTool = {
  name: "cite_check",
  title: "Check located quotes in a PDF",
  description:
    "Checks that each quote occurs on its physical page inside its bounding box, case-sensitively, " +
    "with the glyph geometry of the PDF (OCR only when asked). The request form of `citeproof " +
    'cite-check --request`: {"sources":[{"path":...}|{"url":...}],"citations":[{"id","quote","page",' +
    '"bounding_box":{"left","bottom","right","top"}}], normalization, ocr, ...}. Returns one result per ' +
    "citation in input order: verdict verified_exact | verified_normalized | unmatched | " +
    "insufficient_evidence, a reason code, and up to 8 supporting locations with their boxes.",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: {
      operation: { type: "string", enum: ["cite_check"], description: "optional; always cite_check" },
      sources: {
        type: "array",
        minItems: 1,
        maxItems: 1,
        description: 'exactly one source: {"path": ...} inside the allowed roots, or {"url": "https://..."}',
        items: {
          type: "object",
          properties: { path: { type: "string" }, url: { type: "string" } },
          additionalProperties: false,
        },
      },
      citations: {
        type: "array",
        minItems: L.minCitations,
        maxItems: L.maxCitations,
        items: {
          type: "object",
          properties: {
            id: { type: "string" },
            quote: { type: "string", maxLength: L.maxQuoteUtf16 },
            page: { type: "integer", minimum: 1, description: "one-based physical page" },
            bounding_box: BOX,
          },
          required: ["quote", "page", "bounding_box"],
          additionalProperties: false,
        },
      },
      normalization: { type: "string", enum: [...NORMALIZATIONS], description: "default none" },
      expected_source_sha256: { type: "string", description: "64 hex digits; a mismatch decides first" },
      ocr: { type: "string", enum: [...OCR_MODES] },
      timeout_ms: { type: "integer", minimum: L.minTimeoutMs, maximum: L.maxTimeoutMs },
      max_output_chars: { type: "integer", minimum: L.minOutputChars, maximum: L.maxOutputChars },
    },
    required: ["sources", "citations"],
    additionalProperties: false,
  },
  async run(args, env) {
    const request: Record<string, unknown> = { operation: "cite_check", ...args };
    request.sources = relativeTo(env.cwd, request.sources);
    const input = parseCiteCheckRequest(request);
    return {
      json: await citeCheck(input, {
        allowRoots: env.roots,
        cacheDir: env.open.cacheDir,
        noCache: env.open.noCache,
      }),
    };
  },
};

/** A relative source path starts from the tool's working directory, not the process's. */
function relativeTo(cwd: string, sources: unknown): unknown {
  if (!Array.isArray(sources)) return sources;
  return sources.map((s) => {
    if (typeof s !== "object" || s === null) return s;
    const path = (s as { path?: unknown }).path;
    if (
      typeof path !== "string" ||
      path.length === 0 ||
      isAbsolute(path) ||
      /^[a-z][a-z0-9+.-]*:\/\//i.test(path)
    )
      return s;
    return { ...s, path: resolve(cwd, path) };
  });
}
