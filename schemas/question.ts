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
import { checkItems, choiceOption, LIMITS, normalizeStrings } from "./rules.js";
import { type Checked, compileChecker } from "./validate.js";

const option = choiceOption;

export const questionParameters = {
  type: "object",
  additionalProperties: false,
  required: ["questions"],
  properties: {
    questions: {
      type: "array",
      minItems: 1,
      maxItems: LIMITS.questions,
      description:
        "One entry per open question. One question shows an option list; several show tabs with a Submit tab.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["prompt", "options"],
        properties: {
          prompt: { type: "string", minLength: 1, maxLength: LIMITS.prompt, description: "The full question text" },
          options: {
            type: "array",
            minItems: 1,
            maxItems: LIMITS.options,
            description: "2-5 short options",
            items: option,
          },
          id: {
            type: "string",
            minLength: 1,
            maxLength: LIMITS.id,
            description: "Unique id (defaults to q1, q2, ...)",
          },
          label: {
            type: "string",
            minLength: 1,
            maxLength: LIMITS.tabLabel,
            description: "Short tab label, e.g. 'Scope' (defaults to Q1, Q2, ...)",
          },
          allowOther: {
            type: "boolean",
            description: "Offer a 'Type something.' free-text answer (default true); false forces the listed options",
          },
          multiple: {
            type: "boolean",
            description: "Multi-select: the user picks one or more options (default false)",
          },
        },
      },
    },
    compat: {
      type: "string",
      enum: ["single-question"],
      description: "Set automatically for the single-question call shape; do not set it yourself.",
    },
  },
} as const;

export interface QuestionOptionArgs {
  label: string;
  description?: string;
}

export interface QuestionItemArgs {
  prompt: string;
  options: QuestionOptionArgs[];
  id?: string;
  label?: string;
  allowOther?: boolean;
  multiple?: boolean;
}

export interface QuestionArgs {
  questions: QuestionItemArgs[];
  compat?: "single-question";
}

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

const checkSchema = compileChecker<QuestionArgs>(questionParameters);

/** Fold, check the schema, normalize line endings, then the rules (unique ids, unique and unreserved labels). */
export function checkQuestionArgs(raw: unknown): Checked<QuestionArgs> {
  const checked = checkSchema(foldSingleQuestion(raw));
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  const error = checkItems(args.questions, { listName: "questions" });
  return error ? { ok: false, error } : { ok: true, value: args };
}
