/**
 * Concept files: one Markdown file per accepted claim, whose evidence footnotes quote the excerpt
 * re-sliced from the snapshot (never a typed quote), and a manifest.json that lists every file with
 * its sha256 and every excerpt exactly, for machines.
 */
import { createHash } from "node:crypto";
import type { AcceptedSpan } from "./assemble.js";

export interface ConceptEvidence {
  source_id: string;
  evidence_id: string;
  start: number;
  end: number;
  access: string;
  excerpt: string;
  url: string;
  title: string | null;
  section: string | null;
  page: number | null;
}

export interface Concept {
  id: string;
  text: string;
  file: string;
  evidence: ConceptEvidence[];
}

export interface ConceptManifest {
  schema_version: number;
  run_id: string;
  result_sha256: string;
  promoted_at: string;
  concepts: (Concept & { sha256: string })[];
}

export function conceptFromAccepted(id: string, text: string, spans: AcceptedSpan[]): Concept {
  return {
    id,
    text,
    file: `${id}.md`,
    evidence: spans.map((s) => ({
      source_id: s.source_id,
      evidence_id: s.evidence_id,
      start: s.start,
      end: s.end,
      access: s.access,
      excerpt: s.excerpt,
      url: s.url,
      title: s.title,
      section: s.section,
      page: s.page,
    })),
  };
}

export function renderConcept(concept: Concept, runId: string, resultSha256: string): string {
  const sources = [...new Set(concept.evidence.map((e) => e.source_id))];
  const lines = [
    "---",
    `concept: ${JSON.stringify(concept.id)}`,
    `run_id: ${JSON.stringify(runId)}`,
    `result_sha256: ${JSON.stringify(resultSha256)}`,
    "sources:",
    ...sources.map((s) => `  - ${JSON.stringify(s)}`),
    "---",
    "",
    `# ${oneLine(concept.text)}`,
    "",
    `${oneLine(concept.text)}${concept.evidence.map((_, i) => `[^${i + 1}]`).join("")}`,
    "",
  ];
  concept.evidence.forEach((e, i) => {
    const where = [
      e.title ? oneLine(e.title) : null,
      e.url,
      `${e.evidence_id}`,
      `${e.source_id} [${e.start}, ${e.end})`,
      e.section ? `section ${oneLine(e.section)}` : null,
      e.page !== null ? `page ${e.page}` : null,
      `access ${e.access}`,
    ].filter((x) => x !== null);
    const quoted = e.excerpt.split("\n").join("\n    ");
    lines.push(`[^${i + 1}]: "${quoted}"`);
    lines.push(`    (${where.join("; ")})`);
  });
  return `${lines.join("\n")}\n`;
}

export function sha256Text(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
