// Child of the evidence bench: assembles a run in a fresh process and reports the call's time and
// how many snapshot files were read and hashed.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [distDir, runDir] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(distDir, p)).href);
const { evidenceContext } = await load("evidence/context.js");
const { assemble, resultPath } = await load("evidence/assemble.js");
const { writeFileAtomic } = await load("evidence/files.js");

const started = performance.now();
const ctx = evidenceContext(runDir);
const result = await assemble(ctx);
writeFileAtomic(resultPath(ctx.run), `${JSON.stringify(result, null, 2)}\n`);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify({ seconds, snapshotReads: ctx.store.reads, spans: result.summary.spans, accepted: result.summary.accepted, unresolved: result.summary.unresolved, sources: result.summary.sources })}\n`,
);
