// The store key: created on first use with mode 0600 where CITEPROOF_KEY_FILE points, refused with
// KEY_UNAVAILABLE when unusable; a run's event line forged or edited without it never counts.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { appendEvent, readEvents } from "../../src/evidence/events.js";
import { createRun } from "../../src/evidence/run.js";
import { registerSource } from "../../src/evidence/sources.js";
import { KEY_FILE_ENV, seal, sealHolds, storeKey } from "../../src/util/store-key.js";
import { tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
const saved = process.env[KEY_FILE_ENV];
afterEach(() => {
  process.env[KEY_FILE_ENV] = saved;
});
afterAll(() => tmp.remove());

describe("the store key", () => {
  it("is created on first use, 32 bytes, mode 0600, and kept", () => {
    const path = join(tmp.dir, "config", "citeproof", "key");
    process.env[KEY_FILE_ENV] = path;
    const key = storeKey();
    expect(key.length).toBe(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8").trim()).toBe(key.toString("hex"));
    expect(sealHolds(seal(["a", "b"]), ["a", "b"])).toBe(true);
    expect(sealHolds(seal(["a", "b"]), ["ab"])).toBe(false);
  });

  it("a key file that holds no key, or is a folder: KEY_UNAVAILABLE", () => {
    const bad = join(tmp.dir, "bad-key");
    writeFileSync(bad, "not a key\n");
    process.env[KEY_FILE_ENV] = bad;
    expect(() => storeKey()).toThrow(expect.objectContaining({ code: "KEY_UNAVAILABLE" }));
    const folder = join(tmp.dir, "key-folder");
    mkdirSync(folder);
    process.env[KEY_FILE_ENV] = folder;
    expect(() => storeKey()).toThrow(expect.objectContaining({ code: "KEY_UNAVAILABLE" }));
  });
});

describe("sealed run events", () => {
  it("a fetch line made up for a registered source, or a line edited to fresh, is invalid and never counts", () => {
    const run = createRun(join(tmp.dir, "run"), { libraryRoot: tmp.dir });
    const receipt = registerSource(run, { url: "https://example.org/a", text: "registered words" });
    const events = join(tmp.dir, "run", "events.jsonl");
    const forged = { ...receipt.event, event_id: "ev-forged", type: "fetch", fresh: true };
    writeFileSync(events, `${readFileSync(events, "utf8")}${JSON.stringify(forged)}\n`);
    let log = readEvents(run);
    expect(log.events.map((e) => e.event_id)).toEqual([receipt.event.event_id]);
    expect(log.invalid).toEqual([{ line: 2, reason: expect.stringContaining("carries no seal") }]);
    writeFileSync(events, readFileSync(events, "utf8").replace('"fresh":false', '"fresh":true'));
    log = readEvents(run);
    expect(log.events).toEqual([]);
    expect(log.invalid[0].reason).toMatch(/fails its seal/);
  });
});

describe("chained run events", () => {
  const logOf = (name: string) => {
    const run = createRun(join(tmp.dir, name), { libraryRoot: tmp.dir });
    for (let i = 0; i < 4; i++)
      appendEvent(run, { type: "register", sourceId: `s${i}`, fresh: false, sha256: "0" });
    const path = join(tmp.dir, name, "events.jsonl");
    const lines = readFileSync(path, "utf8").trim().split("\n");
    return { run, path, lines };
  };
  const corrupt = (line: number) => expect.objectContaining({ code: "RUN_CORRUPT", details: { line } });

  it("each line names the seal of the one before, the first the run", () => {
    const { run, lines } = logOf("chain");
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed[0].prev).toBe(`run:${run.runId}`);
    for (let i = 1; i < parsed.length; i++) expect(parsed[i].prev).toBe(parsed[i - 1].seal);
    expect(readEvents(run).events.map((e) => e.source_id)).toEqual(["s0", "s1", "s2", "s3"]);
  });

  it("a line removed, two lines swapped, or a line edited: RUN_CORRUPT naming the line that no longer follows", () => {
    const { run, path, lines } = logOf("tamper");
    writeFileSync(path, `${[lines[0], lines[2], lines[3]].join("\n")}\n`);
    expect(() => readEvents(run)).toThrow(corrupt(2));
    writeFileSync(path, `${[lines[0], lines[2], lines[1], lines[3]].join("\n")}\n`);
    expect(() => readEvents(run)).toThrow(corrupt(2));
    writeFileSync(path, `${[lines[1], lines[2], lines[3]].join("\n")}\n`);
    expect(() => readEvents(run)).toThrow(corrupt(1));
    const edited = lines[1].replace('"s1"', '"s9"');
    writeFileSync(path, `${[lines[0], edited, lines[2], lines[3]].join("\n")}\n`);
    expect(() => readEvents(run)).toThrow(corrupt(3));
  });

  it("a line re-sealed with the key but without its link (an unchained log) is refused", () => {
    const { run, path, lines } = logOf("unchained");
    const { seal: _s, prev: _p, ...event } = JSON.parse(lines[0]);
    const line = JSON.stringify(event);
    writeFileSync(path, `${line.slice(0, -1)},"seal":"${seal(["citeproof-run-event", line])}"}\n`);
    expect(() => readEvents(run)).toThrow(
      expect.objectContaining({
        code: "RUN_CORRUPT",
        message: expect.stringMatching(/before event lines were chained/),
      }),
    );
  });

  it("a forged or torn last line is skipped by the next writer, and two writers naming the same line both count", () => {
    const { run, path, lines } = logOf("fork");
    const forged = { ...JSON.parse(lines[3]), event_id: "ev-forged", seal: "0".repeat(64) };
    writeFileSync(path, `${lines.join("\n")}\n${JSON.stringify(forged)}\n{"schema_version":1,"ty`);
    appendEvent(run, { type: "register", sourceId: "s4", fresh: false, sha256: "0" });
    const log = readEvents(run);
    expect(log.events.map((e) => e.source_id)).toEqual(["s0", "s1", "s2", "s3", "s4"]);
    expect(log.invalid.map((i) => i.line)).toEqual([5, 6]);
    // A second line naming line 4 (what a writer racing the one that wrote s4 leaves).
    const again = readFileSync(path, "utf8").trim().split("\n").pop() as string;
    const sibling = JSON.parse(again);
    const { seal: _s, ...rest } = { ...sibling, event_id: "ev-sibling" };
    const body = JSON.stringify(rest);
    writeFileSync(
      path,
      `${readFileSync(path, "utf8")}${body.slice(0, -1)},"seal":"${seal(["citeproof-run-event", body])}"}\n`,
    );
    expect(readEvents(run).events).toHaveLength(6);
  });
});
