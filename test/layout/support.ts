// Anchors of the layout fixtures, computed once per test file (no cache: every run decides afresh).
import { type AnchorsRecord, documentAnchors, openForAnchors } from "../../src/layout/anchors.js";
import { fixture } from "../helpers/fixture-files.js";

const records = new Map<string, Promise<AnchorsRecord>>();

export function anchorsOf(name: string): Promise<AnchorsRecord> {
  let record = records.get(name);
  if (!record) {
    record = openForAnchors(fixture(name), { noCache: true }).then((doc) => documentAnchors(doc));
    records.set(name, record);
  }
  return record;
}

export function accepted(record: AnchorsRecord): string[] {
  return record.equations.map((e) => e.label);
}

export function rejectedWith(record: AnchorsRecord, label: string) {
  return record.rejectedEquationCandidates.filter((c) => c.label === label);
}
