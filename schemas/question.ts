/**
 * Parameters of the `question` tool.
 *
 * The schema below is both what Pi shows the model (and validates) and what
 * ajv checks before a form opens. Shape: `questions[]`, each a prompt with
 * options, an optional id and tab label, `allowOther` (default true) and
 * `multiple` (default false). The single-question call shape
 * (`question`, `options`, `allowOther`, `type: "single" | "multi"`) is folded
 * into it by `foldSingleQuestion` before validation.
 */
import { type Static, Type } from "typebox";
import { ChoiceOption, checkItems, LIMITS, normalizeStrings } from "./rules.js";
import { type Checked, compileChecker } from "./validate.js";

export const QuestionItem = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: LIMITS.prompt, description: "The full question text" }),
    options: Type.Array(ChoiceOption, { minItems: 1, maxItems: LIMITS.options, description: "2-5 short options" }),
    id: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.id, description: "Unique id (defaults to q1, q2, ...)" }),
    ),
    label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: LIMITS.tabLabel,
        description: "Short tab label, e.g. 'Scope' (defaults to Q1, Q2, ...)",
      }),
    ),
    allowOther: Type.Optional(
      Type.Boolean({
        description: "Offer a 'Type something.' free-text answer (default true); false forces the listed options",
      }),
    ),
    multiple: Type.Optional(
      Type.Boolean({ description: "Multi-select: the user picks one or more options (default false)" }),
    ),
  },
  { additionalProperties: false },
);

export const QuestionParameters = Type.Object(
  {
    questions: Type.Array(QuestionItem, {
      minItems: 1,
      maxItems: LIMITS.questions,
      description:
        "One entry per open question. One question shows an option list; several show tabs with a Submit tab.",
    }),
    compat: Type.Optional(
      Type.Enum(["single-question"], {
        description: "Set automatically for the single-question call shape; do not set it yourself.",
      }),
    ),
  },
  { additionalProperties: false },
);

export type QuestionItemArgs = Static<typeof QuestionItem>;
export type QuestionArgs = Static<typeof QuestionParameters>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Fold the single-question shape `{question, options, allowOther?, type?}` into
 * `{questions: [...]}`. Anything else is returned unchanged for validation to judge.
 */
export function foldSingleQuestion(args: unknown): unknown {
  if (!isRecord(args) || "questions" in args || typeof args.question !== "string") return args;
  const { question, options, allowOther, type, ...rest } = args;
  const item: Record<string, unknown> = { prompt: question, options, ...rest };
  if (allowOther !== undefined) item.allowOther = allowOther;
  if (type !== undefined) item.multiple = type === "multi" ? true : type === "single" ? false : type;
  return { questions: [item], compat: "single-question" };
}

const checkSchema = compileChecker(QuestionParameters);

/** Fold, check the schema, normalize line endings, then the rules (unique ids, unique and unreserved labels). */
export function checkQuestionArgs(raw: unknown): Checked<QuestionArgs> {
  const checked = checkSchema(foldSingleQuestion(raw));
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  const error = checkItems(args.questions, { listName: "questions" });
  return error ? { ok: false, error } : { ok: true, value: args };
}
