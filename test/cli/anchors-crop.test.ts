import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deviceBoxToUser, type RenderTransform } from "../../src/document/render.js";
import type { AnchorsRecord } from "../../src/layout/anchors.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { darkBounds, decodePng, lum } from "../helpers/png.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const work = tempDir("citeproof-crop-");
const cacheDir = join(work.dir, "cache");
afterAll(() => work.remove());

const cli = (args: string[]) => runCliInProcess([...args, "--cache-dir", cacheDir]);

describe("citeproof anchors", () => {
  it("prints the anchors record as JSON", async () => {
    const r = await cli(["anchors", fixture("eq-sections"), "--json"]);
    expect(r.status).toBe(0);
    const json = r.json as AnchorsRecord & { document: { pages: number } };
    expect(json.document.pages).toBe(3);
    expect(json.schemaVersion).toBe(2);
    expect(json.equations.map((e) => e.label)).toContain("2.1a");
    const table = json.rejectedEquationCandidates.find((c) => c.label === "4")!;
    expect(table.reasons).toContain("tabular");
    expect(table.printed).toBe("(4)");
  });

  it("prints a readable list with the reasons of every rejected candidate", async () => {
    const r = await cli(["anchors", fixture("figures")]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("equation labels (0):");
    expect(r.stdout).toContain("figure captions (7):");
    expect(r.stdout).toMatch(/page 1 {2}"Figure 5\. This sentence.*": inside-paragraph/);
    const eq = (await cli(["anchors", fixture("eq-leqno")])).stdout;
    expect(eq).toMatch(/\(12\) {2}page 1 {2}at [\d.,]+: not-centred/);
  });

  it("refuses a file that is not there, with a coded error and exit 2", async () => {
    const r = await cli(["anchors", join(work.dir, "missing.pdf"), "--json"]);
    expect(r.status).toBe(2);
    expect((r.json as { error: { code: string } }).error.code).toBe("FILE_NOT_FOUND");
    expect(r.stderr).not.toContain("    at ");
  });
});

describe("citeproof crop", () => {
  it("renders an equation anchor: the PNG's size matches the region and the label's pixels are inside it", async () => {
    const out = join(work.dir, "eq.png");
    const r = await cli([
      "crop",
      fixture("eq-sections"),
      "--anchor",
      "equation:2.1a",
      "--out",
      out,
      "--json",
    ]);
    expect(r.status).toBe(0);
    const report = r.json as {
      page: number;
      widthPx: number;
      heightPx: number;
      box: { left: number; bottom: number; right: number; top: number };
      transform: RenderTransform;
      anchor: { labelBox: { left: number; bottom: number; right: number; top: number } };
    };
    expect(report.page).toBe(2);
    const img = decodePng(readFileSync(out));
    expect([img.width, img.height]).toEqual([report.widthPx, report.heightPx]);
    const scale = 150 / 72;
    expect(Math.abs(img.width - (report.box.right - report.box.left) * scale)).toBeLessThanOrEqual(2);
    expect(Math.abs(img.height - (report.box.top - report.box.bottom) * scale)).toBeLessThanOrEqual(2);
    // The label's glyphs are ink inside the image, where its box says.
    const label = report.anchor.labelBox;
    const x0 = Math.floor((label.left - report.box.left) * scale);
    const x1 = Math.ceil((label.right - report.box.left) * scale);
    const y0 = Math.floor((report.box.top - label.top) * scale);
    const y1 = Math.ceil((report.box.top - label.bottom) * scale);
    expect(x0).toBeGreaterThanOrEqual(0);
    expect(x1).toBeLessThanOrEqual(img.width);
    expect(y0).toBeGreaterThanOrEqual(0);
    expect(y1).toBeLessThanOrEqual(img.height);
    let ink = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (lum(img, x, y) < 128) ink++;
    expect(ink).toBeGreaterThan(30);
    // The rightmost ink of the image is the label's closing parenthesis.
    const dark = darkBounds(img)!;
    const seen = deviceBoxToUser(dark.x0, dark.y0, dark.x1, dark.y1, report.transform);
    expect(Math.abs(seen.right - label.right)).toBeLessThan(1.5);
  });

  it("renders a figure anchor with its graphics, and a box, and a whole page", async () => {
    const fig = join(work.dir, "fig.png");
    const f = await cli([
      "crop",
      fixture("figures"),
      "--anchor",
      "figure:1",
      "--out",
      fig,
      "--dpi",
      "72",
      "--json",
    ]);
    expect(f.status).toBe(0);
    const fr = f.json as {
      heightPx: number;
      anchor: { figureBox: { top: number }; captionBox: { bottom: number } };
    };
    expect(fr.heightPx).toBeGreaterThanOrEqual(
      Math.floor(fr.anchor.figureBox.top - fr.anchor.captionBox.bottom),
    );
    const box = join(work.dir, "box.png");
    const b = await cli([
      "crop",
      fixture("eq-sections"),
      "--page",
      "1",
      "--box",
      "72,600,300,700",
      "--out",
      box,
      "--dpi",
      "100",
    ]);
    expect(b.status).toBe(0);
    expect(b.stdout).toMatch(
      /^wrote .*box\.png \(317 x 139 px at 100 dpi\): page 1, box 72\.0,600\.0,300\.0,700\.0\n$/,
    );
    const img = decodePng(readFileSync(box));
    expect([img.width, img.height]).toEqual([317, 139]);
    const page = join(work.dir, "page.png");
    const p = await cli(["crop", fixture("eq-sections"), "--page", "3", "--out", page, "--dpi", "36"]);
    expect(p.status).toBe(0);
    expect(decodePng(readFileSync(page)).width).toBe(298);
  });

  it("picks the anchor on the page asked for", async () => {
    const out = join(work.dir, "left.png");
    const r = await cli([
      "crop",
      fixture("eq-leqno"),
      "--page",
      "1",
      "--anchor",
      "equation:4a",
      "--out",
      out,
      "--json",
    ]);
    expect(r.status).toBe(0);
    expect((r.json as { anchor: { side: string } }).anchor.side).toBe("left");
  });

  const refusals: [string, string[], string, RegExp][] = [
    ["an unknown anchor", ["--anchor", "equation:99"], "ANCHOR_NOT_FOUND", /no anchor equation \(99\)/],
    [
      "an anchor on another page",
      ["--page", "1", "--anchor", "equation:2.2"],
      "ANCHOR_NOT_FOUND",
      /it is on page 2/,
    ],
    [
      "a page out of range",
      ["--page", "9", "--box", "10,10,100,100"],
      "PAGE_OUT_OF_RANGE",
      /page 9 does not exist/,
    ],
    [
      "a box outside the page",
      ["--page", "1", "--box", "700,10,800,100"],
      "BOX_INVALID",
      /lies outside page 1/,
    ],
    [
      "a box that is not finite",
      ["--page", "1", "--box", "10,NaN,100,100"],
      "BOX_INVALID",
      /four finite numbers/,
    ],
    ["an empty box", ["--page", "1", "--box", "100,10,10,100"], "BOX_INVALID", /left < right/],
    [
      "both --box and --anchor",
      ["--page", "1", "--box", "1,1,9,9", "--anchor", "figure:1"],
      "USAGE",
      /not both/,
    ],
    ["a malformed anchor", ["--anchor", "eq:1"], "USAGE", /equation:LABEL or figure:LABEL/],
    ["a wild dpi", ["--page", "1", "--dpi", "5000"], "USAGE", /--dpi must be/],
    ["no page and no anchor", [], "USAGE", /--page is required/],
  ];
  it.each(refusals)(
    "refuses %s with a coded error, exit 2 and no PNG",
    async (_what, args, code, message) => {
      const out = join(work.dir, `refused-${code}.png`);
      const r = await cli(["crop", fixture("eq-sections"), ...args, "--out", out, "--json"]);
      expect(r.status).toBe(2);
      const error = (r.json as { error: { code: string; message: string } }).error;
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
      expect(r.stderr).toMatch(new RegExp(`^citeproof: error \\[${code}\\]: .+\\n$`));
      expect(existsSync(out)).toBe(false);
    },
  );

  it("refuses an output path it cannot write, leaving no partial file behind", async () => {
    const missing = join(work.dir, "no-such-folder", "x.png");
    const r = await cli(["crop", fixture("eq-sections"), "--page", "1", "--out", missing, "--json"]);
    expect(r.status).toBe(2);
    expect((r.json as { error: { code: string } }).error.code).toBe("OUTPUT_UNWRITABLE");
    const folder = join(work.dir, "a-folder.png");
    mkdirSync(folder);
    expect((await cli(["crop", fixture("eq-sections"), "--page", "1", "--out", folder])).status).toBe(2);
    const locked = join(work.dir, "locked");
    mkdirSync(locked, { mode: 0o500 });
    const inLocked = join(locked, "x.png");
    const l = await cli(["crop", fixture("eq-sections"), "--page", "1", "--out", inLocked, "--json"]);
    if (process.getuid?.() !== 0) {
      expect(l.status).toBe(2);
      expect((l.json as { error: { code: string } }).error.code).toBe("OUTPUT_UNWRITABLE");
    }
    expect(readdirSync(locked).filter((f) => f.includes(".tmp-"))).toEqual([]);
    // An existing file is replaced whole.
    const existing = join(work.dir, "existing.png");
    writeFileSync(existing, "old");
    expect(
      (await cli(["crop", fixture("eq-sections"), "--page", "1", "--out", existing, "--dpi", "20"])).status,
    ).toBe(0);
    expect(decodePng(readFileSync(existing)).width).toBeGreaterThan(100);
  });
});
