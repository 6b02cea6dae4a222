// `crop --explain` draws what `anchors --explain` decides: on a fixture page, one label box per
// equation-label candidate of the page, green (accepted) or red (rejected), each rejected one tagged.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDocument } from "../../src/document/open.js";
import { closeRenderer, userBoxToDevice } from "../../src/document/render.js";
import { documentAnchors } from "../../src/layout/anchors.js";
import { cropOperation } from "../../src/operations/crop.js";
import { runOperation } from "../../src/operations/run-operation.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { decodePng } from "../helpers/png.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const work = tempDir("citeproof-crop-explain-");
afterAll(() => {
  work.remove();
  return closeRenderer();
});
const ctx = { cwd: process.cwd(), access: "anywhere" as const, open: { noCache: true } };

describe("crop --explain", () => {
  it("draws one box per candidate of the page, coloured by the verdict anchors gives", async () => {
    const pdf = fixture("eq-leqno");
    const doc = await openDocument(pdf, { noCache: true, withGeometry: true });
    const record = await documentAnchors(doc, { explain: true });
    const accepted = record.equations.filter((e) => e.page === 1).length;
    const rejected = record.rejectedEquationCandidates.filter((c) => c.page === 1).length;
    expect(accepted).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);

    const { result, json } = await runOperation(cropOperation, { pdf, page: 1, dpi: 40, explain: true }, ctx);
    const svg = result.svg ?? "";
    expect(svg.match(/<rect class="label accepted"/g)).toHaveLength(accepted);
    expect(svg.match(/<rect class="label rejected"/g)).toHaveLength(rejected);
    expect(svg.match(/<text class="rejected"/g)).toHaveLength(rejected);
    expect(svg).toContain(`base64,${Buffer.from(result.png).toString("base64").slice(0, 40)}`);
    const listed = (json as { explain: { candidates: { accepted: boolean }[] } }).explain.candidates;
    expect(listed.filter((c) => c.accepted)).toHaveLength(accepted);
    expect(json).not.toHaveProperty("svg");

    // The PNG itself carries the boxes: each label's top-left corner in its verdict's colour.
    const img = decodePng(result.png);
    for (const e of record.equations.filter((q) => q.page === 1)) expect(corner(e.labelBox)).toBe("green");
    for (const c of record.rejectedEquationCandidates.filter((q) => q.page === 1))
      expect(corner(c.labelBox)).toBe("red");
    function corner(box: Parameters<typeof userBoxToDevice>[0]): string {
      const d = userBoxToDevice(box, result.transform);
      const i = (Math.round(d.y0) * img.width + Math.round(d.x0)) * img.channels;
      const [r, g] = [img.data[i], img.data[i + 1]];
      return g > 120 && r < 80 ? "green" : r > 180 && g < 80 ? "red" : `rgb ${r},${g}`;
    }
  });

  it("draws nothing and lists nothing without explain", async () => {
    const { result, json } = await runOperation(
      cropOperation,
      { pdf: fixture("eq-leqno"), page: 1, dpi: 40 },
      ctx,
    );
    expect(result.svg).toBeUndefined();
    expect(json).not.toHaveProperty("explain");
  });

  it("writes the SVG beside the PNG from the command line, and says where", async () => {
    const out = join(work.dir, "page.png");
    const args = ["crop", fixture("eq-leqno"), "--page", "2", "--dpi", "30", "--explain", "--out", out];
    const r = await runCliInProcess([...args, "--json", "--no-cache"]);
    expect(r.status).toBe(0);
    const svg = join(work.dir, "page.svg");
    expect(r.json).toMatchObject({ out, svg, page: 2 });
    expect(existsSync(out)).toBe(true);
    expect(readFileSync(svg, "utf8")).toMatch(/^<svg [^>]*width="\d+"/);
    const text = await runCliInProcess([...args.slice(0, -1), join(work.dir, "shot"), "--no-cache"]);
    expect(text.stdout).toMatch(
      /and .*shot\.svg .*equation-label candidates drawn \(\d+ accepted, \d+ rejected\)/,
    );
    expect(existsSync(join(work.dir, "shot.svg"))).toBe(true);
  });
});
