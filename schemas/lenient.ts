/**
 * The copy of a parameter schema Pi validates before `execute`.
 *
 * Pi checks a tool's arguments against its declared schema before the tool
 * runs, and answers a mismatch with its own text and no `details`. So Pi gets
 * the shape (types, properties, which fields are required: what the model
 * needs to form a call, and what Pi's argument conversion relies on) while
 * every limit (lengths, counts, ranges, allowed values, unknown properties)
 * is checked by ajv inside the tool, whose failure carries an error category
 * and the tool's `details`. Allowed values stay readable in the description.
 */
import type { TSchema } from "typebox";

/** Keywords only the tool's own check applies. */
const LIMIT_KEYWORDS = new Set([
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "pattern",
  "format",
  "additionalProperties",
  "enum",
  "const",
  "uniqueItems",
]);

export function lenientSchema(schema: TSchema): TSchema {
  return loosen(schema) as TSchema;
}

function loosen(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(loosen);
  if (!node || typeof node !== "object") return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (LIMIT_KEYWORDS.has(key)) continue;
    // Property names are data, not keywords: keep every one, loosen each schema.
    out[key] = key === "properties" ? loosenEach(value) : loosen(value);
  }
  if (Array.isArray(source.enum) && typeof out.description === "string" && !mentionsAll(out.description, source.enum)) {
    out.description = `${out.description} (one of: ${source.enum.map(String).join(", ")})`;
  }
  if (Array.isArray(source.enum) && out.type === undefined) {
    const types = [...new Set(source.enum.map((v) => typeof v))];
    if (types.length === 1 && (types[0] === "string" || types[0] === "number" || types[0] === "boolean"))
      out.type = types[0];
  }
  return out;
}

/** Every property loosened; a `readOnly` one (set by the tool's own argument folds) is not declared at all. */
function loosenEach(properties: unknown): unknown {
  if (!properties || typeof properties !== "object") return properties;
  return Object.fromEntries(
    Object.entries(properties as Record<string, unknown>)
      .filter(([, v]) => !(v && typeof v === "object" && (v as { readOnly?: unknown }).readOnly === true))
      .map(([k, v]) => [k, loosen(v)]),
  );
}

function mentionsAll(text: string, values: unknown[]): boolean {
  return values.every((v) => text.includes(String(v)));
}
