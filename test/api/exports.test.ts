// The library entry (the package's main export) exports exactly these values: adding or removing one is a
// decision about the public API, made here on purpose. Types are checked by the compiler, not listed.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as citeproof from "../../src/index.js";
import { repoRoot } from "../helpers/fixture-files.js";

const EXPORTED = [
  "ACCESS_LEVELS",
  "ACCESS_MEANINGS",
  "AGENT_OPERATIONS",
  "CACHE_DIR_ENV",
  "CAPTION_REJECTIONS",
  "CAPTION_REJECTION_MEANINGS",
  "CHAR_FLAG_GENERATED",
  "CHAR_FLAG_LINE_END_HYPHEN",
  "CHECK_IDS",
  "CHECK_MEANINGS",
  "CITE_CHECK_LIMITS",
  "CITE_REASONS",
  "CITE_REASON_MEANINGS",
  "CITE_REASON_VERDICT",
  "CITE_VERDICTS",
  "CITE_VERDICT_MEANINGS",
  "CLAIM_VERDICTS",
  "COMPARE_CAVEAT",
  "COMPARE_OUTCOMES",
  "COMPARE_OUTCOME_MEANINGS",
  "CiteproofError",
  "DEFAULT_FLOW_LIMITS",
  "DEFAULT_MAX_PDF_BYTES",
  "FLOW_BLOCK_KINDS",
  "FLOW_KINDS",
  "FLOW_REGIONS",
  "DEFAULT_RENDER_DPI",
  "DEFAULT_REPORT_DPI",
  "DEFAULT_SESSIONS_DIR",
  "DEFAULT_TIMEOUT_MS",
  "DRAFT_FLAGS",
  "DRAFT_FLAG_MEANINGS",
  "ERROR_CODES",
  "EVENT_MEANINGS",
  "EVENT_TYPES",
  "EVIDENCE_KINDS",
  "EVIDENCE_REASON_MEANINGS",
  "ERROR_DETAILS",
  "EXTRACTION_SCHEMA_VERSION",
  "EXTRACTOR_VERSION",
  "FoldedPages",
  "GEOMETRY_LEVELS",
  "JUDGEMENTS",
  "MAX_LOCATED",
  "MAX_QUOTATION_CHARS",
  "MAX_READ_CODE_POINTS",
  "MAX_SPAN_CODE_POINTS",
  "MIN_QUOTATION_CHARS",
  "MIN_QUOTATION_WORDS",
  "NORMALIZATIONS",
  "NOT_VERIFIED",
  "OCR_MODES",
  "OCR_MODE_MEANINGS",
  "OPERATIONS",
  "ORIGINS",
  "ORIGIN_MEANINGS",
  "POOL_LABELS",
  "POOL_LABEL_MEANINGS",
  "PREFLIGHT_CODES",
  "PREFLIGHT_MEANINGS",
  "PROSE_CITATION_KINDS",
  "QUOTE_STATUSES",
  "QUOTE_STATUS_MEANINGS",
  "REASONS",
  "REASON_CHECK",
  "REASON_CODES",
  "REASON_MEANINGS",
  "REJECTION_MEANINGS",
  "REJECTION_REASONS",
  "VERDICTS",
  "VERDICT_MEANINGS",
  "addRevision",
  "addToPool",
  "anchorRegion",
  "anchorsOperation",
  "appendEvent",
  "assembleRun",
  "buildReport",
  "callOperation",
  "checkResultSchema",
  "errorDocument",
  "EVIDENCE_SHAPES",
  "runOperation",
  "REASON_VERDICTS",
  "checkCitations",
  "checkContext",
  "checkContextFromRecord",
  "checkDraft",
  "checkEquation",
  "checkFigure",
  "checkPage",
  "checkQuotation",
  "checkRecord",
  "checkText",
  "checkTextFlow",
  "checkTextOperation",
  "citeCheck",
  "citeCheckOperation",
  "closeExtractionWorker",
  "closeRenderer",
  "compareRevision",
  "createRun",
  "createSession",
  "cropOperation",
  "defaultCacheDir",
  "deviceBoxToUser",
  "deviceToUser",
  "documentAnchors",
  "fetchSource",
  "findAnchors",
  "findCitationForms",
  "findQuotedSpans",
  "findRevision",
  "fold",
  "formatCompare",
  "formatDraftCheck",
  "formatTextCheckReport",
  "isCiteproofError",
  "isUnicodeWhitespace",
  "localSource",
  "locateInFlow",
  "locateOperation",
  "locatePdf",
  "locateWords",
  "openDocument",
  "openForAnchors",
  "openFlow",
  "openForChecks",
  "openRun",
  "openSession",
  "parseAnchorRef",
  "parseCiteCheckRequest",
  "parseEvidenceJson",
  "parseInput",
  "promoteRun",
  "readDraft",
  "readEvents",
  "readPdfFile",
  "readPool",
  "readSourceFile",
  "readSource",
  "registerSource",
  "renderMessage",
  "renderRegion",
  "renderReportHtml",
  "reportOperation",
  "runWithArgs",
  "searchSource",
  "sessionDir",
  "sha256Hex",
  "skeleton",
  "sourceKind",
  "splitSentences",
  "userBoxToDevice",
  "userToDevice",
  "validateEvidence",
  "verifyEvidence",
  "verifyFlow",
  "verifyInSession",
  "verifyOperation",
  "verifyPdf",
  "verifyRun",
  "whitespaceV1",
];

describe("public API", () => {
  it("exports the operations and the values callers need, and nothing else", () => {
    expect(Object.keys(citeproof).sort()).toEqual([...EXPORTED].sort());
  });

  it("keeps internals out: geometry helpers, file writers, caches, one interface's parsers", () => {
    for (const internal of ["clipBox", "writeOutputAtomic", "admitLocalPath", "ExtractionCache", "parseBox"])
      expect(Object.keys(citeproof)).not.toContain(internal);
  });

  it("lists every operation, and the agent tools among them", () => {
    expect(citeproof.OPERATIONS.map((op) => op.name)).toEqual(
      expect.arrayContaining(citeproof.AGENT_OPERATIONS.map((op) => op.name)),
    );
    expect(citeproof.AGENT_OPERATIONS.map((op) => op.name)).toEqual([
      "verify",
      "anchors",
      "locate",
      "crop",
      "check_text",
      "cite_check",
    ]);
  });
});

describe("flow sources through the public API", () => {
  it("reads a Markdown source, opens it as a flow document and verifies records against it", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "citeproof-api-flow-"));
    try {
      const source = await citeproof.readSourceFile(join(repoRoot, "test", "fixtures", "flow", "corpus.md"));
      const kind = citeproof.sourceKind(source);
      expect(kind).toBe("markdown");
      if (kind === "pdf") throw new Error("not a flow kind");
      const doc: citeproof.FlowDocument = await citeproof.openFlow(source, kind, { cacheDir });
      expect(doc.headings.length).toBeGreaterThan(0);
      const report = citeproof.verifyFlow(
        doc,
        [
          { kind: "quotation", text: "hold a large share of the world's farmland", section: "Introduction" },
          { kind: "quotation", text: "hold a large share of the world's zebras", section: "Introduction" },
        ],
        "corpus.md",
      );
      expect(report.results.map((r) => r.verdict)).toEqual(["PASS", "FAIL"]);
      const located = citeproof.locateInFlow(doc, "hold a large share");
      expect(located.occurrences[0]?.section).toBe("1 Introduction");
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
