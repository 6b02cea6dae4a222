// Child of the evidence bench: renders the run report (report.md and report.html, no crops) of a run whose
// result.json is assembled, verifying it first when verification.json is not of that result. Reports the
// rendering call's time and the sizes written.
import { statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [distDir, runDir, verifyFirst] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(distDir, p)).href);
if (verifyFirst === "verify") {
  const { verifyRun } = await load("evidence/verify.js");
  await verifyRun(runDir);
}
const { writeRunReport } = await load("report/run/index.js");
const started = performance.now();
const written = await writeRunReport(runDir, { maxCrops: 0 });
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify({ seconds, accepted: written.accepted, mdBytes: statSync(written.report_md).size, htmlBytes: statSync(written.report_html).size })}\n`,
);
