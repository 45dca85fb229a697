/**
 * The check of a requested schema against MCP elicitation's form subset
 * (protocol 2025-11-25, plus `pattern` on strings; the types are
 * elicit-types.ts, each property read by elicit-fields.ts), and of what a
 * form returns against it.
 *
 * Contract: outside the subset is `unsupported_schema`, naming the property
 * and keyword; against the JSON Schema 2020-12 meta-schema, or what no answer
 * could satisfy (a default outside its field's rules, a minimum above the
 * maximum, more choices required than offered, a `required` name with no
 * property, repeated values), `invalid_schema`; a pattern RE2 cannot run,
 * `invalid_pattern`; more than a form holds, `too_many_questions`. Content
 * that does not match its schema is a bug and throws.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvType, ErrorObject, ValidateFunction } from "ajv";
import { isRecord, LIMITS } from "./fields.js";
import { TEXT_FORMATS } from "./formats.js";
import { compilePattern } from "./patterns.js";
import { type ArgumentError, type Checked, fieldPath, listed } from "./validate.js";

export type {
  CheckedSchema,
  ElicitContent,
  ElicitField,
  ElicitRequestInput,
  FieldOption,
  FieldValue,
  PrimitiveSchemaDefinition,
  RequestedSchema,
} from "./elicit-types.js";
export { MAX_FIELDS } from "./elicit-types.js";

import { fail, join, propertyPath, readField, TOP_KEYWORDS } from "./elicit-fields.js";
import { type CheckedSchema, type ElicitContent, type ElicitField, errorLine, MAX_FIELDS } from "./elicit-types.js";

type Json = Record<string, unknown>;

const require = createRequire(import.meta.url);
let ajv: AjvType | undefined;

/** RE2 as ajv's regular expression engine: the same matching the form applies, in linear time. */
function re2Engine() {
  const engine = (source: string) => {
    const compiled = compilePattern(source);
    if (!compiled.ok) throw new Error(`pattern ${source}: ${compiled.reason}`);
    // ajv keys compiled patterns on their string form: each must have its own.
    // A text too long to check is refused, as the form refuses it.
    return { test: (text: string) => compiled.pattern.test(text) === true, toString: () => `/${source}/re2` };
  };
  return Object.assign(engine, { code: "re2js" });
}

function getAjv(): AjvType {
  if (!ajv) {
    const { Ajv2020 } = require("ajv/dist/2020") as typeof import("ajv/dist/2020.js");
    const addFormats = require("ajv-formats") as typeof import("ajv-formats").default;
    // ownProperties: a field named like an Object.prototype member ("constructor") is absent when unanswered.
    const instance = new Ajv2020({ allErrors: true, strict: true, ownProperties: true, code: { regExp: re2Engine() } });
    addFormats(instance, { mode: "full", formats: [...TEXT_FORMATS] });
    // Legacy MCP titles for `enum` values: an annotation, nothing to validate.
    instance.addKeyword({ keyword: "enumNames", schemaType: "array" });
    ajv = instance;
  }
  return ajv;
}

function describeAjv(errors: ErrorObject[], root: string): string {
  return listed(
    errors.map((e) => `${join(root, fieldPath(e.instancePath))}: ${e.message ?? "is invalid"}`),
    3,
  );
}

