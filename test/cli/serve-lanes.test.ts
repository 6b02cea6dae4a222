// `serve` runs the calls of the process's working directory side by side; a call from another
// directory waits until those in flight end, then the process moves there; calls are taken in order.
import { describe, expect, it } from "vitest";
import { Lanes, NotStarted } from "../../src/cli/serve-lanes.js";

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function world(start = "/a", max = Number.POSITIVE_INFINITY) {
  const moves: string[] = [];
  let dir = start;
  const lanes = new Lanes(
    max,
    () => dir,
    (to) => {
      moves.push(to);
      dir = to;
    },
  );
  return { lanes, moves, where: () => dir };
}

describe("serve's lanes", () => {
  it("runs calls of one directory side by side", async () => {
    const { lanes, moves } = world("/a");
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const calls = gates.map((g, i) =>
      lanes.run("/a", async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    expect(lanes.inFlight).toBe(3);
    for (const g of gates) g.open();
    expect(await Promise.all(calls)).toEqual([0, 1, 2]);
    expect(moves).toEqual([]);
  });

  it("moves for a call of another directory only once the calls in flight end; later calls wait behind it", async () => {
    const { lanes, moves, where } = world("/a");
    const first = gate();
    const log: string[] = [];
    const a1 = lanes.run("/a", async () => {
      log.push(`a1 in ${where()}`);
      await first.opened;
    });
    const b = lanes.run("/b", async () => {
      log.push(`b in ${where()}`);
    });
    // Of the current directory, but after a waiting call: it waits too.
    const a2 = lanes.run("/a", async () => {
      log.push(`a2 in ${where()}`);
    });
    const b2 = lanes.run("/b", async () => {
      log.push(`b2 in ${where()}`);
    });
    await Promise.resolve();
    expect(log).toEqual(["a1 in /a"]);
    first.open();
    await Promise.all([a1, b, a2, b2]);
    expect(log).toEqual(["a1 in /a", "b in /b", "b2 in /b", "a2 in /a"]);
    expect(moves).toEqual(["/b", "/a"]);
  });

  it("fails a call whose directory cannot be entered, and goes on with the next", async () => {
    let dir = "/a";
    const lanes = new Lanes(
      2,
      () => dir,
      (to) => {
        if (to === "/gone") throw new Error(`no ${to}`);
        dir = to;
      },
    );
    await expect(lanes.run("/gone", async () => 1)).rejects.toThrow("no /gone");
    expect(await lanes.run("/a", async () => 2)).toBe(2);
    // The same when the lane is entered after others end.
    const first = gate();
    const a = lanes.run("/a", () => first.opened);
    const gone = lanes.run("/gone", async () => 3);
    const b = lanes.run("/b", async () => dir);
    first.open();
    await a;
    await expect(gone).rejects.toThrow("no /gone");
    expect(await b).toBe("/b");
  });

  it("runs at most maxInFlight at once; the rest start as others end, in order", async () => {
    const { lanes } = world("/a", 2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const calls = gates.map((g, i) =>
      lanes.run("/a", async () => {
        started.push(i);
        await g.opened;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(lanes.wouldWait("/a")).toBe(true);
    gates[1].open();
    await calls[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await Promise.all(calls);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(lanes.wouldWait("/a")).toBe(false);
  });

  it("lets the waiting calls go when asked: they never start", async () => {
    const { lanes } = world("/a", 1);
    const first = gate();
    const running = lanes.run("/a", () => first.opened);
    let ran = false;
    const waiting = lanes.run("/a", async () => {
      ran = true;
    });
    lanes.cancelWaiting();
    await expect(waiting).rejects.toBeInstanceOf(NotStarted);
    first.open();
    await running;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toBe(false);
    expect(lanes.inFlight).toBe(0);
  });
});
