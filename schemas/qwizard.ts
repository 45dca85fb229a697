/**
 * Parameters of `questionnaire`, `question_branch`, `question_input` and
 * `question_throttle`.
 *
 * Limits that carry an error category (empty form, more than four questions,
 * fewer than two options …) are checked as rules after the schema, so the
 * model gets the category rather than a bare schema failure. Branch
 * conditions are parsed here (schemas/conditions.ts) into the form model's
 * `Condition`s; one that cannot be judged is `invalid_condition`, a regular
 * expression RE2 cannot run is `invalid_pattern`.
 */
import { type Static, Type } from "typebox";
import { type Condition, OPERATORS, parseWhen, type RawWhen } from "./conditions.js";
import { UNDECLARED } from "./lenient.js";
import { compilePattern } from "./patterns.js";
import {
  ChoiceOption,
  checkItems,
  LIMITS,
  normalizeStrings,
  questionId,
  Timeout,
  TimeoutWithoutOptions,
} from "./rules.js";
import { type Checked, compileChecker } from "./validate.js";

export const MAX_QUESTIONS = 4;

const questionFields = {
  id: Type.String({ minLength: 1, maxLength: LIMITS.id }),
  label: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.tabLabel })),
  prompt: Type.String({ minLength: 1, maxLength: LIMITS.prompt }),
  options: Type.Array(ChoiceOption, { maxItems: LIMITS.options }),
  allowOther: Type.Optional(Type.Boolean(UNDECLARED)),
  required: Type.Optional(Type.Boolean(UNDECLARED)),
  autoAdvance: Type.Optional(Type.Boolean(UNDECLARED)),
  type: Type.Optional(Type.Enum(["single", "multi", "yes_no", "rating"], { description: "default single" })),
};

const conditionObject = {
  type: "object",
  required: ["field"],
  additionalProperties: false,
  properties: {
    field: { type: "string", minLength: 1, maxLength: LIMITS.id },
    operator: { type: "string", maxLength: 20 },
    value: {
      type: ["string", "number", "boolean", "array"],
      maxLength: LIMITS.description,
      items: { type: "string", maxLength: LIMITS.description },
    },
  },
} as const;

/**
 * A string, an object or a list of them: written as one JSON Schema with a
 * list of types (TypeBox's `Unsafe` keeps it as is), so a wrong value gets
 * one clear message instead of an error per union branch.
 */
const When = Type.Unsafe<RawWhen>({
  ...conditionObject,
  type: ["string", "object", "array"],
  maxLength: LIMITS.description,
  maxItems: 20,
  items: { ...conditionObject, type: ["string", "object"], maxLength: LIMITS.description },
  description: `'id op value' (op: ${OPERATORS.join(", ")}), {field, operator?, value?} or a list (all hold)`,
});

const QuestionnaireItem = Type.Object(questionFields, { additionalProperties: false });

const BranchItem = Type.Object(
  {
    ...questionFields,
    when: Type.Optional(When),
    on: Type.Optional(Type.Boolean({ description: "Always show (true) or hide; beats when" })),
  },
  { additionalProperties: false },
);

export const QuestionnaireParameters = Type.Object(
  {
    questions: Type.Array(QuestionnaireItem),
    timeout: Timeout,
  },
  { additionalProperties: false },
);

export const BranchParameters = Type.Object(
  {
    questions: Type.Array(BranchItem),
    timeout: Timeout,
  },
  { additionalProperties: false },
);

export const InputParameters = Type.Object(
  {
    question: Type.String({ minLength: 1, maxLength: LIMITS.prompt }),
    placeholder: Type.Optional(Type.String({ maxLength: LIMITS.label, ...UNDECLARED })),
    required: Type.Optional(Type.Boolean()),
    minLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    pattern: Type.Optional(Type.String({ description: "RE2" })),
    type: Type.Optional(Type.Enum(["text", "number", "email", "date"], { description: "default text" })),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    timeout: TimeoutWithoutOptions,
  },
  { additionalProperties: false },
);

export const ThrottleParameters = Type.Object(
  {
    question: Type.String({ minLength: 1, maxLength: LIMITS.prompt }),
    options: Type.Array(ChoiceOption, { maxItems: LIMITS.options }),
    cooldown: Type.Optional(Type.Number({ minimum: 0, maximum: 3600 })),
    allowOther: Type.Optional(Type.Boolean(UNDECLARED)),
    type: Type.Optional(Type.Enum(["single", "multi"], { description: "default single" })),
    timeout: Timeout,
  },
  { additionalProperties: false },
);

export type QuestionnaireItemArgs = Static<typeof BranchItem>;
export type QwizardType = NonNullable<QuestionnaireItemArgs["type"]>;
export type InputArgs = Static<typeof InputParameters>;
export type ThrottleArgs = Static<typeof ThrottleParameters>;

/** A questionnaire item after checking: conditions parsed. */
export interface CheckedItem extends Omit<QuestionnaireItemArgs, "when"> {
  conditions?: Condition[];
}

/** A questionnaire's arguments after checking. */
export interface CheckedQuestionnaire {
  questions: CheckedItem[];
  timeout?: number;
}

const checkQuestionnaireSchema = compileChecker(QuestionnaireParameters);
const checkBranchSchema = compileChecker(BranchParameters);
const checkInputSchema = compileChecker(InputParameters);
const checkThrottleSchema = compileChecker(ThrottleParameters);

const isGenerated = (type: QwizardType | undefined) => type === "yes_no" || type === "rating";

function checkItemsOf(items: QuestionnaireItemArgs[], timeout: number | undefined): Checked<CheckedQuestionnaire> {
  const error = checkItems(
    items.map((q) => ({ id: q.id, prompt: q.prompt, options: q.options, generatedOptions: isGenerated(q.type) })),
    { listName: "questions", maxQuestions: MAX_QUESTIONS, minOptions: 2, uniquePrompts: true },
  );
  if (error) return { ok: false, error };
  const ids = items.map((q, i) => questionId(q.id, i));
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
  return { ok: true, value: timeout === undefined ? { questions: out } : { questions: out, timeout } };
}

export function checkQuestionnaireArgs(raw: unknown): Checked<CheckedQuestionnaire> {
  const checked = checkQuestionnaireSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  return checkItemsOf(args.questions, args.timeout);
}

export function checkBranchArgs(raw: unknown): Checked<CheckedQuestionnaire> {
  const checked = checkBranchSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  return checkItemsOf(args.questions, args.timeout);
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
  if ((args.min !== undefined || args.max !== undefined) && args.type !== "number") {
    return {
      ok: false,
      error: {
        category: "invalid_arguments",
        message: `${args.min !== undefined ? "min" : "max"}: a range applies to type "number" only`,
      },
    };
  }
  if (args.min !== undefined && args.max !== undefined && args.min > args.max) {
    return {
      ok: false,
      error: { category: "invalid_arguments", message: `min: ${args.min} is larger than max ${args.max}` },
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
