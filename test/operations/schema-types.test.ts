// Every operation's schema, fed a wrong type for each field (top-level and nested), refuses it with a
// coded error whose path names the field, spelt one way: `citations[0].bounding_box.left`.
import { describe, expect, it } from "vitest";
import { CiteproofError } from "../../src/errors.js";
import { OPERATIONS } from "../../src/operations/index.js";
import type { InputSchema } from "../../src/operations/operation.js";
import { toolInputSchema } from "../../src/operations/tool-schema.js";
import { parseInput } from "../../src/util/parse-input.js";

type Json = Record<string, unknown>;

/** A valid value for a JSON Schema node, so one field at a time can be made wrong. */
function valid(node: Json): unknown {
  if (Array.isArray(node.enum)) return node.enum[0];
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.anyOf)) return valid(node.anyOf[0] as Json);
  if (Array.isArray(node.oneOf)) return valid(node.oneOf[0] as Json);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case "string":
      return "x".repeat(Math.max(1, Number(node.minLength ?? 1)));
    case "integer":
    case "number":
      return Number(node.minimum ?? 1);
    case "array":
      return [valid(node.items as Json)];
    case "object":
      return Object.fromEntries(
        Object.entries((node.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, valid(v)]),
      );
    default:
      return true;
  }
}

/** A value of another JSON type than the node allows. */
function wrongType(node: Json): unknown {
  const types = new Set(
    Array.isArray(node.anyOf)
      ? (node.anyOf as Json[]).flatMap((n) => n.type as string)
      : [node.type as string].flat(),
  );
  if (!types.has("string")) return "not the right type";
  if (!types.has("array")) return [1, 2];
  return { wrong: true };
}

/** Every field path (top-level and nested, arrays by their first item) with its schema node. */
function fields(node: Json, at: (string | number)[] = []): [(string | number)[], Json][] {
  const out: [(string | number)[], Json][] = [];
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
    const path = [...at, key];
    out.push([path, child]);
    if (child.type === "object") out.push(...fields(child, path));
    // An array of a union told apart by a field (evidence records): its first member stands for it.
    const items = child.type === "array" ? (child.items as Json | undefined) : undefined;
    const item = Array.isArray(items?.oneOf) ? (items.oneOf[0] as Json) : items;
    if (item?.type === "object") out.push(...fields(item, [...path, 0]));
  }
  return out;
}

function setAt(value: Json, path: (string | number)[], leaf: unknown): Json {
  const copy = structuredClone(value);
  let here: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
  here[path.at(-1)!] = leaf;
  return copy;
}

const spelt = (path: (string | number)[]) =>
  path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("");

describe("schemas refuse a wrong type in every field", async () => {
  const schemas: [string, InputSchema<unknown>][] = await Promise.all(
    OPERATIONS.map(async (op) => [op.name, await op.schema()] as [string, InputSchema<unknown>]),
  );

  it.each(schemas)("%s: a valid input passes the schema", (name, schema) => {
    const json = toolInputSchema(schema) as Json;
    expect(() => parseInput(name, schema, valid(json))).not.toThrow();
  });

  it.each(schemas)("%s: each field of the wrong type is a coded error naming its path", (name, schema) => {
    const json = toolInputSchema(schema) as Json;
    const base = valid(json) as Json;
    const checked = fields(json);
    expect(checked.length).toBeGreaterThan(0);
    for (const [path, node] of checked) {
      let error: unknown;
      try {
        parseInput(name, schema, setAt(base, path, wrongType(node)));
      } catch (e) {
        error = e;
      }
      expect(error, `${name} ${spelt(path)}`).toBeInstanceOf(CiteproofError);
      const coded = error as CiteproofError;
      const top = String(path[0]);
      const expected = (schema.fieldCodes as Record<string, string> | undefined)?.[top] ?? "USAGE";
      expect([coded.code, coded.details?.path], `${name} ${spelt(path)}: ${coded.message}`).toEqual([
        expected,
        spelt(path),
      ]);
      expect(coded.message).toContain(`"${spelt(path)}"`);
    }
  });

  it.each(schemas)("%s: an unknown field is refused by name, at the top and inside", (name, schema) => {
    const json = toolInputSchema(schema) as Json;
    const base = valid(json) as Json;
    expect(() => parseInput(name, schema, { ...base, no_such_field: 1 })).toThrow(/"no_such_field"/);
    for (const [path, node] of fields(json).filter(([, n]) => n.type === "object")) {
      const inner = setAt(base, path, { ...(valid(node) as Json), no_such_field: 1 });
      expect(() => parseInput(name, schema, inner), spelt(path)).toThrow(`"${spelt(path)}.no_such_field"`);
    }
  });

  it("every tool schema is a plain object schema agent hosts accept (no top-level oneOf or anyOf)", () => {
    for (const [, schema] of schemas) {
      const json = toolInputSchema(schema) as Json;
      expect(json.type).toBe("object");
      expect(json.additionalProperties).toBe(false);
      for (const keyword of ["oneOf", "anyOf", "allOf", "$schema"]) expect(json).not.toHaveProperty(keyword);
    }
  });
});
