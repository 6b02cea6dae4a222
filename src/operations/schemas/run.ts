/** Inputs of the evidence-run operations: new, assemble, verify, report, promote. */
import { z } from "zod";
import { DEFAULT_MAX_CROPS, RUN_REPORT_FORMATS } from "../../report/run/index.js";
import { inputSchema } from "../operation.js";
import { runDirField } from "./source.js";

export const runNewInput = inputSchema(
  z.strictObject({
    run_dir: z.string().min(1).describe("the new run folder (must not exist, or be empty)"),
    library_root: z
      .string()
      .min(1)
      .optional()
      .describe("folder that user-supplied PDFs live in (default: the working directory)"),
    gate: z.boolean().optional().describe("make the assembler gate block by default in this run"),
  }),
);

export const runAssembleInput = inputSchema(
  z.strictObject({
    run_dir: runDirField,
    gate: z
      .boolean()
      .optional()
      .describe("true: unresolved diagnostics block (a run created with the gate blocks anyway)"),
  }),
);

export const runVerifyInput = inputSchema(z.strictObject({ run_dir: runDirField }));

export const runReportInput = inputSchema(
  z.strictObject({
    run_dir: runDirField,
    format: z.enum(RUN_REPORT_FORMATS).optional().describe("md, html or both (default both)"),
    max_crops: z
      .int()
      .min(0)
      .optional()
      .describe(`most crops drawn in the HTML report (default ${DEFAULT_MAX_CROPS}; 0 for none)`),
  }),
);

export const runPromoteInput = inputSchema(
  z.strictObject({
    run_dir: runDirField,
    to: z
      .string()
      .min(1)
      .optional()
      .describe("write the concept set into <to>/<run_id>/; without it only the preflight runs"),
  }),
);
