/**
 * Every error code is thrown somewhere in the code (a literal outside the list itself) and expected by at
 * least one test (named as a string literal or as `[CODE]` in a test file). Codes no other test reaches are
 * produced here; details render in each interface's terms.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  asCiteproofError,
  CiteproofError,
  ERROR_CODES,
  errorFacts,
  renderMessage,
} from "../../src/errors.js";
import { tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

const root = join(import.meta.dirname, "..", "..");

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path, ext) : ext.test(e.name) ? [path] : [];
  });
}

const scratch = tempDir("citeproof-codes-");
const cleanups: (() => void)[] = [() => scratch.remove()];
afterAll(() => {
  for (const clean of cleanups) clean();
});

function hasNodeModulesAbove(dir: string): boolean {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, "node_modules"))) return true;
    if (dirname(at) === at) return false;
  }
}

describe("error codes", () => {
  it("every code is thrown by the code and expected by a test", () => {
    const source = filesUnder("src", /\.ts$/)
      .filter((f) => f !== join("src", "errors.ts"))
      .map((f) => readFileSync(join(root, f), "utf8"))
      .join("\n");
    const tests = filesUnder("test", /\.(ts|mjs)$/)
      .map((f) => readFileSync(join(root, f), "utf8"))
      .join("\n");
    const silent = ERROR_CODES.filter((c) => !source.includes(`"${c}"`));
    expect(silent, `codes nothing throws: ${silent.join(", ")}`).toEqual([]);
    const untested = ERROR_CODES.filter((c) => !tests.includes(`"${c}"`) && !tests.includes(`[${c}]`));
    expect(untested, `codes no test produces: ${untested.join(", ")}`).toEqual([]);
  });

  it("INTERNAL: anything thrown that is not a coded error, first line only", () => {
    const coded = asCiteproofError(new Error("boom\n    at somewhere (file.js:1:1)"));
    expect([coded.code, coded.message]).toEqual(["INTERNAL", "internal error: boom"]);
  });

  it("SESSION_EXISTS: a session folder that already holds something else", () => {
    const dir = join(scratch.dir, "taken");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "not a session");
    const pdf = join(root, "test", "fixtures", "interfaces.pdf");
    const run = runCli(["session", "new", "taken", pdf, "--session", dir, "--json"], {
      env: { CITEPROOF_CACHE_DIR: join(scratch.dir, "cache") },
    });
    expect(run.status, run.stderr).toBe(2);
    expect((run.json as { error: { code: string } }).error.code).toBe("SESSION_EXISTS");
  });

  it("OCR_UNAVAILABLE: the built code where the OCR model package is not installed", () => {
    // A real install without the model: the built modules beside every dependency but that one.
    // Module resolution walks up the folders: the install must have no node_modules above it.
    const base = [tmpdir(), "/var/tmp", homedir()].find((dir) => !hasNodeModulesAbove(dir));
    if (base === undefined) return;
    const install = mkdtempSync(join(base, "citeproof-no-model-"));
    cleanups.push(() => rmSync(install, { recursive: true, force: true }));
    cpSync(join(root, "dist"), join(install, "dist"), { recursive: true });
    cpSync(join(root, "package.json"), join(install, "package.json"));
    mkdirSync(join(install, "node_modules"));
    for (const name of readdirSync(join(root, "node_modules")))
      if (name !== "@tesseract.js-data")
        symlinkSync(join(root, "node_modules", name), join(install, "node_modules", name));
    const code = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import(${JSON.stringify(join(install, "dist", "ocr", "tesseract.js"))}).then((m) => {
           try { m.ocrProvenance(); console.log("none"); } catch (e) { console.log(e.code); }
         });`,
      ],
      { encoding: "utf8" },
    ).trim();
    expect(code).toBe("OCR_UNAVAILABLE");
  });
});

describe("structured details", () => {
  const timeout = new CiteproofError("EXTRACTION_TIMEOUT", "extraction did not finish within 300 ms", {
    option: "timeout_ms",
    limit: 300,
  });

  it("each interface names the setting in its own terms", () => {
    expect(renderMessage(timeout, (o) => `--${o.replace(/_/g, "-")}`)).toBe(
      "extraction did not finish within 300 ms (--timeout-ms)",
    );
    expect(renderMessage(timeout, (o) => o)).toBe("extraction did not finish within 300 ms (timeout_ms)");
  });

  it("a hint is a sentence with the setting in it; a code may carry one always", () => {
    const denied = new CiteproofError("ACCESS_DENIED", "/x is outside the allowed roots (/r)", {
      option: "allow_root",
      hint: "add one with {option}",
    });
    expect(renderMessage(denied, () => "--allow-root")).toBe(
      "/x is outside the allowed roots (/r); add one with --allow-root",
    );
    const encrypted = new CiteproofError("ENCRYPTED_PDF", "the PDF is encrypted");
    expect(renderMessage(encrypted, () => "--password")).toBe(
      "the PDF is encrypted; give its password with --password",
    );
  });

  it("facts beyond the structural details are kept apart", () => {
    expect(errorFacts(timeout)).toBeUndefined();
    const http = new CiteproofError("URL_HTTP_ERROR", "x answered 404", {
      status: 404,
      url: "https://example.org/x",
      option: "timeout_ms",
    });
    expect(errorFacts(http)).toEqual({ status: 404, url: "https://example.org/x" });
  });
});
