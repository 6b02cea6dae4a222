import { documentAnchors, openForAnchors } from "../layout/anchors.js";
import { optionalString, rejectUnknown, requireString } from "./args.js";
import { type AgentTool, admitPath } from "./tool.js";

export const anchorsTool: AgentTool = {
  name: "anchors",
  title: "List equation labels and figure captions in a PDF",
  description:
    "Lists every equation label printed beside a displayed equation and every figure caption found in " +
    "a PDF (label, page, box of the label and of the equation or caption, in PDF points, bottom-left " +
    "origin), and every rejected equation-label candidate with its reasons, so you can see why a label " +
    "would not pass verify. Returns the document `citeproof anchors --json` prints.",
  inputSchema: {
    type: "object",
    properties: {
      pdf: { type: "string", description: "path of the PDF, inside the allowed roots" },
      password: { type: "string", description: "password of an encrypted PDF" },
    },
    required: ["pdf"],
    additionalProperties: false,
  },
  async run(args, env) {
    rejectUnknown(args, ["pdf", "password"]);
    const pdf = admitPath(env, requireString(args, "pdf"));
    const options = { ...env.open, password: optionalString(args, "password") };
    const doc = await openForAnchors(pdf, options);
    const record = await documentAnchors(doc, options);
    return { json: { document: { sha256: doc.sha256, pages: doc.pageCount }, ...record } };
  },
};
