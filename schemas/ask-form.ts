/**
 * Parameters of `ask_form`: `{title?, message, schema}`, `schema` a form-mode
 * `requestedSchema` of MCP elicitation. Models also send it as
 * `requestedSchema` or as a JSON string: the folds make it `schema`.
 */
import { Type } from "typebox";
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

export function schemaFromRequestedSchema(args: unknown): Folded {
  if (!isRecord(args) || "schema" in args || !("requestedSchema" in args)) return { args, aliases: [] };
  const { requestedSchema, ...rest } = args;
  return { args: { ...rest, schema: requestedSchema }, aliases: [["schema", "requestedSchema"]] };
}

/** A string that is not a JSON object is left for the check to refuse. */
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

/** Pi's `prepareArguments` and the check run the same folds, in this order. */
export const ASK_FORM_FOLDS = [schemaFromRequestedSchema, schemaFromJsonString] as const;
