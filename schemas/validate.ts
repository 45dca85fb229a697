// Checking tool arguments: one `ArgumentError`, a stable category and a message naming the field.
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

// Made on the first check: the build's, compiled ahead of time (usePrecompiled), or ajv's from the sources.
const require = createRequire(import.meta.url);

export const AJV_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true } as const;

let ajv: AjvType | undefined;
function getAjv(): AjvType {
  if (!ajv) {
    const { Ajv } = require("ajv") as typeof import("ajv");
    ajv = new Ajv(AJV_OPTIONS);
  }
  return ajv;
}

const checkedSchemas: TSchema[] = [];

let precompiled: (schemaJson: string) => ValidateFunction | undefined = () => undefined;

export function usePrecompiled(lookup: typeof precompiled): void {
  precompiled = lookup;
}

/** Every schema a checker has been made for: what the build compiles ahead of time. */
export function schemasToPrecompile(): readonly TSchema[] {
  return checkedSchemas;
}

export function compileChecker<S extends TSchema>(schema: S): (args: unknown) => Checked<Static<S>> {
  checkedSchemas.push(schema);
  let validate: ValidateFunction | undefined;
  return (args) => {
    validate ??= precompiled(JSON.stringify(schema)) ?? getAjv().compile(schema);
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

/** `a; b (and 3 more)` */
export function listed(messages: string[], limit: number): string {
  const unique = [...new Set(messages)];
  const more = unique.length > limit ? ` (and ${unique.length - limit} more)` : "";
  return unique.slice(0, limit).join("; ") + more;
}

function describeErrors(errors: ErrorObject[]): string {
  return `Invalid arguments: ${listed(errors.map(describe), 5)}`;
}
