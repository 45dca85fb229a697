// Parameters of `questionnaire`, `question_branch`, `question_input` and `question_throttle`.
import { type Static, Type } from "typebox";
import { OPERATORS, type RawWhen } from "./conditions.js";
import { ChoiceOption, LIMITS, Timeout, TimeoutWithoutOptions } from "./fields.js";
import { UNDECLARED } from "./lenient.js";

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

/** One JSON Schema with a list of types, not a union: a wrong value gets one message, not one per branch. */
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
