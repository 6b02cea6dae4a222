/** Inputs of the evidence-run source operations: fetch, local, register, read, spans. */
import { z } from "zod";
import { ACCESS_LEVELS, MAX_READ_CODE_POINTS, ORIGINS } from "../../evidence/reasons.js";
import { inputSchema } from "../operation.js";
import { passwordField } from "./fields.js";

export const runDirField = z.string().min(1).describe("the run folder");
const actorField = z.string().optional().describe("who acts, for the event log (default main)");

/** What a registered snapshot says about itself; each is checked in its own form by the source layer. */
const metaFields = {
  access: z.enum(ACCESS_LEVELS).optional().describe("what the text can support"),
  origin: z
    .enum(ORIGINS)
    .optional()
    .describe("where it came from (user-supplied-pdf and user-supplied-file are for source_local only)"),
  evidence_id: z
    .string()
    .optional()
    .describe("the evidence this snapshot is registered for (pmid:..., doi:..., web:...)"),
  pmid: z.string().optional().describe("the paper's PMID"),
  doi: z.string().optional().describe("the paper's DOI"),
  pmcid: z.string().optional().describe("the paper's PMCID"),
  title: z.string().optional().describe("a title for the source"),
  actor: actorField,
};

export const sourceFetchInput = inputSchema(
  z.strictObject({
    run_dir: runDirField,
    url: z.string().min(1).describe("http or https URL to retrieve"),
    max_bytes: z.int().min(1).optional().describe("largest body accepted, in bytes (default 64 MiB)"),
    timeout_ms: z
      .int()
      .min(1)
      .optional()
      .describe("deadline for the whole retrieval and PDF extraction (default 30000)"),
    max_redirects: z.int().min(0).optional().describe("redirects followed (default 5)"),
    ...metaFields,
  }),
);

export const sourceLocalInput = inputSchema(
  z.strictObject({
    run_dir: runDirField,
    file: z
      .string()
      .min(1)
      .describe("the file (a PDF or a flow source, kind told by content), inside the run's library root"),
    password: passwordField,
    ...metaFields,
  }),
);

export const sourceRegisterInput = inputSchema(
  z.strictObject({
    run_dir: runDirField,
    url: z.string().min(1).describe("where the text came from (part of the snapshot's identity)"),
    text: z.string().describe("the text to register, exactly as it is"),
    media_type: z.string().optional().describe("media type of the text (default text/plain)"),
    ...metaFields,
  }),
);

export const sourceReadInput = inputSchema(
  z.strictObject({
    run_dir: runDirField,
    source_id: z.string().min(1).describe("the snapshot to read"),
    start: z.int().min(0).optional().describe("first code point (default 0)"),
    end: z
      .int()
      .min(0)
      .optional()
      .describe(
        `code point after the last one read (default start + 4000; at most ${MAX_READ_CODE_POINTS} read)`,
      ),
    actor: actorField,
  }),
);

export const sourceSpansInput = inputSchema(
  z.strictObject({
    run_dir: runDirField,
    source_id: z.string().min(1).describe("the snapshot to search"),
    query: z.string().describe("words to look for"),
    context: z.int().min(0).optional().describe("code points shown on each side of a hit (default 250)"),
    max_hits: z.int().min(1).optional().describe("most hits listed (default 8)"),
    actor: actorField,
  }),
);
