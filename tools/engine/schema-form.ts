/**
 * A form from a checked JSON Schema (one field, one question), and the typed
 * object its answers make.
 *
 * Contract: every value is returned typed as the schema says (numbers,
 * booleans, choices' `const`, arrays in option order); a field left
 * unanswered is absent; a typed answer is offered only where the schema takes
 * other text; every form can be declined; `accept` content is checked
 * against the original schema before it is returned.
 */
import type { FormResult, QuestionOutcome } from "../../machines/context.js";
import { type FormSpec, normalizeForm, type QuestionInput } from "../../machines/spec.js";
import { countPhrase, numberOf } from "../../machines/text-rules.js";
import {
  assertContentMatches,
  type CheckedSchema,
  type ElicitContent,
  type ElicitField,
  type FieldValue,
} from "../../schemas/elicit.js";
import type { Outcome } from "../../schemas/outcome.js";
import { outcomeOf } from "./outcome.js";

export type ElicitAction = "accept" | "decline" | "cancel";

/** MCP's result, with `outcome` in the words every tool uses beside `action`. */
export type ElicitResult = (
  | { action: "accept"; content: ElicitContent }
  | { action: "decline" }
  | { action: "cancel" }
) & { outcome: Outcome };

const FORMAT_HINTS = {
  email: "name@example.com",
  uri: "https://example.com/…",
  date: "YYYY-MM-DD",
  "date-time": "YYYY-MM-DDThh:mm:ssZ (or with an offset, +01:00)",
} as const;

type NumberRange = Pick<Extract<ElicitField, { kind: "number" | "integer" }>, "kind" | "minimum" | "maximum">;

/** `a whole number from 1 to 10`, `a number of at least 0`. */
function numberHint(field: NumberRange): string {
  const what = field.kind === "integer" ? "a whole number" : "a number";
  const { minimum: min, maximum: max } = field;
  if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
  if (min !== undefined) return `${what} of at least ${min}`;
  if (max !== undefined) return `${what} of at most ${max}`;
  return what;
}

