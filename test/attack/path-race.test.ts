/**
 * The folder-swap race against every agent tool, through the MCP server's route and pi's: a folder
 * inside the root and a symlink to a folder outside it trade places while each tool reads a PDF under
 * that folder. An answer made from the outside PDF is an escape.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: the attack suite is plain JavaScript.
import { pathRaceAttack } from "../../scripts/attack/path-race.mjs";

const dir = mkdtempSync(join(tmpdir(), "citeproof-race-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("path race over every tool", () => {
  it("no tool, MCP or pi, answers from a file outside the roots", async () => {
    const stats = await pathRaceAttack(dir, { calls: 13 * 12, toolEvery: 1 });
    expect(stats.tried).toBe(13 * 12);
    expect(stats.escapes).toBe(0);
    expect(stats.crashes).toBe(0);
    expect(stats.verdicts).toBeGreaterThan(0);
  }, 240_000);
});
