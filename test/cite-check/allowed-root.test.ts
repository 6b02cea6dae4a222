// Allowed roots: a local source is admitted only when its real path (symlinks resolved) lies
// inside the real path of an allowed root.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitLocalPath, isInside } from "../../src/source/allowed-root.js";
import { tempDir } from "../helpers/fixture-files.js";

let t: ReturnType<typeof tempDir>;
let root: string;
let outside: string;
beforeAll(() => {
  t = tempDir();
  root = join(t.dir, "root");
  outside = join(t.dir, "outside");
  mkdirSync(join(root, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "sub", "in.pdf"), "%PDF-1.4\n");
  writeFileSync(join(outside, "out.pdf"), "%PDF-1.4\n");
  symlinkSync(join(outside, "out.pdf"), join(root, "escape.pdf"));
  symlinkSync(outside, join(root, "escape-dir"));
  symlinkSync(join(root, "sub", "in.pdf"), join(outside, "in-link.pdf"));
  symlinkSync(root, join(t.dir, "root-link"));
  writeFileSync(join(t.dir, "rootish.pdf"), "%PDF-1.4\n");
});
afterAll(() => t.remove());

function code(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe("allowed roots", () => {
  it("admits a file inside a root and returns its real path", () => {
    expect(admitLocalPath(join(root, "sub", "in.pdf"), [root])).toMatch(/root\/sub\/in\.pdf$/);
    expect(admitLocalPath(join(root, "sub", "..", "sub", "in.pdf"), [root])).toMatch(/in\.pdf$/);
  });

  it("denies a file outside every root, by path or by ..", () => {
    expect(code(() => admitLocalPath(join(outside, "out.pdf"), [root]))).toBe("ACCESS_DENIED");
    expect(code(() => admitLocalPath(join(root, "..", "outside", "out.pdf"), [root]))).toBe("ACCESS_DENIED");
    // A sibling whose name starts like the root is not inside it.
    expect(code(() => admitLocalPath(join(t.dir, "rootish.pdf"), [root]))).toBe("ACCESS_DENIED");
  });

  it("resolves symlinks: a link inside a root pointing out is denied, one pointing in is admitted", () => {
    expect(code(() => admitLocalPath(join(root, "escape.pdf"), [root]))).toBe("ACCESS_DENIED");
    expect(code(() => admitLocalPath(join(root, "escape-dir", "out.pdf"), [root]))).toBe("ACCESS_DENIED");
    expect(admitLocalPath(join(outside, "in-link.pdf"), [root])).toMatch(/root\/sub\/in\.pdf$/);
    // A root given through a symlink is the directory it points to.
    expect(admitLocalPath(join(root, "sub", "in.pdf"), [join(t.dir, "root-link")])).toMatch(/in\.pdf$/);
  });

  it("tells a missing file and a missing root apart from a denial", () => {
    expect(code(() => admitLocalPath(join(root, "nope.pdf"), [root]))).toBe("FILE_NOT_FOUND");
    expect(code(() => admitLocalPath(join(root, "sub", "in.pdf"), [join(t.dir, "nope")]))).toBe("USAGE");
  });

  it("compares whole path segments", () => {
    expect(isInside("/a/b", "/a")).toBe(true);
    expect(isInside("/a", "/a")).toBe(true);
    expect(isInside("/ab", "/a")).toBe(false);
    expect(isInside("/a/../b", "/a")).toBe(false);
  });

  it("a missing path of 50,000 folders is judged in linear time, inside the root or out", () => {
    const deep = "a/".repeat(50_000);
    const started = Date.now();
    expect(code(() => admitLocalPath(join(root, `${deep}x.pdf`), [root]))).toBe("FILE_NOT_FOUND");
    expect(code(() => admitLocalPath(join(outside, `${deep}x.pdf`), [root]))).toBe("ACCESS_DENIED");
    expect(code(() => admitLocalPath(join(root, "escape-dir", `${deep}x.pdf`), [root]))).toBe(
      "ACCESS_DENIED",
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