function fieldProblem(field: ElicitField, at: string): ArgumentError | undefined {
  const invalid = (message: string): ArgumentError => ({ category: "invalid_schema", message: `${at}: ${message}` });
  const tooLong = (text: string | undefined, limit: number) => text !== undefined && text.length > limit;
  if (tooLong(field.title, LIMITS.label)) return invalid(`title is longer than ${LIMITS.label} characters`);
  if (tooLong(field.description, LIMITS.description))
    return invalid(`description is longer than ${LIMITS.description} characters`);
  switch (field.kind) {
    case "string": {
      if (tooLong(field.default, LIMITS.text)) return invalid(`default is longer than ${LIMITS.text} characters`);
      if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength)
        return invalid(`minLength ${field.minLength} is larger than maxLength ${field.maxLength}`);
      if (field.pattern !== undefined) {
        const compiled = compilePattern(field.pattern);
        if (!compiled.ok) return { category: "invalid_pattern", message: `${at}.pattern: ${compiled.reason}` };
        const longest = compiled.pattern.maxText();
        if (field.default !== undefined && field.default.length > longest)
          return invalid(`default is longer than the ${longest} characters its pattern can check`);
      }
      return undefined;
    }
    case "number":
    case "integer": {
      const { minimum: min, maximum: max } = field;
      if (min !== undefined && max !== undefined && min > max)
        return invalid(`minimum ${min} is larger than maximum ${max}`);
      if (field.kind === "integer" && min !== undefined && max !== undefined && Math.ceil(min) > Math.floor(max))
        return invalid(`no whole number lies between minimum ${min} and maximum ${max}`);
      return undefined;
    }
    case "boolean":
      return undefined;
    case "choice":
    case "choices": {
      if (field.options.length > LIMITS.options)
        return {
          category: "too_many_questions",
          message: `${at}: ${field.options.length} choices, at most ${LIMITS.options} fit in a form`,
        };
      const seen = new Map<string, number>();
      for (const [i, option] of field.options.entries()) {
        if (option.value.length > LIMITS.label || option.title.length > LIMITS.label)
          return invalid(`choice ${i + 1} is longer than ${LIMITS.label} characters`);
        const earlier = seen.get(option.value);
        if (earlier !== undefined)
          return invalid(
            `the value ${JSON.stringify(option.value)} is offered twice (choices ${earlier + 1} and ${i + 1})`,
          );
        seen.set(option.value, i);
      }
      if (field.kind === "choices") {
        const { minItems: min, maxItems: max } = field;
        if (min !== undefined && max !== undefined && min > max)
          return invalid(`minItems ${min} is larger than maxItems ${max}`);
        if (min !== undefined && min > field.options.length && !field.other)
          return invalid(`minItems ${min} asks for more choices than the ${field.options.length} offered`);
      }
      return undefined;
    }
  }
}

/** A value on one short line, whatever it is (deep, circular or huge). */
function preview(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return "(a value that cannot be shown)";
  }
}

/** Meta-schema validation; a schema too deep for it to walk is refused, not thrown. */
function metaProblem(schema: object, root: string): ArgumentError | undefined {
  const ajv = getAjv();
  try {
    if (ajv.validateSchema(schema)) return undefined;
    return { category: "invalid_schema", message: describeAjv(ajv.errors ?? [], root) };
  } catch {
    return { category: "invalid_schema", message: `${root}: too deeply nested to check (a form's schema is flat)` };
  }
}

/** The subset first, read without walking into anything it does not take; `root` names the schema in messages. */
export function checkRequestedSchema(raw: unknown, root = "requestedSchema"): Checked<CheckedSchema> {
  if (!isRecord(raw)) return fail("invalid_schema", `${root}: must be a JSON Schema object`);
  if (raw.$schema !== undefined && typeof raw.$schema !== "string")
    return fail("invalid_schema", `${root}.$schema: must be a string`);
  if (raw.type !== "object")
    return fail("unsupported_schema", `${root}.type: must be "object" (a form asks for one flat object)`);
  const extra = Object.keys(raw).find((key) => !TOP_KEYWORDS.includes(key));
  if (extra)
    return fail(
      "unsupported_schema",
      `${root}: the keyword "${extra}" is not supported at the top (supported: ${TOP_KEYWORDS.join(", ")})`,
    );
  if (!isRecord(raw.properties)) return fail("unsupported_schema", `${root}.properties: must be an object of fields`);
  const names = Object.keys(raw.properties);
  if (names.length > MAX_FIELDS)
    return fail(
      "too_many_questions",
      `${root}.properties: ${names.length} fields, at most ${MAX_FIELDS} fit in one form`,
    );
  const long = names.find((name) => name.length > LIMITS.id);
  if (long !== undefined)
    return fail("invalid_schema", `${root}.properties: a property name is longer than ${LIMITS.id} characters`);
  const required = Array.isArray(raw.required) ? (raw.required as unknown[]) : [];
  const fields: ElicitField[] = [];
  for (const name of names) {
    const read = readField(name, raw.properties[name], required.includes(name), root);
    if (!read.ok) return read;
    fields.push(read.field);
  }
  // Every keyword left is one of the subset's: the meta-schema judges their values.
  const { $schema: _dialect, ...schema } = raw;
  const meta = metaProblem(schema, root);
  if (meta) return { ok: false, error: meta };
  const missing = required.find((name) => !names.includes(name as string));
  if (missing !== undefined)
    return fail("invalid_schema", `${root}.required: ${preview(missing)} is not one of the properties`);
  for (const field of fields) {
    const problem = fieldProblem(field, propertyPath(root, field.name));
    if (problem) return { ok: false, error: problem };
  }
  const defaults = checkDefaults(raw, fields, root);
  if (defaults) return { ok: false, error: defaults };
  const checked: CheckedSchema = { schema: raw, fields };
  if (typeof raw.title === "string") checked.title = raw.title;
  if (typeof raw.description === "string") checked.description = raw.description;
  if ((checked.title?.length ?? 0) > LIMITS.title)
    return fail("invalid_schema", `${root}.title: longer than ${LIMITS.title} characters`);
  if ((checked.description?.length ?? 0) > LIMITS.prompt)
    return fail("invalid_schema", `${root}.description: longer than ${LIMITS.prompt} characters`);
  return { ok: true, value: checked };
}

