/**
 * Crash safety and concurrency, with real processes (they run the built code in dist/):
 * - a promotion killed with SIGKILL at random points never leaves a partial concept set;
 * - a registration killed mid-write never leaves a snapshot file that fails its hash;
 * - four processes registering and logging at once lose and tear nothing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assembleRun } from "../../src/evidence/assemble.js";
import { readEvents } from "../../src/evidence/events.js";
import { promoteRun } from "../../src/evidence/promote.js";
import { createRun, type RunInfo } from "../../src/evidence/run.js";
import { SnapshotStore } from "../../src/evidence/snapshot.js";
import { fetchSource, registerSource } from "../../src/evidence/sources.js";
import { verifyRun } from "../../src/evidence/verify.js";
import { cleanTempDirs, REPO, readJson, startServer, tempDir, writeRecords } from "./helpers.js";

const CHILDREN = join(REPO, "test", "evidence", "children");
const TRIALS = 50;
const CONCEPTS = 150;

beforeAll(() => {
  if (!existsSync(join(REPO, "dist", "evidence", "promote.js"))) {
    throw new Error("these tests run the built code: run `npx tsc -p .` (or `npm test`) first");
  }
});
afterAll(() => cleanTempDirs());

/** A small seeded generator, so a failing trial can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function spawnChild(
  script: string,
  args: string[],
): { child: ChildProcess; lines: string[]; started: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [join(CHILDREN, script), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let stderr = "";
  let resolveStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => (resolveStarted = resolve));
  child.stdout!.setEncoding("utf8").on("data", (data: string) => {
    for (const line of data.split("\n").filter(Boolean)) {
      lines.push(line);
      if (line === "start") resolveStarted();
    }
  });
  child.stderr!.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      resolveStarted();
      if (code !== 0 && code !== null) lines.push(`stderr: ${stderr}`);
      resolve(code);
    }),
  );
  return { child, lines, started, exited };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

describe("promotion killed at random points", () => {
  let run: RunInfo;

  beforeAll(async () => {
    const text = Array.from(
      { length: CONCEPTS },
      (_, i) => `Finding ${i}: the measured effect was ${i}.${i} units.`,
    ).join("\n");
    const server = await startServer({
      "/findings.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        res.end(text);
      },
    });
    try {
      run = createRun(join(tempDir(), "run"));
      const receipt = await fetchSource(run, `${server.base}/findings.txt`);
      const cps = [...text];
      const claims = Array.from({ length: CONCEPTS }, (_, i) => {
        const sentence = `Finding ${i}: the measured effect was ${i}.${i} units.`;
        const start = [...text.slice(0, text.indexOf(sentence))].length;
        expect(cps.slice(start, start + sentence.length).join("")).toBe(sentence);
        return {
          id: `finding-${i}`,
          text: `Effect ${i} is ${i}.${i} units.`,
          spans: [
            {
              claim: `effect ${i}`,
              evidence_id: "web:findings",
              source_id: receipt.source_id,
              start,
              end: start + sentence.length,
              access: "web",
            },
          ],
        };
      });
      writeRecords(run, { claims });
      const { result } = await assembleRun(run);
      expect(result.accepted).toHaveLength(CONCEPTS);
      // Promotion reads a fresh, passing verification.json.
      expect((await verifyRun(run)).report.verdict).toBe("pass");
    } finally {
      await server.close();
    }
  });

  /** The concept set in `knowledge`: absent, or complete and intact. Returns which. */
  function inspect(knowledge: string): "none" | "complete" {
    const visible = existsSync(knowledge) ? readdirSync(knowledge).filter((n) => !n.startsWith(".")) : [];
    if (visible.length === 0) return "none";
    expect(visible).toEqual([run.runId]);
    const dir = join(knowledge, run.runId);
    const manifest = readJson<{ concepts: { file: string; sha256: string }[] }>(join(dir, "manifest.json"));
    expect(manifest.concepts).toHaveLength(CONCEPTS);
    for (const concept of manifest.concepts)
      expect(sha(readFileSync(join(dir, concept.file)))).toBe(concept.sha256);
    expect(readdirSync(dir).sort()).toEqual(
      [...manifest.concepts.map((c) => c.file), "manifest.json"].sort(),
    );
    return "complete";
  }

  it(`leaves the whole concept set or none of it (${TRIALS} seeded trials)`, async () => {
    const resultBefore = readFileSync(join(run.dir, "outputs", "result.json"));
    // Calibrate: how long a promotion takes once the child has started.
    const calibration = spawnChild("promote.mjs", [run.dir, join(tempDir(), "k")]);
    await calibration.exited;
    const done = calibration.lines.find((l) => l.startsWith("done true"));
    expect(done, calibration.lines.join("\n")).toBeDefined();
    const duration = Number(done!.split(" ")[2]);

    const random = mulberry32(20260908);
    const outcomes = { none: 0, complete: 0 };
    let midWrite = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const knowledge = join(tempDir(), `k${trial}`);
      const child = spawnChild("promote.mjs", [run.dir, knowledge]);
      await child.started;
      await sleep(random() * duration * 2.5);
      child.child.kill("SIGKILL");
      await child.exited;
      outcomes[inspect(knowledge)]++;
      if (existsSync(knowledge) && readdirSync(knowledge).some((n) => n.startsWith(".staging-"))) midWrite++;
    }
    console.log(
      `promotion trials: ${JSON.stringify(outcomes)}, ${midWrite} killed mid-write, duration ${duration} ms`,
    );
    // The kills fell both before and after the commit point.
    expect(outcomes.none).toBeGreaterThan(0);
    expect(outcomes.none + outcomes.complete).toBe(TRIALS);
    // The run's own outputs are untouched, and a later promotion clears what killed ones left.
    expect(readFileSync(join(run.dir, "outputs", "result.json"))).toEqual(resultBefore);
    const knowledge = join(tempDir(), "again");
    const child = spawnChild("promote.mjs", [run.dir, knowledge]);
    await child.started;
    await sleep(duration / 2);
    child.child.kill("SIGKILL");
    await child.exited;
    const before = inspect(knowledge);
    const report = await promoteRun(run, { to: knowledge });
    if (before === "complete") expect(report.failures.map((f) => f.code)).toEqual(["TARGET_EXISTS"]);
    else {
      expect(report.ok).toBe(true);
      expect(readdirSync(knowledge)).toEqual([run.runId]);
    }
    expect(inspect(knowledge)).toBe("complete");
  }, 300_000);
});

