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

// The validators are made on the first check, not when Pi loads the
// extension: the build ships them compiled ahead of time (precompiled.ts,
// which the engine hands over when it loads: usePrecompiled); from the
// sources, ajv is loaded and compiles them then.
const require = createRequire(import.meta.url);

/** The options every validator is compiled with, at run time and ahead of time alike. */
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

/** Validators compiled ahead of time, by their schema's JSON: none until the engine hands over the build's. */
let precompiled: (schemaJson: string) => ValidateFunction | undefined = () => undefined;

/** Look validators up in `lookup` before compiling any (schemas/precompiled.ts, as the build makes it). */
export function usePrecompiled(lookup: typeof precompiled): void {
  precompiled = lookup;
}

/** Every schema a checker has been made for: what the build compiles ahead of time. */
export function schemasToPrecompile(): readonly TSchema[] {
  return checkedSchemas;
}

/** A checker for a schema, made on first use; it reports the first few problems. */
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

/** Messages without repeats, the first `limit` of them, and how many more there were: `a; b (and 3 more)`. */
export function listed(messages: string[], limit: number): string {
  const unique = [...new Set(messages)];
  const more = unique.length > limit ? ` (and ${unique.length - limit} more)` : "";
  return unique.slice(0, limit).join("; ") + more;
}

function describeErrors(errors: ErrorObject[]): string {
  return `Invalid arguments: ${listed(errors.map(describe), 5)}`;
}
