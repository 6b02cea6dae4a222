// Child process for the crash-safety trials: registers large snapshots until killed.
import { registerSource } from "../../../dist/evidence/sources.js";

const [runDir, seed] = process.argv.slice(2);
const block = "The quick brown fox 𝑥 jumps over the lazy dog 😀. ".repeat(60_000);
process.stdout.write("start\n");
for (let i = 0; ; i++) {
  registerSource(runDir, {
    url: `https://example.org/${seed}/${i}`,
    text: `${seed}-${i}\n${block}`,
    access: "web",
  });
}
