/** Work nobody waits for is stopped only once every running call's client has gone, and kept stopped. */
import { describe, expect, it } from "vitest";
import { AbandonedCalls, STOP_AGAIN_MS } from "../../src/document/abandoned-calls.js";

describe("abandoned calls", () => {
  it("stops the engine when every running call is abandoned, again while that lasts", async () => {
    let stops = 0;
    const calls = new AbandonedCalls(async () => {
      stops++;
    });
    const a = calls.begin();
    const b = calls.begin();
    a.abandon();
    expect(stops).toBe(0);
    b.abandon();
    expect(stops).toBe(1);
    await new Promise((r) => setTimeout(r, STOP_AGAIN_MS * 3));
    expect(stops).toBeGreaterThan(1);
    // A call whose client waits starts: the engine is left to it.
    const c = calls.begin();
    await new Promise((r) => setTimeout(r, STOP_AGAIN_MS * 2));
    const held = stops;
    await new Promise((r) => setTimeout(r, STOP_AGAIN_MS * 3));
    expect(stops).toBe(held);
    for (const call of [a, b, c]) call.end();
    expect(calls.allGone()).toBe(false);
  });
});
