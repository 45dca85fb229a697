/**
 * Parameters of `questionnaire`, `question_branch`, `question_input` and
 * `question_throttle`.
 *
 * Limits that carry an error category (empty form, more than four questions,
 * fewer than two options …) are checked as rules after the schema, so the
 * model gets the category rather than a bare schema failure. Branch
 * conditions are parsed here into the form model's `Condition`s; a condition
 * that cannot be judged (bad syntax, unknown operator, unknown or later
 * question, a numeric operator with a non-number) is `invalid_condition`, a
 * regular expression RE2 cannot run is `invalid_pattern`.
 */
import {
  type Condition,
  isNumeric,
  isOperator,
  isUnary,
  OPERATOR_ALIASES,
  OPERATORS,
  type Operator,
  splitList,
} from "../machines/conditions.js";
import { compilePattern } from "../machines/patterns.js";
import { checkItems, choiceOption, LIMITS, normalizeStrings } from "./rules.js";
import { type ArgumentError, type Checked, compileChecker } from "./validate.js";

const option = choiceOption;

const questionFields = {
  id: { type: "string", minLength: 1, maxLength: LIMITS.id, description: "Unique id of the question" },
  label: {
    type: "string",
    minLength: 1,
    maxLength: LIMITS.tabLabel,
    description: "Short tab label (defaults to Q1, Q2, ...)",
  },
  prompt: { type: "string", minLength: 1, maxLength: LIMITS.prompt, description: "The full question text" },
  options: {
    type: "array",
    maxItems: LIMITS.options,
    items: option,
    description: "At least 2 options for single/multi; ignored for yes_no and rating",
  },
  allowOther: { type: "boolean", description: "Offer a typed answer (default true)" },
  required: { type: "boolean", description: "Must be answered before Submit (default true)" },
  autoAdvance: { type: "boolean", description: "Move to the next question after an answer (default true)" },
  type: {
    type: "string",
    enum: ["single", "multi", "yes_no", "rating"],
    description: "single (default), multi, yes_no (Yes/No generated) or rating (1-5 generated, Poor to Excellent)",
  },
} as const;

const conditionObject = {
  field: { type: "string", minLength: 1, maxLength: LIMITS.id, description: "Id of an earlier question" },
  operator: { type: "string", maxLength: 20, description: "Operator (default equals)" },
  value: {
    type: ["string", "number", "boolean", "array"],
    items: { type: "string" },
    description: "Value to compare with",
  },
} as const;

const whenSchema = {
  type: ["string", "object", "array"],
  maxLength: LIMITS.description,
  maxItems: 20,
  description:
    "Show this question only when the condition on an earlier answer holds: 'field_id operator value' " +
    `(operators: ${OPERATORS.join(", ")}), an object {field, operator?, value?}, or an array of them (all must hold)`,
  required: ["field"],
  additionalProperties: false,
  properties: conditionObject,
  items: { type: ["string", "object"], required: ["field"], additionalProperties: false, properties: conditionObject },
} as const;

function listOf(item: object, description: string) {
  return {
    type: "object",
    additionalProperties: false,
    required: ["questions"],
    properties: { questions: { type: "array", description, items: item } },
  } as const;
}

export const questionnaireParameters = listOf(
  { type: "object", additionalProperties: false, required: ["id", "prompt", "options"], properties: questionFields },
  "1 to 4 questions, shown as tabs with a progress indicator and a Submit tab",
);

export const branchParameters = listOf(
  {
    type: "object",
    additionalProperties: false,
    required: ["id", "prompt", "options"],
    properties: {
      ...questionFields,
      when: whenSchema,
      on: { type: "boolean", description: "true always shows the question, false always hides it (wins over when)" },
    },
  },
  "1 to 4 questions; later questions can depend on earlier answers through when",
);

