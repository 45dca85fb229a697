/**
 * Parameters of `ask_form`: `{title?, message, schema}`, where `schema` is a
 * form-mode `requestedSchema` of MCP elicitation (schemas/elicit.ts).
 *
 * The outer shape is checked by ajv; the schema itself by the subset check,
 * whose errors name the property and the keyword. Models sometimes send the
 * schema under MCP's name `requestedSchema` or as a JSON string: folds
 * (schemas/aliases.ts) make it `schema` before Pi checks the call, and an
 * error names the field as written (`requestedSchema.properties.when.format`).
 */
import { type Static, Type } from "typebox";
import type { Folded } from "./aliases.js";
import { isRecord, LIMITS, TimeoutWithoutOptions } from "./fields.js";

const FIELD_SHAPES =
  "Flat fields: string (minLength, maxLength, pattern, format email|uri|date|date-time), number|integer " +
  "(minimum, maximum), boolean, a choice (enum, or oneOf [{const, title}]), several (array of enum or " +
  "anyOf [{const, title}], minItems, maxItems); each with title, description, default";

export const AskFormParameters = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: LIMITS.title })),
    message: Type.String({ minLength: 1, maxLength: LIMITS.prompt, description: "What it is for" }),
    schema: Type.Object(
      {
        type: Type.Literal("object"),
        properties: Type.Unsafe<Record<string, unknown>>({ type: "object", description: FIELD_SHAPES }),
        required: Type.Optional(Type.Array(Type.String())),
      },
      { description: "JSON Schema, MCP elicitation's form subset" },
    ),
    timeout: TimeoutWithoutOptions,
  },
  { additionalProperties: false },
);

export type AskFormArgs = Static<typeof AskFormParameters>;

/** MCP's name `requestedSchema` for `schema` (when no `schema` is given). */
export function schemaFromRequestedSchema(args: unknown): Folded {
  if (!isRecord(args) || "schema" in args || !("requestedSchema" in args)) return { args, aliases: [] };
  const { requestedSchema, ...rest } = args;
  return { args: { ...rest, schema: requestedSchema }, aliases: [["schema", "requestedSchema"]] };
}

/**
 * The schema written as a JSON string, parsed; a string that is not a JSON
 * object is left for the check to refuse. The field keeps its name.
 */
export function schemaFromJsonString(args: unknown): Folded {
  if (!isRecord(args) || typeof args.schema !== "string") return { args, aliases: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args.schema);
  } catch {
    return { args, aliases: [] };
  }
  return isRecord(parsed) ? { args: { ...args, schema: parsed }, aliases: [] } : { args, aliases: [] };
}

/** The folds of `ask_form`, in order: Pi's `prepareArguments` and the check run the same ones. */
export const ASK_FORM_FOLDS = [schemaFromRequestedSchema, schemaFromJsonString] as const;
