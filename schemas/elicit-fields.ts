import type { ElicitField, FieldBase, FieldOption } from "./elicit-types.js";
import { isRecord } from "./fields.js";
import { TEXT_FORMATS, type TextFormat } from "./formats.js";
import type { ArgumentError, ErrorCategory } from "./validate.js";

type Json = Record<string, unknown>;

export const fail = (category: ErrorCategory, message: string): { ok: false; error: ArgumentError } => ({
  ok: false,
  error: { category, message },
});

export const ANNOTATIONS = ["title", "description", "default"];
const KEYWORDS: Record<string, string[]> = {
  string: ["type", ...ANNOTATIONS, "minLength", "maxLength", "pattern", "format"],
  "single choice (enum)": ["type", ...ANNOTATIONS, "enum", "enumNames"],
  "single choice (oneOf)": ["type", ...ANNOTATIONS, "oneOf"],
  "single choice (anyOf)": ["type", ...ANNOTATIONS, "anyOf"],
  number: ["type", ...ANNOTATIONS, "minimum", "maximum"],
  integer: ["type", ...ANNOTATIONS, "minimum", "maximum"],
  boolean: ["type", ...ANNOTATIONS],
  "multiple choice": ["type", ...ANNOTATIONS, "items", "minItems", "maxItems"],
};
export const TOP_KEYWORDS = ["$schema", "type", "properties", "required", "title", "description"];

export function join(root: string, path: string): string {
  if (path === "arguments") return root;
  return path.startsWith("[") ? `${root}${path}` : `${root}.${path}`;
}

