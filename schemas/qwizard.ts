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
  id: Type.String({ minLength: 1, maxLength: LIMITS.id, description: "Unique id of the question" }),
  label: Type.Optional(
    Type.String({ minLength: 1, maxLength: LIMITS.tabLabel, description: "Short tab label (defaults to Q1, Q2, ...)" }),
  ),
  prompt: Type.String({ minLength: 1, maxLength: LIMITS.prompt, description: "The full question text" }),
  options: Type.Array(ChoiceOption, {
    maxItems: LIMITS.options,
    description: "At least 2 options for single/multi; ignored for yes_no and rating",
  }),
  allowOther: Type.Optional(Type.Boolean({ description: "Offer a typed answer (default true)" })),
  required: Type.Optional(Type.Boolean({ description: "Must be answered before Submit (default true)" })),
  autoAdvance: Type.Optional(Type.Boolean({ description: "Move to the next question after an answer (default true)" })),
  type: Type.Optional(
    Type.Enum(["single", "multi", "yes_no", "rating"], {
      description: "single (default), multi, yes_no (Yes/No generated) or rating (1-5 generated, Poor to Excellent)",
    }),
  ),
};

const conditionObject = {
  type: "object",
  required: ["field"],
  additionalProperties: false,
  properties: {
    field: { type: "string", minLength: 1, maxLength: LIMITS.id, description: "Id of an earlier question" },
    operator: { type: "string", maxLength: 20, description: "Operator (default equals)" },
    value: {
      type: ["string", "number", "boolean", "array"],
      maxLength: LIMITS.description,
      items: { type: "string", maxLength: LIMITS.description },
      description: "Value to compare with",
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
  description:
    "Show this question only when the condition on an earlier answer holds: 'field_id operator value' " +
    `(operators: ${OPERATORS.join(", ")}), an object {field, operator?, value?}, or an array of them (all must hold)`,
});

const QuestionnaireItem = Type.Object(questionFields, { additionalProperties: false });

const BranchItem = Type.Object(
  {
    ...questionFields,
    when: Type.Optional(When),
    on: Type.Optional(
      Type.Boolean({ description: "true always shows the question, false always hides it (wins over when)" }),
    ),
  },
  { additionalProperties: false },
);

export const QuestionnaireParameters = Type.Object(
  {
    questions: Type.Array(QuestionnaireItem, {
      description: "1 to 4 questions, shown as tabs with a progress indicator and a Submit tab",
    }),
    timeout: Timeout,
  },
  { additionalProperties: false },
);

export const BranchParameters = Type.Object(
  {
    questions: Type.Array(BranchItem, {
      description: "1 to 4 questions; later questions can depend on earlier answers through when",
    }),
    timeout: Timeout,
  },
  { additionalProperties: false },
);

export const InputParameters = Type.Object(
  {
    question: Type.String({
      minLength: 1,
      maxLength: LIMITS.prompt,
      description: "The question to answer in free text",
    }),
    placeholder: Type.Optional(
      Type.String({ maxLength: LIMITS.label, description: "Hint shown while the field is empty" }),
    ),
    required: Type.Optional(Type.Boolean({ description: "An empty answer is refused (default true)" })),
    minLength: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1_000_000, description: "Minimum length of the trimmed answer" }),
    ),
    maxLength: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Maximum length of the trimmed answer" }),
    ),
    pattern: Type.Optional(
      Type.String({ description: "Regular expression (RE2 syntax) the trimmed answer must match" }),
    ),
    type: Type.Optional(
      Type.Enum(["text", "number", "email", "date"], {
        description: "text (default), number, email or date (YYYY-MM-DD)",
      }),
    ),
    min: Type.Optional(Type.Number({ description: "type number: the smallest number accepted" })),
    max: Type.Optional(Type.Number({ description: "type number: the largest number accepted" })),
    timeout: TimeoutWithoutOptions,
  },
  { additionalProperties: false },
);

export const ThrottleParameters = Type.Object(
  {
    question: Type.String({ minLength: 1, maxLength: LIMITS.prompt, description: "The question text" }),
    options: Type.Array(ChoiceOption, { maxItems: LIMITS.options, description: "The options (at least 1)" }),
    cooldown: Type.Optional(
      Type.Number({ minimum: 0, maximum: 3600, description: "Seconds to keep between questions (default 5)" }),
    ),
    allowOther: Type.Optional(Type.Boolean({ description: "Offer a typed answer (default true)" })),
    type: Type.Optional(Type.Enum(["single", "multi"], { description: "single (default) or multi" })),
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
