// `citeproof report`: one section per record, verdict classes, crops as PNG data URIs of the right
// size, everything from the PDF and the evidence escaped, and no partial file on a failed write.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { inflateSync } from "node:zlib";
import { DomUtils, parseDocument } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/report/escape.js";
import { writeOutputAtomic } from "../../src/report/write.js";

const root = resolve(import.meta.dirname, "../..");
const cli = join(root, "dist/cli/main.js");
const fixture = join(root, "test/fixtures/interfaces.pdf");
const work = mkdtempSync(join(tmpdir(), "citeproof-report-"));
const cacheDir = join(work, "cache");

const evidence = [
  {
    id: "q1",
    kind: "quotation",
    page: 1,
    text: "Salt corrosion was the most common defect on the older hulls",
  },
  { id: "cross", kind: "quotation", page: 1, text: "agreed on every hull but one. Salt corrosion" },
  { id: "moved", kind: "quotation", page: 1, text: "Work on the northern quay begins in October" },
  {
    id: "absent",
    kind: "quotation",
    page: 2,
    text: "The budget for timber was approved after a long debate",
  },
  { id: "page", kind: "page", page: 2 },
  { id: "gone", kind: "page", page: 9 },
  { id: '<script>alert("x")</script>', kind: "quotation", text: "the budget <b>was</b> approved & signed" },
];

function run(args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    env: { ...process.env, CITEPROOF_CACHE_DIR: cacheDir },
    encoding: "utf8",
  });
}

type Node = ReturnType<typeof parseDocument>["children"][number];
type Element = ReturnType<typeof DomUtils.findAll>[number];

/** Every element below `node` (itself included) that passes `test`, in document order. */
function all(node: Node | ReturnType<typeof parseDocument>, test: (e: Element) => boolean): Element[] {
  const isElement = ["tag", "script", "style"].includes((node as { type: string }).type);
  const self = isElement && test(node as Element) ? [node as Element] : [];
  return [...self, ...DomUtils.findAll(test, DomUtils.getChildren(node as Node))];
}

function textOf(node: Node): string {
  return DomUtils.textContent(node);
}

function hasClass(e: Element, name: string): boolean {
  return (e.attribs.class ?? "").split(/\s+/).includes(name);
}

