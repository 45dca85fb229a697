/**
 * Parameters of the `question` tool.
 *
 * The schema below is both what Pi shows the model (and validates) and what
 * ajv checks before a form opens. Shape: `questions[]`, each a prompt with
 * options, an optional id and tab label, `allowOther` (default true) and
 * `multiple` (default false). The single-question call shape
 * (`question`, `options`, `allowOther`, `type: "single" | "multi"`) is folded
 * into it by `foldSingleQuestion` before validation; errors name its fields
 * as written (schemas/aliases.ts).
 */
import { type Static, Type } from "typebox";
import { type Alias, checkAsWritten, type Fold } from "./aliases.js";
import { ChoiceOption, checkItems, isRecord, LIMITS, normalizeStrings, Timeout } from "./rules.js";
import { type ArgumentError, type Checked, compileChecker } from "./validate.js";

export const QuestionItem = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: LIMITS.prompt }),
    options: Type.Array(ChoiceOption, { maxItems: LIMITS.options }),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.id })),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.tabLabel })),
    allowOther: Type.Optional(Type.Boolean()),
    multiple: Type.Optional(Type.Boolean()),
    required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const QuestionParameters = Type.Object(
  {
    questions: Type.Array(QuestionItem, {
      maxItems: LIMITS.questions,
    }),
    timeout: Timeout,
    compat: Type.Optional(
      Type.Enum(["single-question"], {
        // Set by the argument fold of the single-question shape, never by the model: not declared.
        readOnly: true,
      }),
    ),
  },
  { additionalProperties: false },
);

export type QuestionItemArgs = Static<typeof QuestionItem>;
export type QuestionArgs = Static<typeof QuestionParameters>;

const SINGLE_TYPES: Readonly<Record<string, boolean>> = { single: false, multi: true };

/**
 * Fold the single-question shape `{question, options, allowOther?, type?}` into
 * `{questions: [...], compat: "single-question"}`; anything else is returned
 * unchanged for validation to judge. Fields keep their written names in
 * errors: `question`, `options[1].label`, `type`, `arguments` for the call
 * itself. A `type` other than `single` / `multi` stays `type`, for the check
 * to refuse by that name; missing `options` become an empty list, which the
 * check refuses as `options`.
 */
export const foldSingleQuestion: Fold = (args) => {
  if (!isRecord(args) || "questions" in args || typeof args.question !== "string") return { args, aliases: [] };
  const { question, options, allowOther, type, timeout, ...rest } = args;
  const item: Record<string, unknown> = { prompt: question, options: options ?? [], ...rest };
  const aliases: Alias[] = [
    ["questions[0].prompt", "question"],
    ["questions[0]", ""],
  ];
  if (allowOther !== undefined) item.allowOther = allowOther;
  if (typeof type === "string" && type in SINGLE_TYPES) {
    item.multiple = SINGLE_TYPES[type];
    aliases.unshift(["questions[0].multiple", "type"]);
  } else if (type !== undefined) {
    item.type = type;
  }
  const folded = { questions: [item], ...(timeout !== undefined ? { timeout } : {}), compat: "single-question" };
  return { args: folded, aliases };
};

const checkSchema = compileChecker(QuestionParameters);

/** A `type` left over from the single-question shape is not one it knows. */
function leftoverType(args: unknown): ArgumentError | undefined {
  if (!isRecord(args) || args.compat !== "single-question" || !Array.isArray(args.questions)) return undefined;
  const item = args.questions[0];
  if (!isRecord(item) || !("type" in item)) return undefined;
  return {
    category: "invalid_arguments",
    message: 'Invalid arguments: questions[0].type: must be one of "single", "multi"',
  };
}

/**
 * Arguments in the tool's own shape (the single-question shape folded
 * already): check the schema, normalize line endings, then the rules: at least one
 * question (`empty_questionnaire`) with at least one option each
 * (`too_few_options`), unique ids, unique and unreserved labels.
 */
export function checkFoldedQuestion(raw: unknown): Checked<QuestionArgs> {
  const type = leftoverType(raw);
  if (type) return { ok: false, error: type };
  const checked = checkSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  const error = checkItems(args.questions, { listName: "questions", minOptions: 1 });
  return error ? { ok: false, error } : { ok: true, value: args };
}

/** Fold the single-question shape, check, and name every field of an error as it was written. */
export const checkQuestionArgs = checkAsWritten(checkFoldedQuestion, foldSingleQuestion);