/** `properties.age` as written in messages, quoting names that are not plain identifiers. */
export function propertyPath(root: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${root}.properties.${name}` : `${root}.properties[${JSON.stringify(name)}]`;
}

export function unsupported(at: string, keyword: string, kind: string): { ok: false; error: ArgumentError } {
  return fail(
    "unsupported_schema",
    `${at}: the keyword "${keyword}" is not supported in a ${kind} field (supported: ${KEYWORDS[kind].join(", ")})`,
  );
}

export function extraKeyword(property: Json, kind: string): string | undefined {
  return Object.keys(property).find((key) => !KEYWORDS[kind].includes(key));
}

/** `[{const, title}]` choices, as a field's options; an error message when the shape is different. */
export function titledChoices(list: unknown, at: string): FieldOption[] | string {
  if (!Array.isArray(list) || list.length === 0) return `${at}: must be a non-empty list of {const, title}`;
  const options: FieldOption[] = [];
  for (const [i, item] of list.entries()) {
    if (!isRecord(item) || typeof item.const !== "string" || typeof item.title !== "string")
      return `${at}[${i}]: must be {"const": "<value>", "title": "<shown text>"} with string values`;
    const extra = Object.keys(item).find((key) => key !== "const" && key !== "title");
    if (extra) return `${at}[${i}]: the keyword "${extra}" is not supported (a choice has const and title)`;
    options.push({ value: item.const, title: item.title });
  }
  return options;
}

/** A choice list's open branch, `{"type": "string"}` (with an optional title): any other text is an answer too. */
function isOpenBranch(item: unknown): boolean {
  return (
    isRecord(item) && item.type === "string" && Object.keys(item).every((key) => key === "type" || key === "title")
  );
}

/**
 * An `anyOf` of `{const, title}` choices that may also hold one open
 * branch, `{"type": "string"}`: the choices, and whether other text is
 * taken; an error message when the shape is different.
 */
export function openChoices(list: unknown, at: string): { options: FieldOption[]; other: boolean } | string {
  if (!Array.isArray(list)) return titledChoices(list, at) as string;
  const open = list.flatMap((item, i) => (isOpenBranch(item) ? [i] : []));
  if (open.length > 1)
    return `${at}[${open[1]}]: one open {"type": "string"} branch is enough (the first is at [${open[0]}])`;
  if (open.length === 1 && list.length === 1)
    return `${at}: an open {"type": "string"} branch needs {const, title} choices beside it`;
  const options = titledChoices(
    list.filter((_, i) => i !== open[0]),
    at,
  );
  if (typeof options === "string") return options;
  return { options, other: open.length === 1 };
}

export function plainChoices(values: unknown, at: string): FieldOption[] | string {
  if (!Array.isArray(values) || values.length === 0) return `${at}: must be a non-empty list of strings`;
  const bad = values.findIndex((v) => typeof v !== "string");
  if (bad >= 0) return `${at}[${bad}]: only string values are supported`;
  return (values as string[]).map((value) => ({ value, title: value }));
}

/** The field a property describes, or why it is outside the subset. */
export function readField(
  name: string,
  property: unknown,
  required: boolean,
  root: string,
): { ok: true; field: ElicitField } | { ok: false; error: ArgumentError } {
  const at = propertyPath(root, name);
  if (!isRecord(property)) return fail("unsupported_schema", `${at}: must be a schema object`);
  const base: FieldBase = { name, required };
  if (typeof property.title === "string") base.title = property.title;
  if (typeof property.description === "string") base.description = property.description;
  const type = property.type;
  if (type === undefined)
    return fail(
      "unsupported_schema",
      `${at}: the keyword "type" is missing (one of "string", "number", "integer", "boolean", "array")`,
    );
  if (typeof type !== "string")
    return fail("unsupported_schema", `${at}.type: a list of types is not supported; give one type`);

  if (type === "string") {
    if ("enum" in property || "oneOf" in property || "anyOf" in property) {
      const titled = "oneOf" in property || "anyOf" in property;
      const kind =
        "anyOf" in property ? "single choice (anyOf)" : titled ? "single choice (oneOf)" : "single choice (enum)";
      const extra = extraKeyword(property, kind);
      if (extra) return unsupported(at, extra, kind);
      const read =
        "anyOf" in property
          ? openChoices(property.anyOf, `${at}.anyOf`)
          : titled
            ? titledChoices(property.oneOf, `${at}.oneOf`)
            : plainChoices(property.enum, `${at}.enum`);
      if (typeof read === "string") return fail("unsupported_schema", read);
      const options = Array.isArray(read) ? read : read.options;
      if (!titled && property.enumNames !== undefined) {
        const names = property.enumNames;
        if (!Array.isArray(names) || names.length !== options.length || names.some((n) => typeof n !== "string"))
          return fail("invalid_schema", `${at}.enumNames: must be ${options.length} strings, one per enum value`);
        names.forEach((title, i) => {
          options[i].title = title as string;
        });
      }
      const field: ElicitField = { ...base, kind: "choice", options };
      if (!Array.isArray(read) && read.other) field.other = true;
      if (typeof property.default === "string") field.default = property.default;
      return { ok: true, field };
    }
    const extra = extraKeyword(property, "string");
    if (extra) return unsupported(at, extra, "string");
    if (property.format !== undefined && !TEXT_FORMATS.includes(property.format as TextFormat))
      return fail(
        "unsupported_schema",
        `${at}.format: "${String(property.format)}" is not supported (one of ${TEXT_FORMATS.join(", ")})`,
      );
    const field: ElicitField = { ...base, kind: "string" };
    if (typeof property.minLength === "number") field.minLength = property.minLength;
    if (typeof property.maxLength === "number") field.maxLength = property.maxLength;
    if (typeof property.pattern === "string") field.pattern = property.pattern;
    if (typeof property.format === "string") field.format = property.format as TextFormat;
    if (typeof property.default === "string") field.default = property.default;
    return { ok: true, field };
  }
  if (type === "number" || type === "integer") {
    const extra = extraKeyword(property, type);
    if (extra) return unsupported(at, extra, type);
    const field: ElicitField = { ...base, kind: type };
    if (typeof property.minimum === "number") field.minimum = property.minimum;
    if (typeof property.maximum === "number") field.maximum = property.maximum;
    if (typeof property.default === "number") field.default = property.default;
    return { ok: true, field };
  }
  if (type === "boolean") {
    const extra = extraKeyword(property, "boolean");
    if (extra) return unsupported(at, extra, "boolean");
    const field: ElicitField = { ...base, kind: "boolean" };
    if (typeof property.default === "boolean") field.default = property.default;
    return { ok: true, field };
  }
  if (type === "array") {
    const extra = extraKeyword(property, "multiple choice");
    if (extra) return unsupported(at, extra, "multiple choice");
    const items = property.items;
    if (!isRecord(items))
      return fail(
        "unsupported_schema",
        `${at}.items: must be {"type": "string", "enum": [...]} or {"anyOf": [{"const", "title"}]}`,
      );
    const itemsKind = "anyOf" in items ? ["type", "anyOf"] : ["type", "enum"];
    const extraItem = Object.keys(items).find((key) => !itemsKind.includes(key));
    if (extraItem)
      return fail(
        "unsupported_schema",
        `${at}.items: the keyword "${extraItem}" is not supported (items take ${itemsKind.join(" and ")})`,
      );
    if (items.type !== "string" && !("anyOf" in items && items.type === undefined))
      return fail("unsupported_schema", `${at}.items.type: only "string" items are supported`);
    const read =
      "anyOf" in items ? openChoices(items.anyOf, `${at}.items.anyOf`) : plainChoices(items.enum, `${at}.items.enum`);
    if (typeof read === "string") return fail("unsupported_schema", read);
    const options = Array.isArray(read) ? read : read.options;
    const field: ElicitField = { ...base, kind: "choices", options };
    if (!Array.isArray(read) && read.other) field.other = true;
    if (typeof property.minItems === "number") field.minItems = property.minItems;
    if (typeof property.maxItems === "number") field.maxItems = property.maxItems;
    if (Array.isArray(property.default)) field.default = property.default as string[];
    return { ok: true, field };
  }
  return fail(
    "unsupported_schema",
    `${at}.type: "${type}" is not supported (one of "string", "number", "integer", "boolean", "array"; no nested objects)`,
  );
}
