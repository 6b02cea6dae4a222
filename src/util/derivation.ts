/**
 * The derivation key of each kind of record kept between runs: the digest of the modules that make it
 * (derivation-graph.ts), read from the manifest the build writes beside the built code; code run from
 * its sources (the tests) computes the same manifest from them once.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildManifest,
  type DerivationManifest,
  type DerivedRecordKind,
  MANIFEST_FILE,
} from "./derivation-graph.js";

/** The code's root: the folder above this module's (dist/ when built, src/ under the tests). */
const CODE_ROOT = fileURLToPath(new URL("..", import.meta.url));

let manifest: DerivationManifest | undefined;

function loaded(): DerivationManifest {
  if (manifest === undefined) {
    const file = join(CODE_ROOT, MANIFEST_FILE);
    manifest = existsSync(file)
      ? (JSON.parse(readFileSync(file, "utf8")) as DerivationManifest)
      : buildManifest(CODE_ROOT);
  }
  return manifest;
}

/** The digest of the code that makes records of this kind (16 hex digits). */
export function derivationKey(kind: DerivedRecordKind): string {
  const digest = loaded().records[kind]?.digest;
  if (typeof digest !== "string")
    throw new Error(`${MANIFEST_FILE} names no ${kind} records; rebuild citeproof`);
  return digest;
}
