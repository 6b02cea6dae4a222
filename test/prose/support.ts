// Shared setup of the prose and session tests: the prose fixture opened once, and whether the
// equation and figure checks are available in this build (their tests run once they are).
import { type CheckContext, checkContext, checkRecord } from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";
import { fixture } from "../helpers/fixture-files.js";

export const ORIGINAL = fixture("prose-example");
export const MOVED = fixture("prose-example-moved");
export const SCAN = fixture("prose-example-scan");

/** The worked example's text, as the reference prints it. */
export const WORKED_EXAMPLE = `The model is defined on p. 1 as "a finite set of nodes". Page 2 sets up the
sampler. On p. 4 the authors write "To test the method, we generate random"
sequences, and Eq. (3) is the key identity. On p. 3 they call it "a finite
set of edges". The authors write "a finite set of nodes" in Fig. 1, as on
pp. 3-4.
`;

export async function openContext(path: string, cacheDir: string): Promise<CheckContext> {
  return checkContext(await openDocument(path, { cacheDir }));
}

/** True when `kind` records are checked (every kind is now; a refusal would throw). */
export async function kindSupported(context: CheckContext, kind: "equation" | "figure"): Promise<boolean> {
  await checkRecord(context, { kind, label: "1" });
  return true;
}
