import { readFileSync } from "node:fs";
import ts from "typescript";

/** The regular expression literals written in a source file, as their pattern and flags. */
export function regexLiterals(file: string): { source: string; flags: string }[] {
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: { source: string; flags: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(sf);
      const end = text.lastIndexOf("/");
      found.push({ source: text.slice(1, end), flags: text.slice(end + 1) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Whether a pattern repeats anything without an upper bound (`*`, `+`, `{n,}`) outside a class. */
export function hasUnboundedRepeat(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") inClass = true;
    else if (ch === "*" || ch === "+") return true;
    else if (ch === "{" && /^\{\d+,\}/u.test(source.slice(i))) return true;
  }
  return false;
}
