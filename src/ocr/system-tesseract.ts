/**
 * The system's `tesseract` program (Tesseract's own command line, as distributions package it) run
 * as a child process: never through a shell, its arguments as an argv, its thread count set in its
 * own environment only (OMP_THREAD_LIMIT), its output bounded, and killed when the deadline passes.
 * It reads the same LSTM model file as the tesseract.js path, unpacked into the session's own
 * temporary folder, in the same page segmentation modes, so both engines read alike.
 */
import { execFileSync, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, isAbsolute, join } from "node:path";
import { CiteproofError } from "../errors.js";
import { wordsFromTsv } from "./tsv.js";

/** Where the program is and the version it reports. */
export interface SystemTesseract {
  path: string;
  version: string;
}

/** The largest TSV a batch may print, and stderr kept for a message. */
const MAX_STDOUT_BYTES = 64 * 1024 * 1024;
const MAX_STDERR_BYTES = 64 * 1024;

const found = new Map<string, SystemTesseract | null>();

/**
 * The `tesseract` program on `searchPath` (the PATH's folders), when it runs and reports a version
 * of 4 or later (the LSTM engine); undefined otherwise. Probed once per PATH value.
 */
export function findSystemTesseract(searchPath: string | undefined): SystemTesseract | undefined {
  const key = searchPath ?? "";
  if (found.has(key)) return found.get(key) ?? undefined;
  let result: SystemTesseract | null = null;
  for (const dir of key.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const path = join(dir, "tesseract");
    try {
      accessSync(path, constants.X_OK);
    } catch {
      continue;
    }
    try {
      const out = execFileSync(path, ["--version"], {
        encoding: "utf8",
        timeout: 10_000,
        maxBuffer: 64 * 1024,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const version = /^tesseract\s+v?(\d+)\.(\d+)\.(\d+)\S*/m.exec(out);
      if (version && Number(version[1]) >= 4) result = { path, version: version[0].split(/\s+/)[1] };
    } catch {
      // A program that does not run is no engine.
    }
    break;
  }
  found.set(key, result);
  return result ?? undefined;
}

/** How the program reads its images: Tesseract's page segmentation mode, and the characters allowed. */
export interface SystemReading {
  psm: "6" | "7";
  whitelist?: string;
}

/** A folder of the session's own: the model unpacked, and the images of each batch. */
export class SystemTesseractRun {
  private folder: string | undefined;
  private serial = 0;

  constructor(
    private readonly program: SystemTesseract,
    /** The model file, unpacked. */
    private readonly model: () => Buffer,
    private readonly reading: SystemReading,
  ) {}

  /**
   * The words of each PNG, read by one process within `timeoutMs` (killed at expiry: an
   * EXTRACTION_TIMEOUT). `threads` is the process's OpenMP thread limit.
   */
  async recognize(pngs: readonly Uint8Array[], timeoutMs: number, threads = 1) {
    const folder = this.workFolder();
    const batch = this.serial++;
    const paths = pngs.map((png, i) => {
      const path = join(folder, `b${batch}-${i}.png`);
      writeFileSync(path, png);
      return path;
    });
    const list = join(folder, `b${batch}.txt`);
    writeFileSync(list, `${paths.join("\n")}\n`);
    const args = [
      list,
      "stdout",
      "--tessdata-dir",
      folder,
      "--oem",
      "1",
      "--psm",
      this.reading.psm,
      "-l",
      "eng",
      "-c",
      "tessedit_create_tsv=1",
      "-c",
      "tessedit_create_txt=0",
      ...(this.reading.whitelist ? ["-c", `tessedit_char_whitelist=${this.reading.whitelist}`] : []),
    ];
    try {
      const tsv = await this.run(args, timeoutMs, threads);
      return wordsFromTsv(tsv, pngs.length);
    } finally {
      for (const path of [...paths, list]) rmSync(path, { force: true });
    }
  }

  close(): void {
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }

  private workFolder(): string {
    if (this.folder) return this.folder;
    const folder = mkdtempSync(join(tmpdir(), "citeproof-ocr-"));
    try {
      writeFileSync(join(folder, "eng.traineddata"), this.model(), { mode: 0o600 });
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    this.folder = folder;
    return folder;
  }

  private run(args: string[], timeoutMs: number, threads: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.program.path, args, {
        shell: false,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, OMP_THREAD_LIMIT: String(Math.max(1, threads)) },
      });
      const out: Buffer[] = [];
      let outBytes = 0;
      let err = "";
      let failure: CiteproofError | undefined;
      const stop = (error: CiteproofError) => {
        failure ??= error;
        child.kill("SIGKILL");
      };
      const timer = setTimeout(
        () => stop(new CiteproofError("EXTRACTION_TIMEOUT", `OCR did not finish within ${timeoutMs} ms`)),
        Math.max(1, timeoutMs),
      );
      child.stdout.on("data", (chunk: Buffer) => {
        outBytes += chunk.length;
        if (outBytes > MAX_STDOUT_BYTES)
          stop(new CiteproofError("OCR_UNAVAILABLE", `OCR printed more than ${MAX_STDOUT_BYTES} bytes`));
        else out.push(chunk);
      });
      child.stderr.on("data", (chunk: Buffer) => {
        if (err.length < MAX_STDERR_BYTES) err += chunk.toString("utf8");
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(
          new CiteproofError("OCR_UNAVAILABLE", `OCR could not start ${this.program.path}: ${error.message}`),
        );
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        if (failure) reject(failure);
        else if (code !== 0) {
          const said = err
            .split("\n")
            .filter((l) => l.trim() !== "" && !/^Page \d+ : /.test(l))
            .slice(0, 2)
            .join("; ");
          reject(
            new CiteproofError(
              "OCR_UNAVAILABLE",
              `OCR failed: ${this.program.path} exited with ${code ?? signal}${said ? `: ${said}` : ""}`,
            ),
          );
        } else resolve(Buffer.concat(out).toString("utf8"));
      });
    });
  }
}
