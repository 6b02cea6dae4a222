// Runs CLI commands one after another in this process, as `citeproof serve` runs them (the program
// built afresh per call), and prints [{status, stdout}] for each: the single commands' own output.
import { readFileSync } from "node:fs";
import { runProgram } from "../../../dist/cli/program.js";

const commands = JSON.parse(readFileSync(process.argv[2], "utf8"));
const write = process.stdout.write.bind(process.stdout);
const answers = [];
for (const args of commands) {
  let out = "";
  process.exitCode = undefined;
  process.stdout.write = (chunk) => {
    out += String(chunk);
    return true;
  };
  try {
    await runProgram([process.argv[0], "citeproof", ...args]);
  } finally {
    process.stdout.write = write;
  }
  answers.push({ status: process.exitCode ?? 0, stdout: out });
}
process.exitCode = 0;
write(JSON.stringify(answers));
