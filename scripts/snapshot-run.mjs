// What the snapshot scripts share (anchors-snapshot.mjs, ocr-anchors-snapshot.mjs): the PDFs of the
// shared corpus and the test fixtures (and any directory given), one record per PDF made by the
// script's own function, written to a file or compared with one (exit 1 when any PDF's differs).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(new URL("..", import.meta.url)));

function pdfsUnder(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...pdfsUnder(path));
    else if (name.endsWith(".pdf")) out.push(path);
  }
  return out;
}

/** Runs `recordOf(pdf)` over the PDFs as the command line says: `OUT.json [DIR...]` or `--compare FILE [DIR...]`. */
export async function runSnapshot(script, recordOf) {
  const args = process.argv.slice(2);
  const compare = args[0] === "--compare";
  const file = compare ? args[1] : args[0];
  if (!file) {
    console.error(`usage: ${script} OUT.json [DIR...] | --compare SNAPSHOT.json [DIR...]`);
    process.exit(2);
  }
  const dirs = [
    join(root, "..", "shared", "corpus"),
    join(root, "test", "fixtures"),
    ...args.slice(compare ? 2 : 1),
  ];
  const snapshot = {};
  for (const dir of dirs)
    for (const pdf of pdfsUnder(dir)) {
      const name = relative(join(root, ".."), pdf);
      try {
        snapshot[name] = await recordOf(pdf);
      } catch (e) {
        snapshot[name] = { error: e?.code ?? String(e?.message ?? e) };
      }
    }
  if (!compare) {
    writeFileSync(file, `${JSON.stringify(snapshot, null, 1)}\n`);
    console.log(`${Object.keys(snapshot).length} PDFs recorded to ${file}`);
    return;
  }
  const before = JSON.parse(readFileSync(file, "utf8"));
  let differ = 0;
  for (const name of new Set([...Object.keys(before), ...Object.keys(snapshot)])) {
    if (JSON.stringify(before[name]) === JSON.stringify(snapshot[name])) continue;
    differ++;
    console.log(`differs: ${name}`);
  }
  console.log(`${Object.keys(snapshot).length} PDFs, ${differ} differ`);
  process.exit(differ > 0 ? 1 : 0);
}
