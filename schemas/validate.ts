/**
 * Checking tool arguments: JSON Schema through ajv, then the rules a schema
 * cannot state. Either way the caller gets one `ArgumentError` with a stable
 * category and a message that names the field and the problem.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvType, ErrorObject, ValidateFunction } from "ajv";
import type { Static, TSchema } from "typebox";

export type ErrorCategory =
  | "invalid_arguments"
  | "empty_questionnaire"
  | "too_many_questions"
  | "duplicate_id"
  | "duplicate_prompt"
  | "too_few_options"
  | "reserved_label"
  | "duplicate_option"
  | "invalid_condition"
  | "invalid_pattern"
  | "unsupported_schema"
  | "invalid_schema";

export interface ArgumentError {
  category: ErrorCategory;
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: ArgumentError };

// ajv and the compiled validators are loaded on the first check, not when Pi
// loads the extension: start-up stays fast, the first tool call pays once.
const require = createRequire(import.meta.url);
let ajv: AjvType | undefined;
function getAjv(): AjvType {
  if (!ajv) {
    const { Ajv } = require("ajv") as typeof import("ajv");
    ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  }
  return ajv;
}

/** A checker for a schema, compiled on first use; it reports the first few problems. */
export function compileChecker<S extends TSchema>(schema: S): (args: unknown) => Checked<Static<S>> {
  let validate: ValidateFunction | undefined;
  return (args) => {
    validate ??= getAjv().compile(schema);
    if (validate(args)) return { ok: true, value: args as Static<S> };
    return { ok: false, error: { category: "invalid_arguments", message: describeErrors(validate.errors ?? []) } };
  };
}

/** `/questions/0/options` → `questions[0].options` */
export function fieldPath(pointer: string): string {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out = "";
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  return out || "arguments";
}

function describe(e: ErrorObject): string {
  const at = fieldPath(e.instancePath);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return `${at}: missing required property "${params.missingProperty}"`;
    case "additionalProperties":
      return `${at}: unknown property "${params.additionalProperty}"`;
    case "type":
      return `${at}: must be ${params.type}`;
    case "enum":
      return `${at}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "minItems":
      return `${at}: must have at least ${params.limit} item${params.limit === 1 ? "" : "s"}`;
    case "maxItems":
      return `${at}: must have at most ${params.limit} items`;
    case "minLength":
      return `${at}: must not be empty`;
    case "maxLength":
      return `${at}: must be at most ${params.limit} characters`;
    default:
      return `${at}: ${e.message ?? "is invalid"}`;
  }
}

function describeErrors(errors: ErrorObject[]): string {
  const unique = [...new Set(errors.map(describe))];
  const shown = unique.slice(0, 5);
  const more = unique.length > shown.length ? ` (and ${unique.length - shown.length} more)` : "";
  return `Invalid arguments: ${shown.join("; ")}${more}`;
}
