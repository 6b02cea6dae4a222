// Many processes waiting on a stale session lock at once: exactly one at a time is inside, and no
// entry is lost. A lock that is not a lock file (a folder, a dangling symlink) is refused at once.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runLockTrials } from "../../scripts/attack/lock-trials.mjs";
import { LOCK_FILE, withSessionLock } from "../../src/session/lock.js";
import { tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
afterAll(() => tmp.remove());

describe("a stale lock broken by many waiters", () => {
  // Judged on what happened (entries, the shared count, who was inside), not on how long it took: a
  // waiter waits for the lock as long as the test may run, and a loaded machine only makes it slower.
  it("loses no entry and never lets two waiters in at once (8 waiters, 25 trials)", async () => {
    const result = await runLockTrials({ trials: 25, waiters: 8, hangMs: 240_000 });
    expect(result).toEqual({ trials: 25, entries: 200, lost: 0, overlaps: 0, errors: 0, hangs: 0 });
  }, 300_000);
});

describe("a lock that is not a lock file", () => {
  it("a folder named .lock: SESSION_LOCKED at once, naming it", async () => {
    const dir = join(tmp.dir, "folder-lock");
    mkdirSync(join(dir, LOCK_FILE), { recursive: true });
    await expect(withSessionLock(dir, () => "entered", 60_000)).rejects.toMatchObject({
      code: "SESSION_LOCKED",
      message: expect.stringContaining("is a folder, not a lock file"),
    });
  });

  it("a dangling symlink named .lock: SESSION_LOCKED at once, naming it", async () => {
    const dir = join(tmp.dir, "symlink-lock");
    mkdirSync(dir);
    symlinkSync(join(tmp.dir, "nowhere"), join(dir, LOCK_FILE));
    await expect(withSessionLock(dir, () => "entered", 60_000)).rejects.toMatchObject({
      code: "SESSION_LOCKED",
      message: expect.stringContaining("is a symlink, not a lock file"),
    });
  });
});
