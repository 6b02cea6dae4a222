import { verifyPdf } from "../checks/cited-pages-first.js";
import { validateEvidence } from "../checks/evidence-record.js";
import { optionalString, rejectUnknown, requireArray, requireString } from "./args.js";
import { type AgentTool, admitPath } from "./tool.js";

const EVIDENCE_RECORD = {
  type: "object",
  description:
    'One evidence record: {"kind":"quotation","page":3,"text":"..."}, {"kind":"page","page":2}, ' +
    '{"kind":"equation","label":"2.1"} or {"kind":"figure","label":"3"}; optional "id". Pages are ' +
    "physical (the first page is 1); labels are bare (no parentheses, no 'Figure').",
  properties: {
    id: { type: "string", description: "your identifier, echoed in the result" },
    kind: { type: "string", enum: ["quotation", "page", "equation", "figure"] },
    page: { type: "integer", minimum: 1 },
    text: { type: "string", description: "the quoted words (kind quotation)" },
    label: { type: "string", description: "the bare label (kinds equation and figure)" },
  },
  required: ["kind"],
};

export const verifyTool: AgentTool = {
  name: "verify",
  title: "Verify evidence against a PDF",
  description:
    "Checks evidence records (quoted words on a page, a page, an equation label, a figure label) " +
    "against a PDF, mechanically. Returns {document:{sha256,pages}, results:[{id,kind,verdict,reason," +
    "message,evidence}]} in input order; verdict PASS (the words are on that page / the label is printed " +
    "as claimed), FLAG (the page exists, wording unchecked), FAIL (not there; evidence says what was " +
    "seen instead) or UNANCHORED (no page named, nothing checked).",
  inputSchema: {
    type: "object",
    properties: {
      pdf: { type: "string", description: "path of the PDF, inside the server's allowed roots" },
      evidence: { type: "array", items: EVIDENCE_RECORD, description: "the evidence records to check" },
      password: { type: "string", description: "password of an encrypted PDF" },
    },
    required: ["pdf", "evidence"],
    additionalProperties: false,
  },
  async run(args, env) {
    rejectUnknown(args, ["pdf", "evidence", "password"]);
    const pdf = admitPath(env, requireString(args, "pdf"));
    const records = validateEvidence(requireArray(args, "evidence"), 'argument "evidence"');
    const options = { ...env.open, password: optionalString(args, "password") };
    return { json: await verifyPdf(pdf, records, options) };
  },
};
