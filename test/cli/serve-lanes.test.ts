// `serve` runs the calls of the process's working directory side by side; a call from another
// directory waits until those in flight end, then the process moves there; calls are taken in order.
import { describe, expect, it } from "vitest";
import { Lanes } from "../../src/cli/serve-lanes.js";

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function world(start = "/a") {
  const moves: string[] = [];
  let dir = start;
  const lanes = new Lanes(
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
    const lanes = new Lanes(
      () => "/a",
      (to) => {
        throw new Error(`no ${to}`);
      },
    );
    await expect(lanes.run("/gone", async () => 1)).rejects.toThrow("no /gone");
    expect(await lanes.run("/a", async () => 2)).toBe(2);
  });
});
