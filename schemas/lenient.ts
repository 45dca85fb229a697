/**
 * The copy of a parameter schema Pi validates before `execute`. Pi answers a
 * mismatch with its own text and no `details`, so Pi gets the shape (what the
 * model needs to form a call, and Pi's argument conversion relies on) and
 * every limit is left to the tool's check, whose failure carries an error
 * category. Allowed values stay readable in the description (`a|b|c`).
 */
import type { TSchema } from "typebox";

/** Keywords only the tool's own check applies. */
const LIMIT_KEYWORDS = new Set([
  ..."minLength maxLength minItems maxItems minimum maximum exclusiveMinimum exclusiveMaximum".split(" "),
  ..."pattern format additionalProperties enum const uniqueItems".split(" "),
]);

// Known by JSON, not by object: TypeBox may copy a schema it wraps (Pi 1.6's copies what `Type.Optional` is given).
// Filed under their type and description, so that only a node that shares both is stringified (every node
// stringified, subtree by subtree, was most of the extension's load).
const SHORT_FORMS = new Map<string, Array<{ json: string; short: Record<string, unknown> }>>();
const filing = (node: Record<string, unknown>) => `${String(node.type)}\0${String(node.description)}`;

/** Declare `schema` to Pi as `short` wherever it appears: it must accept at least what the folded arguments hold. */
export function declareAs<T extends TSchema>(schema: T, short: Record<string, unknown>): T {
  const key = filing(schema as Record<string, unknown>);
  SHORT_FORMS.set(key, [...(SHORT_FORMS.get(key) ?? []), { json: JSON.stringify(schema), short }]);
  return schema;
}

function shortFormOf(node: Record<string, unknown>): Record<string, unknown> | undefined {
  const filed = SHORT_FORMS.get(filing(node));
  if (!filed) return undefined;
  const json = JSON.stringify(node);
  return filed.find((f) => f.json === json)?.short;
}

export function lenientSchema(schema: TSchema): TSchema {
  return loosen(schema) as TSchema;
}

function loosen(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(loosen);
  if (!node || typeof node !== "object") return node;
  const source = node as Record<string, unknown>;
  const short = shortFormOf(source);
  if (short) return short;
  if (Array.isArray(source.type) && source.type.length > 1 && source.type.includes("string"))
    return typeof source.description === "string"
      ? { type: source.type, description: source.description }
      : { type: source.type };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (LIMIT_KEYWORDS.has(key)) continue;
    // Property names are data, not keywords: keep every one, loosen each schema.
    out[key] = key === "properties" ? loosenEach(value) : loosen(value);
  }
  if (Array.isArray(source.enum) && !mentionsAll(String(out.description ?? ""), source.enum)) {
    const values = source.enum.map(String).join("|");
    out.description = typeof out.description === "string" ? `${values}; ${out.description}` : values;
  }
  if (Array.isArray(source.enum) && out.type === undefined) {
    const types = [...new Set(source.enum.map((v) => typeof v))];
    if (types.length === 1 && (types[0] === "string" || types[0] === "number" || types[0] === "boolean"))
      out.type = types[0];
  }
  return out;
}

/** A property accepted, not declared: each declared property costs every request its JSON. */
export const UNDECLARED = { readOnly: true } as const;

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
