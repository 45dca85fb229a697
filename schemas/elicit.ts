/**
 * The JSON Schema subset a form can ask for: MCP elicitation's form-mode
 * `requestedSchema` (protocol revision 2025-11-25), plus `pattern` on
 * strings, and the check of what a form returns against it.
 *
 * Contract:
 * - the schema is a flat `type: "object"` with `properties`, optional
 *   `required`, `title`, `description` and `$schema`; each property is one of
 *   - a string: `title`, `description`, `minLength`, `maxLength`, `pattern`
 *     (RE2 syntax), `format` (`email`, `uri`, `date`, `date-time`), `default`;
 *   - a number or integer: `title`, `description`, `minimum`, `maximum`, `default`;
 *   - a boolean: `title`, `description`, `default`;
 *   - a single choice: a string with `enum` (+ legacy `enumNames`) or
 *     `oneOf: [{const, title}]`, or `anyOf` of those with one open branch
 *     `{"type": "string"}` (other text is an answer too), `default`;
 *   - a multiple choice: `type: "array"` with `items.enum` (items of
 *     `type: "string"`) or `items.anyOf: [{const, title}]` (with an open
 *     branch as above), `minItems`,
 *     `maxItems`, `default`;
 * - the schema is first checked against the JSON Schema 2020-12 meta-schema
 *   with ajv (`invalid_schema`); a keyword, type or shape outside the subset
 *   is `unsupported_schema`, naming the property and the keyword; a schema
 *   no answer could satisfy (a default outside its field's rules, a minimum
 *   above the maximum, more choices required than offered, a `required`
 *   name with no property, repeated values) is `invalid_schema`; a pattern
 *   RE2 cannot run is `invalid_pattern`; more fields or options than a form
 *   can hold is `too_many_questions`;
 * - what a form returns is checked with ajv and ajv-formats against the
 *   original schema, patterns on RE2, before anyone sees it: a mismatch is a
 *   bug and throws.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvType, ErrorObject, ValidateFunction } from "ajv";
import { isRecord, LIMITS } from "./fields.js";
import { TEXT_FORMATS } from "./formats.js";
import { compilePattern } from "./patterns.js";
import { type ArgumentError, type Checked, fieldPath, listed } from "./validate.js";

// The subset's types are elicit-types.ts's; callers keep importing them from here, the subset's entry.
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

/** ajv for JSON Schema 2020-12, with the formats of the subset and RE2 patterns; loaded on first use. */
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

/** A field no answer could satisfy, or that repeats a value; undefined when it is usable. */
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

/** A value as a short line of JSON for a message, whatever it is (deep, circular or huge). */
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

/**
 * Check a requested schema: the subset (a flat shape, read without walking
 * into anything it does not take), the JSON Schema 2020-12 meta-schema, then
 * what no answer could satisfy. `root` names the schema in messages
 * (`requestedSchema`, or `schema` for a tool argument).
 */
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

/**
 * Validate `data` against `schema` with a validator compiled for this call
 * only: schemas come from the model or another extension, one per form, so
 * none is kept in ajv's cache afterwards.
 */
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

/** Every default must be an answer its own field accepts. */
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

/**
 * Check content against the schema it answers (ajv + ajv-formats, RE2
 * patterns). A mismatch means the form accepted something the schema does
 * not: a bug, reported loudly instead of being handed on.
 */
export function assertContentMatches(checked: CheckedSchema, content: ElicitContent): void {
  const { $schema: _dialect, ...schema } = checked.schema;
  const errors = validateOnce(schema, content);
  if (errors) {
    throw new Error(`The form produced content that does not match its schema: ${describeAjv(errors, "content")}`);
  }
}

/** A request checked and its schema read into fields. */
export interface CheckedElicitRequest {
  message: string;
  form: CheckedSchema;
}

/**
 * The request as the data MCP sends: a JSON copy, read once. What cannot be
 * read as data (a getter or a proxy that throws, a toJSON that throws, a
 * cycle, a BigInt) is refused here, and the checks below never meet it.
 */
function requestData(raw: unknown): Checked<unknown> {
  try {
    const text = JSON.stringify(raw);
    return { ok: true, value: text === undefined ? undefined : JSON.parse(text) };
  } catch (error) {
    return fail("invalid_arguments", `request: cannot be read as JSON data (${errorLine(error)})`);
  }
}

/** Check `elicit()`'s request: form mode, a message, and a schema inside the subset. */
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