/** Width, height and a full inflate of a PNG: a valid image with complete pixel data. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  expect(bytes.toString("latin1", 12, 16)).toBe("IHDR");
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const colour = bytes[25];
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colour as 0 | 2 | 4 | 6];
  expect(bytes[24]).toBe(8);
  expect(channels).toBeDefined();
  const idat: Buffer[] = [];
  let at = 8;
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    if (type === "IDAT") idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * channels!));
  return { width, height };
}

let html = "";
let stdout = "";
let status: number | null = null;

beforeAll(() => {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(join(work, "evidence.json"), JSON.stringify(evidence));
  const out = join(work, "report.html");
  const result = run([
    "report",
    fixture,
    "--evidence",
    join(work, "evidence.json"),
    "--out",
    out,
    "--json",
    "--order",
    "input",
    "--inline-images",
  ]);
  status = result.status;
  stdout = result.stdout;
  html = readFileSync(out, "utf8");
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("citeproof report", () => {
  it("exits as verify does and prints the verify document with the report's path", () => {
    expect(status).toBe(1);
    const doc = JSON.parse(stdout);
    expect(doc.results).toHaveLength(evidence.length);
    expect(doc.report.path).toBe(join(work, "report.html"));
    expect(doc.report.bytes).toBe(Buffer.byteLength(html));
  });

  it("has one section per record, in order, with the verdict's class", () => {
    const dom = parseDocument(html);
    const sections = all(dom, (e) => e.name === "section" && hasClass(e, "result"));
    const expected = [
      ["PASS", "found"],
      ["PASS", "found"],
      ["FAIL", "wrong-page"],
      ["FAIL", "absent"],
      ["FLAG", "no-quotation"],
      ["FAIL", "no-such-page"],
      ["UNANCHORED", "no-page"],
    ];
    expect(sections.map((s) => [s.attribs["data-verdict"], s.attribs["data-reason"]])).toEqual(expected);
    sections.forEach((s, i) => {
      expect(hasClass(s, `verdict-${expected[i][0].toLowerCase()}`)).toBe(true);
    });
  });

  it("shows each cited place as a PNG data URI whose size matches the crop", () => {
    const dom = parseDocument(html);
    const sections = all(dom, (e) => e.name === "section" && hasClass(e, "result"));
    const figuresOf = (i: number) => all(sections[i], (e) => e.name === "figure");
    const kinds = sections.map((_, i) => figuresOf(i).map((f) => f.attribs.class.replace("crop crop-", "")));
    expect(kinds).toEqual([["match"], ["match"], ["elsewhere"], ["closest"], ["page"], [], []]);
    for (const figure of sections.flatMap((_, i) => figuresOf(i))) {
      const img = all(figure, (e) => e.name === "img")[0];
      const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(img.attribs.src);
      expect(match).not.toBeNull();
      const size = pngSize(Buffer.from(match![1], "base64"));
      expect(size).toEqual({ width: Number(img.attribs.width), height: Number(img.attribs.height) });
      const dpi = Number(figure.attribs["data-dpi"]);
      if (figure.attribs["data-box"]) {
        const [l, b, r, t] = figure.attribs["data-box"].split(",").map(Number);
        expect(dpi).toBe(110);
        expect(Math.abs(size.width - ((r - l) * dpi) / 72)).toBeLessThanOrEqual(2);
        expect(Math.abs(size.height - ((t - b) * dpi) / 72)).toBeLessThanOrEqual(2);
      } else {
        // A FLAG shows the whole page, at a resolution its words can be read at: US letter at 100 dpi.
        expect(dpi).toBe(100);
        expect(Math.abs(size.width - (612 * 100) / 72)).toBeLessThanOrEqual(2);
        expect(Math.abs(size.height - (792 * 100) / 72)).toBeLessThanOrEqual(2);
      }
    }
    // The pass that crosses lines marks each of its three lines; every mark lies inside the crop.
    const marks = all(figuresOf(1)[0], (e) => hasClass(e, "mark"));
    expect(marks).toHaveLength(3);
    for (const mark of all(dom, (e) => hasClass(e, "mark"))) {
      const values = [...mark.attribs.style.matchAll(/([a-z]+):([\d.]+)%/g)].map((m) => [m[1], Number(m[2])]);
      const v = Object.fromEntries(values) as Record<string, number>;
      expect(v.left + v.width).toBeLessThanOrEqual(100.001);
      expect(v.top + v.height).toBeLessThanOrEqual(100.001);
      expect(v.width).toBeGreaterThan(0);
    }
    // The wrong-page crop is rendered from the page where the words are.
    expect(figuresOf(2)[0].attribs["data-page"]).toBe("2");
  });

  it("shows an equation's label and line, a figure's caption, and a rejected label where it was seen", () => {
    const out = join(work, "anchors.html");
    const file = join(work, "anchors.json");
    writeFileSync(
      file,
      JSON.stringify([
        { kind: "equation", label: "1" },
        { kind: "figure", label: "1" },
        { kind: "equation", label: "2" },
        { kind: "figure", label: "7" },
      ]),
    );
    const result = run(["report", fixture, "--evidence", file, "--out", out, "--order", "input"]);
    expect(result.status).toBe(1);
    const dom = parseDocument(readFileSync(out, "utf8"));
    const sections = all(dom, (e) => e.name === "section" && hasClass(e, "result"));
    expect(sections.map((s) => s.attribs["data-verdict"])).toEqual(["PASS", "PASS", "FAIL", "FAIL"]);
    const figures = sections.map((s) => all(s, (e) => e.name === "figure"));
    expect(figures.map((f) => f.map((x) => [x.attribs.class, x.attribs["data-page"]]))).toEqual([
      [["crop crop-anchor", "1"]],
      [["crop crop-anchor", "2"]],
      [["crop crop-sighting", "2"]],
      [],
    ]);
    // Label and equation line are both marked; the rejected label alone.
    expect(all(figures[0][0], (e) => hasClass(e, "mark"))).toHaveLength(2);
    expect(all(figures[2][0], (e) => hasClass(e, "mark"))).toHaveLength(1);
    expect(textOf(figures[2][0])).toContain("not accepted (no-math");
  });

  it("marks the right place on a page turned by /Rotate and on one with an offset CropBox", () => {
    const out = join(work, "layout.html");
    const file = join(work, "layout.json");
    const text = "jumps over the lazy dog near the river bank";
    writeFileSync(file, JSON.stringify([2, 3].map((page) => ({ kind: "quotation", page, text }))));
    const result = run(["report", join(root, "test/fixtures/layout.pdf"), "--evidence", file, "--out", out]);
    expect(result.status).toBe(0);
    const dom = parseDocument(readFileSync(out, "utf8"));
    const [rotated, cropped] = all(dom, (e) => e.name === "figure");
    const markOf = (figure: Element) => {
      const style = all(figure, (e) => hasClass(e, "mark"))[0].attribs.style;
      return Object.fromEntries([...style.matchAll(/([a-z]+):([\d.]+)%/g)].map((m) => [m[1], Number(m[2])]));
    };
    const size = (figure: Element) => {
      const img = all(figure, (e) => e.name === "img")[0];
      return { w: Number(img.attribs.width), h: Number(img.attribs.height) };
    };
    // Turned a quarter: the line runs down the image, and so does its mark.
    expect(size(rotated).h).toBeGreaterThan(size(rotated).w);
    const r = markOf(rotated);
    expect((r.height * size(rotated).h) / 100).toBeGreaterThan((r.width * size(rotated).w) / 100);
    // Upright with a CropBox offset: the mark is a wide strip inside the image.
    const c = markOf(cropped);
    expect((c.width * size(cropped).w) / 100).toBeGreaterThan((c.height * size(cropped).h) / 100);
    expect(c.left).toBeGreaterThan(0);
  });

  it("escapes everything that comes from the PDF and the evidence", () => {
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>was</b>");
    const dom = parseDocument(html);
    const last = all(dom, (e) => e.name === "section").at(-1)!;
    expect(textOf(all(last, (e) => e.name === "h2")[0])).toContain('[<script>alert("x")</script>]');
    expect(textOf(all(last, (e) => e.name === "blockquote")[0])).toBe(
      "the budget <b>was</b> approved & signed",
    );
    expect(all(dom, (e) => e.name === "script")).toHaveLength(0);
    expect(escapeHtml(`a<b>&"c'\u0000`)).toBe("a&lt;b&gt;&amp;&quot;c&#39;\uFFFD");
  });

  it("an unwritable output is a coded error, exit 2, and leaves no file", () => {
    const evidenceFile = join(work, "evidence.json");
    const missing = join(work, "no-such-folder", "r.html");
    const result = run(["report", fixture, "--evidence", evidenceFile, "--out", missing, "--json"]);
    expect(result.status).toBe(2);
    expect(JSON.parse(result.stdout).error.code).toBe("OUTPUT_UNWRITABLE");
    expect(result.stderr).toContain("OUTPUT_UNWRITABLE");
    expect(existsSync(missing)).toBe(false);

    const folder = join(work, "a-folder");
    mkdirSync(folder);
    const onDir = run(["report", fixture, "--evidence", evidenceFile, "--out", folder]);
    expect(onDir.status).toBe(2);
    expect(onDir.stderr).toContain("OUTPUT_UNWRITABLE");
    expect(readdirSync(folder)).toEqual([]);
  });

  it("replaces an existing report whole, leaving no temporary file", () => {
    const out = join(work, "atomic", "r.html");
    mkdirSync(join(work, "atomic"));
    writeFileSync(out, "old content that is longer than the new one");
    writeOutputAtomic(out, "new");
    expect(readFileSync(out, "utf8")).toBe("new");
    expect(readdirSync(join(work, "atomic"))).toEqual(["r.html"]);
    expect(() => writeOutputAtomic(join(work, "nope", "r.html"), "x")).toThrow(/does not exist/);
  });

  it("rejects a dpi out of range before doing any work", () => {
    const out = join(work, "dpi.html");
    const result = run([
      "report",
      fixture,
      "--evidence",
      join(work, "evidence.json"),
      "--out",
      out,
      "--dpi",
      "5",
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--dpi");
    expect(existsSync(out)).toBe(false);
  });
});

describe("a report at size", () => {
  const out = join(work, "big", "report.html");
  let size = 0;
  let sections: Element[] = [];
  let dom: ReturnType<typeof parseDocument>;
  beforeAll(() => {
    mkdirSync(join(work, "big"));
    // 140 records: the seven above twenty times over.
    const many = Array.from({ length: 20 }, (_, k) =>
      evidence.map((e) => ({ ...e, id: `${String(e.id).slice(0, 12)}-${k}` })),
    ).flat();
    const file = join(work, "big", "evidence.json");
    writeFileSync(file, JSON.stringify(many));
    const result = run(["report", fixture, "--evidence", file, "--out", out, "--json"]);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout).report.images.folder).toBe(join(work, "big", "report.files"));
    const html = readFileSync(out, "utf8");
    size = Buffer.byteLength(html);
    dom = parseDocument(html);
    sections = all(dom, (e) => e.name === "section" && hasClass(e, "result"));
  }, 120_000);

  it("shows FAIL first, then FLAG, PASS and UNANCHORED, each in input order, with its input number", () => {
    const verdicts = sections.map((s) => s.attribs["data-verdict"]);
    const rank = (v: string) => ["FAIL", "FLAG", "PASS", "UNANCHORED"].indexOf(v);
    expect(verdicts.map(rank)).toEqual([...verdicts.map(rank)].sort((a, b) => a - b));
    expect(sections[0].attribs.id).toBe("result-3");
    const numbers = sections
      .filter((s) => s.attribs["data-verdict"] === "FAIL")
      .map((s) => Number(s.attribs.id.slice(7)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it("opens with an index linking every result, and a legend of the marks' colours", () => {
    const links = all(dom, (e) => e.name === "a" && (e.attribs.href ?? "").startsWith("#result-"));
    expect(links.map((a) => a.attribs.href)).toEqual(sections.map((s) => `#${s.attribs.id}`));
    expect(all(dom, (e) => hasClass(e, "swatch")).map((e) => e.attribs.class)).toEqual([
      "swatch mark-match",
      "swatch mark-elsewhere",
      "swatch mark-closest",
      "swatch mark-page-words",
    ]);
  });

  it("keeps its images in a folder beside it, each named by its content, and stays small", () => {
    const srcs = all(dom, (e) => e.name === "img").map((e) => e.attribs.src);
    expect(srcs.length).toBeGreaterThanOrEqual(100);
    for (const src of new Set(srcs)) {
      expect(src).toMatch(/^report\.files\/[0-9a-f]{20}\.png$/);
      const png = readFileSync(join(work, "big", src));
      const digest = createHash("sha256").update(png).digest("hex").slice(0, 20);
      expect(src).toBe(`report.files/${digest}.png`);
    }
    expect(readdirSync(join(work, "big", "report.files")).sort()).toEqual(
      [...new Set(srcs)].map((s) => s.slice("report.files/".length)).sort(),
    );
    // At most 250 KB of HTML per 100 records.
    expect(size).toBeLessThanOrEqual((250_000 * sections.length) / 100);
  });
});
