// Runs CLI commands one after another in this process, as `citeproof serve` runs them (the program
// built afresh per call, each with an Io of its own), and prints [{status, stdout}] for each: the
// single commands' own output.
import { readFileSync } from "node:fs";
import { collectingIo } from "../../../dist/cli/cli-io.js";
import { runProgram } from "../../../dist/cli/program.js";

const commands = JSON.parse(readFileSync(process.argv[2], "utf8"));
const answers = [];
for (const args of commands) {
  const run = collectingIo(process.cwd());
  const status = await runProgram([process.argv[0], "citeproof", ...args], run.io);
  answers.push({ status, stdout: run.stdout() });
}
process.stdout.write(JSON.stringify(answers));