/** Schemas come from the model or another extension, one per form: none is kept in ajv's cache. */
function validateOnce(schema: object, data: unknown): ErrorObject[] | undefined {
  const instance = getAjv();
  let validate: ValidateFunction | undefined;
  try {
    validate = instance.compile(schema);
    return validate(data) ? undefined : (validate.errors ?? []);
  } finally {
    instance.removeSchema(schema);
  }
}

function checkDefaults(schema: Json, fields: ElicitField[], root: string): ArgumentError | undefined {
  const properties = schema.properties as Json;
  for (const field of fields) {
    const property = properties[field.name] as Json;
    if (!("default" in property)) continue;
    const errors = validateOnce(property, property.default);
    if (errors) {
      const at = `${propertyPath(root, field.name)}.default`;
      return {
        category: "invalid_schema",
        message: `${at}: ${preview(property.default)} is not a valid answer (${describeAjv(errors, "value")})`,
      };
    }
  }
  return undefined;
}

/** A mismatch means the form accepted what the schema does not: a bug, reported loudly, never handed on. */
export function assertContentMatches(checked: CheckedSchema, content: ElicitContent): void {
  const { $schema: _dialect, ...schema } = checked.schema;
  const errors = validateOnce(schema, content);
  if (errors) {
    throw new Error(`The form produced content that does not match its schema: ${describeAjv(errors, "content")}`);
  }
}

export interface CheckedElicitRequest {
  message: string;
  form: CheckedSchema;
}

/** A JSON copy, read once: a getter, proxy or toJSON that throws, a cycle or a BigInt is refused here, never met later. */
function requestData(raw: unknown): Checked<unknown> {
  try {
    const text = JSON.stringify(raw);
    return { ok: true, value: text === undefined ? undefined : JSON.parse(text) };
  } catch (error) {
    return fail("invalid_arguments", `request: cannot be read as JSON data (${errorLine(error)})`);
  }
}

export function checkElicitRequest(input: unknown): Checked<CheckedElicitRequest> {
  const data = requestData(input);
  if (!data.ok) return data;
  const raw = data.value;
  if (!isRecord(raw)) return fail("invalid_arguments", "request: must be an object {message, requestedSchema}");
  if (raw.mode !== undefined && raw.mode !== "form")
    return fail(
      "invalid_arguments",
      `mode: ${preview(raw.mode)} is not supported; only form mode ("form", or no mode) opens a form`,
    );
  if (typeof raw.message !== "string") return fail("invalid_arguments", "message: must be a string");
  if (raw.message.length > LIMITS.prompt)
    return fail("invalid_arguments", `message: must be at most ${LIMITS.prompt} characters`);
  if (raw.requestedSchema === undefined)
    return fail("invalid_arguments", 'request: missing required property "requestedSchema"');
  const form = checkRequestedSchema(raw.requestedSchema, "requestedSchema");
  return form.ok ? { ok: true, value: { message: raw.message, form: form.value } } : form;
}
