// Child process for the crash-safety trials: promotes a run, announcing when it starts.
import { promoteRun } from "../../../dist/evidence/promote.js";

const [runDir, knowledge] = process.argv.slice(2);
process.stdout.write("start\n");
const started = performance.now();
const report = await promoteRun(runDir, { to: knowledge });
process.stdout.write(`done ${report.ok} ${Math.round(performance.now() - started)}\n`);
