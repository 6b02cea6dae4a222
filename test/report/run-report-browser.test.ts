/**
 * The run report in a real browser: headless Chromium loads report.html, takes a screenshot of the
 * rendered page, and reports no console message. Needs Debian's chromium (.ci/run installs it); without
 * it the test is skipped and says so.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeRunReport } from "../../src/report/run/index.js";
import { cleanTempDirs, tempDir, verifiedPdfRun } from "../evidence/helpers.js";
import { darkBounds, decodePng } from "../helpers/png.js";

afterAll(() => cleanTempDirs());

function chromiumPath(): string | undefined {
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || undefined;
    } catch {}
  }
  return undefined;
}
const chromium = chromiumPath();

/** Loads a file in headless Chromium; the screenshot and every console line it logged. */
function screenshot(file: string, out: string): { png: Buffer; console: string[] } {
  const run = spawnSync(
    chromium as string,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${join(tempDir("citeproof-chromium-"), "profile")}`,
      "--enable-logging=stderr",
      "--v=0",
      "--hide-scrollbars",
      "--window-size=1200,1600",
      `--screenshot=${out}`,
      `file://${file}`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  const console = run.stderr.split("\n").filter((l) => l.includes(":CONSOLE"));
  return { png: readFileSync(out), console };
}

describe.skipIf(!chromium)("run report in headless Chromium", () => {
  it("the console catches a page's error (so the check below can fail)", () => {
    const dir = tempDir();
    const page = join(dir, "broken.html");
    writeFileSync(page, '<!DOCTYPE html><p>x</p><script>console.error("broken page")</script>');
    expect(screenshot(page, join(dir, "broken.png")).console.join("\n")).toContain("broken page");
  });

  it("renders report.html with its crop: a full-size screenshot with content, no console message", async () => {
    const { run, cacheDir } = await verifiedPdfRun();
    const written = await writeRunReport(run, { cacheDir, format: "html" });
    expect(written.crops).toBe(1);
    const shot = screenshot(written.report_html as string, join(tempDir(), "report.png"));
    if (process.env.CITEPROOF_KEEP_SCREENSHOT) writeFileSync(process.env.CITEPROOF_KEEP_SCREENSHOT, shot.png);
    expect(shot.console).toEqual([]);
    const img = decodePng(shot.png);
    expect([img.width, img.height]).toEqual([1200, 1600]);
    // Something was drawn: dark pixels (text, the crop) well inside the page.
    const dark = darkBounds(img);
    expect(dark?.count).toBeGreaterThan(2000);
    expect(dark?.y1).toBeGreaterThan(400);
    expect(shot.png.byteLength).toBeGreaterThan(20_000);
  });
});