export const inputParameters = {
  type: "object",
  additionalProperties: false,
  required: ["question"],
  properties: {
    question: {
      type: "string",
      minLength: 1,
      maxLength: LIMITS.prompt,
      description: "The question to answer in free text",
    },
    placeholder: { type: "string", maxLength: LIMITS.label, description: "Hint shown while the field is empty" },
    required: { type: "boolean", description: "An empty answer is refused (default true)" },
    minLength: { type: "integer", minimum: 0, maximum: 1_000_000, description: "Minimum length of the trimmed answer" },
    maxLength: { type: "integer", minimum: 1, maximum: 1_000_000, description: "Maximum length of the trimmed answer" },
    pattern: { type: "string", description: "Regular expression (RE2 syntax) the trimmed answer must match" },
    type: {
      type: "string",
      enum: ["text", "number", "email", "date"],
      description: "text (default), number, email or date (YYYY-MM-DD)",
    },
  },
} as const;

export const throttleParameters = {
  type: "object",
  additionalProperties: false,
  required: ["question", "options"],
  properties: {
    question: { type: "string", minLength: 1, maxLength: LIMITS.prompt, description: "The question text" },
    options: { type: "array", maxItems: LIMITS.options, items: option, description: "The options (at least 1)" },
    cooldown: {
      type: "number",
      minimum: 0,
      maximum: 3600,
      description: "Seconds to keep between questions (default 5)",
    },
    allowOther: { type: "boolean", description: "Offer a typed answer (default true)" },
    type: { type: "string", enum: ["single", "multi"], description: "single (default) or multi" },
  },
} as const;

export type QwizardType = "single" | "multi" | "yes_no" | "rating";
type RawWhen =
  | string
  | { field: string; operator?: string; value?: unknown }
  | Array<string | { field: string; operator?: string; value?: unknown }>;

export interface QuestionnaireItem {
  id: string;
  label?: string;
  prompt: string;
  options: Array<{ label: string; description?: string }>;
  allowOther?: boolean;
  required?: boolean;
  autoAdvance?: boolean;
  type?: QwizardType;
  when?: RawWhen;
  on?: boolean;
}

/** A questionnaire item after checking: conditions parsed. */
export interface CheckedItem extends Omit<QuestionnaireItem, "when"> {
  conditions?: Condition[];
}

export interface InputArgs {
  question: string;
  placeholder?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  type?: "text" | "number" | "email" | "date";
}

export interface ThrottleArgs {
  question: string;
  options: Array<{ label: string; description?: string }>;
  cooldown?: number;
  allowOther?: boolean;
  type?: "single" | "multi";
}

export const MAX_QUESTIONS = 4;

const checkQuestionnaireSchema = compileChecker<{ questions: QuestionnaireItem[] }>(questionnaireParameters);
const checkBranchSchema = compileChecker<{ questions: QuestionnaireItem[] }>(branchParameters);
const checkInputSchema = compileChecker<InputArgs>(inputParameters);
const checkThrottleSchema = compileChecker<ThrottleArgs>(throttleParameters);

const isGenerated = (type: QwizardType | undefined) => type === "yes_no" || type === "rating";

function parseOne(
  raw: string | { field: string; operator?: string; value?: unknown },
  at: string,
): Condition | ArgumentError {
  let field: string;
  let opWord: string;
  let value: string | string[] | undefined;
  if (typeof raw === "string") {
    const m = /^\s*(\S+)\s+(\S+)(?:\s+([\s\S]*?))?\s*$/.exec(raw);
    if (!m) return { category: "invalid_condition", message: `${at}: "${raw}" is not "field_id operator value"` };
    [, field, opWord, value] = m;
  } else {
    field = raw.field;
    opWord = raw.operator ?? "equals";
    const v = raw.value;
    value = v === undefined || v === null ? undefined : Array.isArray(v) ? v.map(String) : String(v);
  }
  const lowered = opWord.toLowerCase();
  const operator: Operator | undefined = isOperator(lowered) ? lowered : OPERATOR_ALIASES[lowered];
  if (!operator)
    return {
      category: "invalid_condition",
      message: `${at}: unknown operator "${opWord}" (use one of ${OPERATORS.join(", ")})`,
    };
  if (isUnary(operator)) return { field, operator };
  if (value === undefined || (typeof value === "string" && value === "")) {
    return { category: "invalid_condition", message: `${at}: operator "${operator}" needs a value` };
  }
  if (isNumeric(operator) && (Array.isArray(value) || !Number.isFinite(Number(value)))) {
    return {
      category: "invalid_condition",
      message: `${at}: operator "${operator}" compares numbers, "${value}" is not one`,
    };
  }
  if (operator === "matches") {
    const compiled = compilePattern(Array.isArray(value) ? value.join(", ") : value, true);
    if (!compiled.ok) return { category: "invalid_pattern", message: `${at}: ${compiled.reason}` };
  }
  if (operator === "in" && typeof value === "string") value = splitList(value);
  return { field, operator, value };
}

