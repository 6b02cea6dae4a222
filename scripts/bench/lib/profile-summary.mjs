// Summarises a V8 .cpuprofile (from node --cpu-prof; a worker thread writes its own file): self and
// total time per function, and time per wasm entry point (the exported engine function JavaScript
// called, with its caller). wasm functions are named from the engine's export table where exported.
// A tool for finding where the time goes, not part of the figures.
// Usage: node profile-summary.mjs <file.cpuprofile> [top=25]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { root } from "./paths.mjs";

/** Function index -> export name, from the export section of the engine's wasm binary. */
function wasmExportNames() {
  const names = new Map();
  let buf;
  try {
    buf = readFileSync(createRequire(join(root, "package.json")).resolve("@embedpdf/pdfium/pdfium.wasm"));
  } catch {
    return names;
  }
  let p = 8;
  const leb = () => {
    let r = 0;
    let shift = 0;
    let b;
    do {
      b = buf[p++];
      r |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    return r >>> 0;
  };
  while (p < buf.length) {
    const id = buf[p++];
    const size = leb();
    const end = p + size;
    if (id === 7) {
      const count = leb();
      for (let i = 0; i < count; i++) {
        const length = leb();
        const name = buf.subarray(p, p + length).toString();
        p += length;
        const kind = buf[p++];
        const index = leb();
        if (kind === 0) names.set(index, name);
      }
    }
    p = end;
  }
  return names;
}

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const exportsByIndex = wasmExportNames();
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const isWasm = (n) => /^wasm-function\[\d+\]$/.test(n.callFrame.functionName);
const label = (n) => {
  const f = n.callFrame;
  const wasm = /^wasm-function\[(\d+)\]$/.exec(f.functionName);
  if (wasm) return `wasm ${exportsByIndex.get(Number(wasm[1])) ?? f.functionName}`;
  const where = f.url ? ` ${basename(f.url)}:${f.lineNumber + 1}` : "";
  return `${f.functionName || "(anonymous)"}${where}`;
};

const selfUs = new Map();
const { samples, timeDeltas } = profile;
for (let i = 0; i < samples.length; i++) {
  const dt = timeDeltas[i + 1] ?? 0;
  selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + dt);
}
const self = new Map();
const total = new Map();
const entries = new Map();
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
let all = 0;
for (const [id, us] of selfUs) {
  all += us;
  add(self, label(byId.get(id)), us);
  const seen = new Set();
  let entry;
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur);
    const l = label(n);
    if (!seen.has(l)) {
      seen.add(l);
      add(total, l, us);
    }
    // The wasm frame just under the JS -> wasm boundary is the entry point JavaScript called.
    if (isWasm(n)) {
      const up = byId.get(parent.get(cur));
      if (up && !isWasm(up)) {
        let caller = up;
        while (caller && /^js-to-wasm/.test(caller.callFrame.functionName))
          caller = byId.get(parent.get(caller));
        entry = `${l} <- ${caller ? label(caller) : "?"}`;
      }
    }
  }
  if (entry) add(entries, entry, us);
}
const show = (title, map) => {
  console.log(`${title} (of ${(all / 1e6).toFixed(2)} s sampled)`);
  for (const [l, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `  ${(us / 1e6).toFixed(3).padStart(7)} s ${((100 * us) / all).toFixed(1).padStart(5)}%  ${l}`,
    );
};
show("self", self);
show("total", total);
show("wasm entry points, inclusive", entries);