describe("registration killed mid-write", () => {
  it("never leaves a snapshot file that fails its hash (50 seeded trials)", async () => {
    const run = createRun(join(tempDir(), "run"));
    const random = mulberry32(7);
    let midWrite = 0;
    for (let trial = 0; trial < 50; trial++) {
      const child = spawnChild("register.mjs", [run.dir, `t${trial}`]);
      await child.started;
      await sleep(20 + random() * 600);
      child.child.kill("SIGKILL");
      await child.exited;
      if (readdirSync(join(run.dir, "sources")).some((n) => n.startsWith(".tmp-"))) midWrite++;
    }
    const store = new SnapshotStore(run);
    const ids = store.list();
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(store.load(id).ok, id).toBe(true);
    // Every event that names a snapshot names a stored, intact one.
    const log = readEvents(run);
    for (const event of log.events) expect(ids).toContain(event.source_id);
    expect(log.events.length).toBeGreaterThanOrEqual(ids.length - 50);
    // Temporary files of killed writers are hidden from readers and cleared by the next registration.
    console.log(`registration trials: ${ids.length} snapshots stored, ${midWrite} killed mid-write`);
    registerSource(run, { url: "https://example.org/after", text: "after the trials", access: "web" });
    expect(readdirSync(join(run.dir, "sources")).filter((n) => n.startsWith("."))).toEqual([]);
  }, 300_000);
});

describe("concurrency", () => {
  it("four processes registering and logging at once: no torn or lost lines, one snapshot per identity", async () => {
    const run = createRun(join(tempDir(), "run"));
    const names = ["p0", "p1", "p2", "p3"];
    const shared = 10;
    const own = 15;
    const reads = 1000;
    const startAt = String(Date.now() + 1500);
    const children = names.map((name) =>
      spawnChild("concurrent.mjs", [run.dir, name, startAt, String(shared), String(own), String(reads)]),
    );
    const codes = await Promise.all(children.map((c) => c.exited));
    expect(codes, children.map((c) => c.lines.join("\n")).join("\n")).toEqual([0, 0, 0, 0]);

    const log = readEvents(run);
    expect(log.invalid).toEqual([]);
    const raw = readFileSync(join(run.dir, "events.jsonl"), "utf8");
    expect(raw.endsWith("\n")).toBe(true);
    expect(raw.split("\n").filter(Boolean)).toHaveLength(names.length * (shared + own + reads));
    expect(new Set(log.events.map((e) => e.event_id)).size).toBe(log.events.length);
    for (const name of names) {
      const mine = log.events.filter((e) => e.actor === name);
      expect(mine.filter((e) => e.type === "register")).toHaveLength(shared + own);
      const readStarts = mine.filter((e) => e.type === "read").map((e) => e.start);
      expect(readStarts).toEqual(Array.from({ length: reads }, (_, i) => i));
    }
    const files = readdirSync(join(run.dir, "sources"));
    expect(files.filter((f) => f.startsWith("."))).toEqual([]);
    const store = new SnapshotStore(run);
    const ids = store.list();
    expect(ids).toHaveLength(shared + names.length * own);
    for (const id of ids) expect(store.load(id).ok).toBe(true);
  }, 300_000);
});