/** Parse a `when` into conditions that only look back at earlier questions. */
export function parseWhen(
  when: RawWhen,
  index: number,
  ids: string[],
  list = "questions",
): Condition[] | ArgumentError {
  const parts = Array.isArray(when) ? when : [when];
  const base = `${list}[${index}].when`;
  const out: Condition[] = [];
  for (const [j, part] of parts.entries()) {
    const at = Array.isArray(when) ? `${base}[${j}]` : base;
    const parsed = parseOne(part, at);
    if ("category" in parsed) return parsed;
    const target = ids.indexOf(parsed.field);
    if (target < 0)
      return {
        category: "invalid_condition",
        message: `${at}: "${parsed.field}" is not the id of a question in this form`,
      };
    if (target >= index) {
      const which = target === index ? "the question itself" : `${list}[${target}], which comes later`;
      return {
        category: "invalid_condition",
        message: `${at}: "${parsed.field}" refers to ${which}; conditions can only look at earlier answers`,
      };
    }
    out.push(parsed);
  }
  return out;
}

function checkItemsOf(items: QuestionnaireItem[]): Checked<CheckedItem[]> {
  const error = checkItems(
    items.map((q) => ({ id: q.id, prompt: q.prompt, options: q.options, generatedOptions: isGenerated(q.type) })),
    { listName: "questions", maxQuestions: MAX_QUESTIONS, minOptions: 2, uniquePrompts: true },
  );
  if (error) return { ok: false, error };
  const ids = items.map((q) => q.id);
  const out: CheckedItem[] = [];
  for (const [i, q] of items.entries()) {
    const { when, ...rest } = q;
    const item: CheckedItem = rest;
    if (when !== undefined && q.on === undefined) {
      const parsed = parseWhen(when, i, ids);
      if (!Array.isArray(parsed)) return { ok: false, error: parsed };
      item.conditions = parsed;
    }
    out.push(item);
  }
  if (out.every((q) => q.on === false)) {
    return {
      ok: false,
      error: { category: "empty_questionnaire", message: "questions: every question is switched off (on: false)" },
    };
  }
  return { ok: true, value: out };
}

export function checkQuestionnaireArgs(raw: unknown): Checked<CheckedItem[]> {
  const checked = checkQuestionnaireSchema(raw);
  return checked.ok ? checkItemsOf(normalizeStrings(checked.value).questions) : checked;
}

export function checkBranchArgs(raw: unknown): Checked<CheckedItem[]> {
  const checked = checkBranchSchema(raw);
  return checked.ok ? checkItemsOf(normalizeStrings(checked.value).questions) : checked;
}

export function checkInputArgs(raw: unknown): Checked<InputArgs> {
  const checked = checkInputSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  if (args.minLength !== undefined && args.maxLength !== undefined && args.minLength > args.maxLength) {
    return {
      ok: false,
      error: {
        category: "invalid_arguments",
        message: `minLength: ${args.minLength} is larger than maxLength ${args.maxLength}`,
      },
    };
  }
  if (args.pattern !== undefined) {
    const compiled = compilePattern(args.pattern);
    if (!compiled.ok)
      return { ok: false, error: { category: "invalid_pattern", message: `pattern: ${compiled.reason}` } };
  }
  return { ok: true, value: args };
}

export function checkThrottleArgs(raw: unknown): Checked<ThrottleArgs> {
  const checked = checkThrottleSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  const error = checkItems([{ prompt: args.question, options: args.options }], {
    listName: "questions",
    minOptions: 1,
  });
  if (error) return { ok: false, error: { ...error, message: error.message.replace(/^questions\[0\]\./, "") } };
  return { ok: true, value: args };
}
