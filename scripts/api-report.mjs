#!/usr/bin/env node
// The API report: the public types pinned. Reads the built entry's declarations (dist/index.d.ts) with the
// TypeScript compiler and writes every exported declaration, and every declaration of the package's own that
// they reach (a parameter's interface, a union a field names), printed alike, sorted by name, into
// etc/citeproof.api.md. test/api/api-report.test.ts fails when the committed report differs from the build's:
// a change to the public types is then made on purpose, by writing the report again.
//
// Usage: node scripts/api-report.mjs [--check]   (after npm run build; --check exits 1 on a difference)
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
export const REPORT = join(root, "etc", "citeproof.api.md");

/** The report's text for the declarations under `dist` (the folder holding index.d.ts). */
export function apiReport(dist = join(root, "dist")) {
  const entry = join(dist, "index.d.ts");
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`api report: no ${entry}; run npm run build first`);
  const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
  const ours = (file) => file.fileName.startsWith(dist + sep) || file.fileName.startsWith(`${dist}/`);
  const resolved = (symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

  /** name -> { where, exported, text } */
  const entries = new Map();
  const pending = [];
  const take = (symbol, exportedAs) => {
    const target = resolved(symbol);
    const declarations = (target.declarations ?? []).filter((d) => ours(d.getSourceFile()));
    if (declarations.length === 0) return;
    const where = relative(dist, declarations[0].getSourceFile().fileName).split(sep).join("/");
    const key = exportedAs ?? `${where}#${target.getName()}`;
    if (entries.has(key)) return;
    const text = declarations
      .map((d) => printer.printNode(ts.EmitHint.Unspecified, inOneOrder(statementOf(d)), d.getSourceFile()))
      .join("\n");
    entries.set(key, { where, exported: exportedAs !== undefined, name: target.getName(), text });
    for (const d of declarations) pending.push(d);
  };
  for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(source)))
    take(symbol, symbol.getName());
  const exportedTargets = new Set(
    checker.getExportsOfModule(checker.getSymbolAtLocation(source)).map((s) => resolved(s)),
  );
  // The package's own declarations the exported ones reach, not exported under a name of their own.
  while (pending.length > 0) {
    const node = pending.pop();
    const visit = (child) => {
      if (
        ts.isTypeReferenceNode(child) ||
        ts.isExpressionWithTypeArguments(child) ||
        ts.isTypeQueryNode(child)
      ) {
        const name = ts.isTypeReferenceNode(child)
          ? child.typeName
          : ts.isTypeQueryNode(child)
            ? child.exprName
            : child.expression;
        const symbol = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name);
        if (symbol && !exportedTargets.has(resolved(symbol))) take(symbol);
      }
      ts.forEachChild(child, visit);
    };
    ts.forEachChild(node, visit);
  }
  const sorted = [...entries.values()].sort(
    (a, b) =>
      Number(b.exported) - Number(a.exported) ||
      a.name.localeCompare(b.name) ||
      a.where.localeCompare(b.where),
  );
  const lines = [
    "# citeproof: API report",
    "",
    "The public types of the package's entry (`dist/index.d.ts`), written by `node scripts/api-report.mjs`",
    "after `npm run build`; `test/api/api-report.test.ts` fails when the build's differ. Exported declarations",
    "come first, then the package's own declarations they reach (with the module that declares them).",
    "",
    "```ts",
  ];
  let reached = false;
  for (const entry of sorted) {
    if (!entry.exported && !reached) {
      lines.push("// ---- reached from the exports, not exported by name ----", "");
      reached = true;
    }
    if (!entry.exported) lines.push(`// ${entry.where}`);
    lines.push(entry.text, "");
  }
  lines.push("```", "");
  return lines.join("\n");
}

/**
 * The declaration with its unions' members, and the `{ a: "a"; b: "b" }` objects zod's enums infer, in one
 * order (by their text): tsc emits an inferred union's members in the order their types were first met, which an incremental
 * build changes, so the report would differ between two builds of the same code.
 */
function inOneOrder(statement) {
  const keyOf = (node) => printer0.printNode(ts.EmitHint.Unspecified, node, statement.getSourceFile());
  const enumLike = (node) =>
    node.members.length > 1 &&
    node.members.every(
      (m) =>
        ts.isPropertySignature(m) &&
        m.type &&
        ts.isLiteralTypeNode(m.type) &&
        ts.isStringLiteral(m.type.literal) &&
        m.type.literal.text ===
          (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : undefined),
    );
  const byName = (a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0);
  const result = ts.transform(statement, [
    (context) => {
      const visit = (node) => {
        const visited = ts.visitEachChild(node, visit, context);
        if (ts.isUnionTypeNode(visited))
          return ts.factory.updateUnionTypeNode(
            visited,
            ts.factory.createNodeArray([...visited.types].sort(byName)),
          );
        if (ts.isTypeLiteralNode(visited) && enumLike(visited))
          return ts.factory.updateTypeLiteralNode(
            visited,
            ts.factory.createNodeArray([...visited.members].sort(byName)),
          );
        return visited;
      };
      return (node) => ts.visitNode(node, visit);
    },
  ]);
  return result.transformed[0];
}
const printer0 = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The statement that declares a node (a variable's declaration list, not the bare declarator). */
function statementOf(node) {
  let n = node;
  while (n.parent && !ts.isSourceFile(n.parent) && !ts.isModuleBlock(n.parent)) n = n.parent;
  return n;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = apiReport();
  if (process.argv.includes("--check")) {
    let committed = "";
    try {
      committed = readFileSync(REPORT, "utf8");
    } catch {}
    if (committed !== text) {
      process.stderr.write(
        "api report: the public types differ from etc/citeproof.api.md; run node scripts/api-report.mjs\n",
      );
      process.exit(1);
    }
  } else writeFileSync(REPORT, text);
}
