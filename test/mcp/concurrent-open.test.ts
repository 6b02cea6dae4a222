// The memory budget is the whole HTTP server's: calls run side by side extract with the process's one
// engine, not each with several workers sized as if it ran alone.
import { describe, expect, it } from "vitest";
import { concurrentOpenOptions } from "../../src/mcp/http.js";

describe("concurrentOpenOptions", () => {
  it("one engine a call when calls run side by side, unless the server was given a job count", () => {
    expect(concurrentOpenOptions({ noCache: true }, 4)).toEqual({ noCache: true, jobs: 1 });
    expect(concurrentOpenOptions({ noCache: true }, 1)).toEqual({ noCache: true });
    expect(concurrentOpenOptions({ jobs: 3 }, 4)).toEqual({ jobs: 3 });
  });
});
