/**
 * Writing the report: all of it under its name, or nothing (temporary file in the same folder, then
 * rename). Its images go into a folder beside it (`report.files/` for `report.html`), each named by its
 * content's digest and written whole before the HTML that links to it; images no longer linked are
 * removed after the HTML is in place.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { CiteproofError } from "../errors.js";
import { replaceFile } from "../util/atomic-file.js";
import type { Crop, Report } from "./build.js";
import { type ReportHtmlOptions, renderReportHtml } from "./html.js";

export interface WrittenReport {
  path: string;
  bytes: number;
  /** The folder of images beside the HTML, when they are not inline. */
  images?: { folder: string; files: number; bytes: number };
}

/** Writes the HTML and, unless inline, its images in the folder beside it. */
export function writeReport(
  path: string,
  report: Report,
  options: { order?: ReportHtmlOptions["order"]; inlineImages?: boolean } = {},
): WrittenReport {
  if (options.inlineImages) {
    const html = renderReportHtml(report, { order: options.order });
    writeOutputAtomic(path, html);
    return { path: resolve(path), bytes: Buffer.byteLength(html) };
  }
  const target = resolve(path);
  if (existsAsDirectory(target))
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${path}: it is a directory`);
  const folderName = `${basename(target, extname(target))}.files`;
  const folder = join(dirname(target), folderName);
  ensureFolder(folder, path);
  const names = new Map<Crop, string>();
  let bytes = 0;
  for (const section of report.sections) {
    for (const crop of section.crops) {
      const name = `${createHash("sha256").update(crop.png).digest("hex").slice(0, 20)}.png`;
      names.set(crop, name);
      if (!existsSync(join(folder, name))) {
        writeOutputAtomic(join(folder, name), crop.png);
        bytes += crop.png.byteLength;
      }
    }
  }
  const html = renderReportHtml(report, {
    order: options.order,
    imageHref: (crop) => `${encodeURIComponent(folderName)}/${names.get(crop)}`,
  });
  writeOutputAtomic(path, html);
  const linked = new Set(names.values());
  for (const f of readdirSync(folder)) {
    if (f.endsWith(".png") && !linked.has(f)) rmSync(join(folder, f), { force: true });
  }
  return { path: target, bytes: Buffer.byteLength(html), images: { folder, files: linked.size, bytes } };
}

function ensureFolder(folder: string, path: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code ?? "unknown error";
    throw new CiteproofError(
      "OUTPUT_UNWRITABLE",
      `cannot write the images of ${path} into ${folder} (${code})`,
    );
  }
}

export function writeOutputAtomic(path: string, data: string | Uint8Array): void {
  const target = resolve(path);
  const folder = dirname(target);
  if (existsAsDirectory(target)) {
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${path}: it is a directory`);
  }
  try {
    replaceFile(target, data);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    const why =
      code === "ENOENT" || code === "ENOTDIR"
        ? `the folder ${folder} does not exist`
        : code === "EACCES" || code === "EPERM" || code === "EROFS"
          ? `permission denied (${code})`
          : (code ?? "unknown error");
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${path}: ${why}`);
  }
}

function existsAsDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
