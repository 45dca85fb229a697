/**
 * Parameters of `ask_form`: `{title?, message, schema}`, where `schema` is a
 * form-mode `requestedSchema` of MCP elicitation (schemas/elicit.ts).
 *
 * The outer shape is checked by ajv; the schema itself by the subset check,
 * whose errors name the property and the keyword. Models sometimes send the
 * schema as a JSON string or under MCP's name `requestedSchema`: both are
 * folded into `schema` before Pi checks the call.
 */
import { type Static, Type } from "typebox";
import { type CheckedSchema, checkRequestedSchema } from "./elicit.js";
import { LIMITS } from "./rules.js";
import { type Checked, compileChecker } from "./validate.js";

const FIELD_SHAPES =
  'Each property is one field: {"type":"string", title?, description?, minLength?, maxLength?, pattern? (RE2), ' +
  'format? ("email"|"uri"|"date"|"date-time"), default?}; {"type":"number"|"integer", title?, description?, ' +
  'minimum?, maximum?, default?}; {"type":"boolean", title?, description?, default?}; a single choice ' +
  '{"type":"string", "enum":[...]} or {"type":"string", "oneOf":[{"const":"value","title":"Shown text"}]}; ' +
  'a multiple choice {"type":"array", "items":{"type":"string","enum":[...]} or {"anyOf":[{"const","title"}]}, ' +
  "minItems?, maxItems?, default?}. No nested objects.";

export const AskFormParameters = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: LIMITS.title, description: "Short title shown above the form" })),
    message: Type.String({
      minLength: 1,
      maxLength: LIMITS.prompt,
      description: "What the information is for, shown to the user above the fields",
    }),
    schema: Type.Object(
      {
        type: Type.Literal("object", { description: 'Always "object"' }),
        properties: Type.Unsafe<Record<string, unknown>>({
          type: "object",
          description: `The fields, by name (the names are the keys of the returned values). ${FIELD_SHAPES}`,
        }),
        required: Type.Optional(Type.Array(Type.String(), { description: "Names of the fields that must be filled" })),
      },
      { description: "A flat JSON Schema object describing the values to collect (MCP elicitation's form subset)" },
    ),
  },
  { additionalProperties: false },
);

export type AskFormArgs = Static<typeof AskFormParameters>;

/** Checked arguments: the outer shape, and the schema read into fields. */
export interface CheckedAskForm {
  title?: string;
  message: string;
  form: CheckedSchema;
}

const checkShape = compileChecker(AskFormParameters);

/** `schema` given as a JSON string, or as `requestedSchema`: folded into `schema`; anything else unchanged. */
export function foldSchemaArgument(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const args = { ...(raw as Record<string, unknown>) };
  if (args.schema === undefined && args.requestedSchema !== undefined) {
    args.schema = args.requestedSchema;
    delete args.requestedSchema;
  }
  if (typeof args.schema === "string") {
    try {
      const parsed: unknown = JSON.parse(args.schema);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) args.schema = parsed;
    } catch {
      // Left as a string for the check to refuse with its own message.
    }
  }
  return args;
}

export function checkAskFormArgs(raw: unknown): Checked<CheckedAskForm> {
  const shape = checkShape(foldSchemaArgument(raw));
  if (!shape.ok) return shape;
  const form = checkRequestedSchema(shape.value.schema, "schema");
  if (!form.ok) return form;
  const value: CheckedAskForm = { message: shape.value.message, form: form.value };
  if (shape.value.title !== undefined) value.title = shape.value.title;
  return { ok: true, value };
}
