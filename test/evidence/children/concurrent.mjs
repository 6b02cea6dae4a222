// Child process for the concurrency test: registers snapshots and logs events at the same time as
// its siblings. Some identities are shared by every process, some are its own.
import { appendEvent } from "../../../dist/evidence/events.js";
import { openRun } from "../../../dist/evidence/run.js";
import { registerSource } from "../../../dist/evidence/sources.js";

const [runDir, name, startAt, sharedCount, ownCount, readCount] = process.argv.slice(2);
const run = openRun(runDir);
while (Date.now() < Number(startAt)) {
  // Wait for the common start so the processes overlap.
}
const registered = [];
for (let i = 0; i < Number(sharedCount); i++) {
  registered.push(
    registerSource(run, {
      url: `https://example.org/shared/${i}`,
      text: `shared text ${i} 𝑥 ${"words ".repeat(2000)}`,
      actor: name,
    }).source_id,
  );
}
for (let i = 0; i < Number(ownCount); i++) {
  registered.push(
    registerSource(run, {
      url: `https://example.org/${name}/${i}`,
      text: `own text ${name} ${i} ${"more ".repeat(500)}`,
      actor: name,
    }).source_id,
  );
}
for (let i = 0; i < Number(readCount); i++) {
  appendEvent(run, {
    type: "read",
    sourceId: registered[i % registered.length],
    fresh: false,
    sha256: "0".repeat(64),
    actor: name,
    start: i,
    end: i + 1,
    detail: `${name} read ${i} ${"x".repeat(i % 300)}`,
  });
}
process.stdout.write("done\n");
