// The store key: created on first use with mode 0600 where CITEPROOF_KEY_FILE points, refused with
// KEY_UNAVAILABLE when unusable; a run's event line forged or edited without it never counts.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { readEvents } from "../../src/evidence/events.js";
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