/** `Choose 1 to 2.`, in the help line's words. */
function countHint(minItems: number | undefined, maxItems: number | undefined): string | undefined {
  const phrase = countPhrase({ required: false, count: { min: minItems ?? 0, max: maxItems } });
  return phrase ? `Choose ${phrase}.` : undefined;
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `A number from 1 to 100.`, shown before anything is typed; undefined without bounds. */
export function rangeSentence(field: NumberRange): string | undefined {
  return field.minimum !== undefined || field.maximum !== undefined ? `${sentence(numberHint(field))}.` : undefined;
}

function bodyOf(field: ElicitField): string | undefined {
  const rule =
    field.kind === "number" || field.kind === "integer"
      ? rangeSentence(field)
      : field.kind === "choices"
        ? countHint(field.minItems, field.maxItems)
        : undefined;
  const parts = [field.description, rule].filter((t): t is string => !!t && t.trim() !== "");
  return parts.length ? parts.join(" ") : undefined;
}

function questionOf(field: ElicitField): QuestionInput {
  const base: QuestionInput = {
    id: field.name,
    label: field.title ?? field.name,
    prompt: field.title ?? field.name,
    options: [],
    required: field.required,
    allowOther: false,
  };
  const body = bodyOf(field);
  if (body) base.body = body;
  switch (field.kind) {
    case "string": {
      const q: QuestionInput = {
        ...base,
        kind: "text",
        text: {
          type: "text",
          minLength: field.minLength,
          maxLength: field.maxLength,
          pattern: field.pattern,
          patternText: field.pattern === undefined ? undefined : (field.description ?? field.title),
          codePoints: true,
        },
      };
      if (field.format) {
        q.text = { ...q.text, format: field.format };
        q.placeholder = FORMAT_HINTS[field.format];
      }
      if (field.default !== undefined) q.initial = { options: [], custom: [field.default] };
      return q;
    }
    case "number":
    case "integer": {
      const q: QuestionInput = {
        ...base,
        kind: "text",
        placeholder: numberHint(field),
        text: { type: "number", minimum: field.minimum, maximum: field.maximum, integer: field.kind === "integer" },
      };
      if (field.default !== undefined) q.initial = { options: [], custom: [String(field.default)] };
      return q;
    }
    case "boolean": {
      const q: QuestionInput = {
        ...base,
        kind: "single",
        options: [
          { label: "Yes", value: "true" },
          { label: "No", value: "false" },
        ],
      };
      if (field.default !== undefined) q.initial = { options: [field.default ? 0 : 1], custom: [] };
      return q;
    }
    case "choice": {
      const q: QuestionInput = {
        ...base,
        kind: "single",
        allowOther: field.other === true,
        options: field.options.map((o) => ({ label: o.title, value: o.value })),
      };
      const at = field.options.findIndex((o) => o.value === field.default);
      if (at >= 0) q.initial = { options: [at], custom: [] };
      else if (field.default !== undefined && field.other) q.initial = { options: [], custom: [field.default] };
      return q;
    }
    case "choices": {
      const q: QuestionInput = {
        ...base,
        kind: "multi",
        allowOther: field.other === true,
        options: field.options.map((o) => ({ label: o.title, value: o.value })),
        count: { min: field.minItems ?? 0, max: field.maxItems },
      };
      if (field.default !== undefined) {
        const chosen = field.options.flatMap((o, i) => (field.default?.includes(o.value) ? [i] : []));
        const typed = field.other ? field.default.filter((v) => !field.options.some((o) => o.value === v)) : [];
        q.initial = { options: chosen, custom: typed };
      }
      return q;
    }
  }
}

export function schemaForm(checked: CheckedSchema, message: string, title?: string): FormSpec {
  const description = [message, checked.description].filter((t): t is string => !!t && t.trim() !== "").join("\n");
  return normalizeForm({
    title: title ?? checked.title,
    description,
    questions: checked.fields.map(questionOf),
    declinable: true,
  });
}

function fieldValue(field: ElicitField, outcome: QuestionOutcome): FieldValue | undefined {
  if (!outcome.answered) return undefined;
  switch (field.kind) {
    case "string":
      // An optional field saved empty was not answered.
      return outcome.custom[0] === "" ? undefined : outcome.custom[0];
    case "number":
    case "integer":
      return outcome.custom[0] === undefined ? undefined : numberOf(outcome.custom[0]);
    case "boolean":
      return outcome.options[0] === undefined ? undefined : outcome.options[0] === 0;
    case "choice":
      if (outcome.options[0] === undefined) return outcome.custom[0];
      return field.options[outcome.options[0]].value;
    case "choices": {
      // A typed value that is a choice's value or title is that choice, given once.
      const typed = outcome.custom.map((t) => field.options.find((o) => o.value === t || o.title === t)?.value ?? t);
      const values = [...new Set([...outcome.options.map((i) => field.options[i].value), ...typed])];
      // An empty selection is an answer only where the schema takes an empty list.
      return values.length === 0 && (field.minItems ?? 0) > 0 ? undefined : values;
    }
  }
}

/** A mismatch with the original schema throws. */
export function contentOf(checked: CheckedSchema, result: FormResult): ElicitContent {
  const content: ElicitContent = {};
  checked.fields.forEach((field, i) => {
    const value = fieldValue(field, result.answers[i]);
    // defineProperty: a field named "__proto__" is a plain key like any other.
    if (value !== undefined)
      Object.defineProperty(content, field.name, { value, enumerable: true, writable: true, configurable: true });
  });
  assertContentMatches(checked, content);
  return content;
}

export function elicitResult(checked: CheckedSchema, result: FormResult): ElicitResult {
  const outcome = outcomeOf(result);
  if (result.declined) return { action: "decline", outcome };
  if (result.cancelled) return { action: "cancel", outcome };
  return { action: "accept", content: contentOf(checked, result), outcome };
}
