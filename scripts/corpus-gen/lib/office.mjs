// Office documents for the generated corpus: a flat OpenDocument text (.fodt) written by a template,
// converted by LibreOffice headless to PDF directly or by way of .docx (Word's format, read back in).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function hasSoffice() {
  try {
    execFileSync("sh", ["-c", "command -v soffice"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** LibreOffice's conversion of `file` to the format `to`, written into `work` (profile: a fresh user folder). */
export function convert(work, file, to, profile) {
  execFileSync(
    "soffice",
    [`-env:UserInstallation=file://${profile}`, "--headless", "--convert-to", to, "--outdir", work, file],
    { cwd: work, stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 },
  );
}

/** Converts a .fodt to PDF, through .docx when `via` is "docx". Returns the PDF bytes. */
export function buildOffice(fodt, via) {
  const work = mkdtempSync(join(tmpdir(), "citeproof-gen-office-"));
  const profile = mkdtempSync(join(tmpdir(), "citeproof-gen-lo-profile-"));
  try {
    writeFileSync(join(work, "doc.fodt"), fodt);
    if (via === "docx") {
      convert(work, join(work, "doc.fodt"), "docx:MS Word 2007 XML", profile);
      const sub = join(work, "word");
      execFileSync("mkdir", ["-p", sub]);
      copyFileSync(join(work, "doc.docx"), join(sub, "doc.docx"));
      convert(sub, join(sub, "doc.docx"), "pdf", profile);
      return readFileSync(join(sub, "doc.pdf"));
    }
    convert(work, join(work, "doc.fodt"), "pdf", profile);
    const pdf = readdirSync(work).find((f) => f.endsWith(".pdf"));
    if (!pdf) throw new Error("soffice wrote no PDF");
    return readFileSync(join(work, pdf));
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}
