/**
 * Seals of the run's own files that decisions read: run.json (its library root and gate),
 * outputs/result.json and outputs/verification.json. Each carries `seal`, an HMAC-SHA256 under the
 * per-user store key (util/store-key.ts) over the file's role, the run's id and the canonical JSON of
 * every other field, so a writer of the run folder who cannot read the key cannot edit a field (a
 * gate boolean, a check's status, the library root) or move the file from another run without the
 * seal failing.
 */
import { seal, sealHolds } from "../util/store-key.js";
import { canonicalJson } from "./files.js";

export type SealedRole = "run" | "result" | "verification";

function parts(role: SealedRole, runId: string, value: object): string[] {
  const { seal: _seal, ...rest } = value as Record<string, unknown>;
  return ["citeproof-run-file", role, runId, canonicalJson(rest)];
}

/** The value with its seal as the last field. */
export function withSeal<T extends object>(role: SealedRole, runId: string, value: T): T & { seal: string } {
  return { ...value, seal: seal(parts(role, runId, value)) };
}

/** Whether the value's `seal` field is the seal of the rest of it, for this role and run. */
export function sealedFor(role: SealedRole, runId: string, value: object): boolean {
  return sealHolds((value as { seal?: unknown }).seal, parts(role, runId, value));
}
