// The keys of a jobs file's lines: an id, or `#line N` for a line whose id cannot be read; no job may
// take an id of that form, so a job and an id-less line never share a key (and so a result line).
import { describe, expect, it } from "vitest";
import { readJobs } from "../../src/batch/jobs-file.js";

describe("jobs file keys", () => {
  it("a job whose id is '#line 1' does not collide with an id-less invalid line 1", () => {
    const text = [
      "{not json",
      JSON.stringify({ id: "#line 1", pdf: "a.pdf", verify: [{ kind: "page", page: 1 }] }),
      JSON.stringify({ id: "ok", pdf: "a.pdf", verify: [{ kind: "page", page: 1 }] }),
    ].join("\n");
    const entries = readJobs(text);
    expect(entries.map((e) => e.key)).toEqual(["#line 1", "#line 2", "ok"]);
    expect(new Set(entries.map((e) => e.key)).size).toBe(3);
    const reserved = entries[1];
    expect(reserved.ok).toBe(false);
    if (reserved.ok) return;
    expect(reserved.id).toBeNull();
    expect(reserved.error.code).toBe("BATCH_JOB_INVALID");
    expect(reserved.error.details).toMatchObject({ line: 2, field: "id" });
    expect(reserved.error.message).toMatch(/^jobs line 2: "id" "#line 1" has the form "#line N"/);
  });

  it("ids that only look alike stay jobs", () => {
    const job = (id: string) => JSON.stringify({ id, pdf: "a.pdf", verify: [{ kind: "page", page: 1 }] });
    const entries = readJobs([job("#line"), job("#line 1a"), job("line 1")].join("\n"));
    expect(entries.map((e) => [e.key, e.ok])).toEqual([
      ["#line", true],
      ["#line 1a", true],
      ["line 1", true],
    ]);
  });
});
