import { checkText, draftNeedsAnchors } from "../checks/check-text.js";
import { openForChecks } from "../checks/open-for-checks.js";
import { checkContext } from "../checks/verify.js";
import { CiteproofError } from "../errors.js";
import { readDraft } from "../prose/read-draft.js";
import { optionalString, rejectUnknown, requireString } from "./args.js";
import { type AgentTool, admitPath } from "./tool.js";

/** A draft longer than this is refused: a tool call carries a draft, not a library. */
export const MAX_DRAFT_CHARS = 2_000_000;

export const checkTextTool: AgentTool = {
  name: "check_text",
  title: "Check a draft's citations against a PDF",
  description:
    "Reads the citations written in a draft's prose (p. N, page N, Eq. (L), equation (L), Fig. (L), " +
    'figure (L), any case) and the "double-quoted" words in the same sentence, and checks each against ' +
    "the PDF as verify does; no model is involved. Returns {document, citations:[{verdict, anchor, " +
    "quote, reason, message, line, ...}], unsupported_forms, dropped_quotations, summary, not_verified}. " +
    "Forms such as 'pp. 3-4' or 'Fig. 1' are listed as unsupported, not checked.",
  inputSchema: {
    type: "object",
    properties: {
      pdf: { type: "string", description: "path of the PDF the draft cites, inside the allowed roots" },
      draft: { type: "string", description: "the draft's text", maxLength: MAX_DRAFT_CHARS },
      password: { type: "string", description: "password of an encrypted PDF" },
    },
    required: ["pdf", "draft"],
    additionalProperties: false,
  },
  async run(args, env) {
    rejectUnknown(args, ["pdf", "draft", "password"]);
    const pdf = admitPath(env, requireString(args, "pdf"));
    const draft = requireString(args, "draft");
    if (draft.length > MAX_DRAFT_CHARS) {
      throw new CiteproofError(
        "USAGE",
        `argument "draft" is ${draft.length} characters, over the limit of ${MAX_DRAFT_CHARS}`,
      );
    }
    const options = { ...env.open, password: optionalString(args, "password") };
    const reading = readDraft(draft);
    const doc = await openForChecks(pdf, options, draftNeedsAnchors(reading));
    return { json: await checkText(checkContext(doc, options), reading) };
  },
};
