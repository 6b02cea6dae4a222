// The plain baseline for a typical check: for each cited page, `pdftotext -f N -l N` prints its text
// and each quotation cited there is looked for in it as a substring (case and runs of white space
// folded). Prints how many were found. What a careful script does without citeproof.
// Usage: node pdftotext-substring.mjs <pdf> <evidence.json>
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const [pdf, evidencePath] = process.argv.slice(2);
const fold = (text) => text.replace(/\s+/g, " ").toLowerCase();
const byPage = new Map();
for (const r of JSON.parse(readFileSync(evidencePath, "utf8"))) {
  if (!byPage.has(r.page)) byPage.set(r.page, []);
  byPage.get(r.page).push(fold(r.text));
}
let found = 0;
for (const [page, quotes] of byPage) {
  const text = fold(
    execFileSync("pdftotext", ["-q", "-enc", "UTF-8", "-f", String(page), "-l", String(page), pdf, "-"], {
      encoding: "utf8",
    }),
  );
  for (const q of quotes) if (text.includes(q)) found++;
}
process.stdout.write(`${found}\n`);
