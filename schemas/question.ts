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
import { type ArgumentError, type Checked, compileChecker } from "./validate.js";

const option = {
  type: "object",
  additionalProperties: false,
  required: ["label"],
  properties: {
    label: { type: "string", minLength: 1, description: "Short option label" },
    description: { type: "string", description: "Optional one-line description shown under the label" },
  },
} as const;

export const questionParameters = {
  type: "object",
  additionalProperties: false,
  required: ["questions"],
  properties: {
    questions: {
      type: "array",
      minItems: 1,
      description: "One entry per open question. One question shows an option list; several show tabs with a Submit tab.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["prompt", "options"],
        properties: {
          prompt: { type: "string", minLength: 1, description: "The full question text" },
          options: {
            type: "array",
            minItems: 1,
            description: "2-5 short options",
            items: option,
          },
          id: { type: "string", minLength: 1, description: "Unique id (defaults to q1, q2, ...)" },
          label: { type: "string", minLength: 1, description: "Short tab label, e.g. 'Scope' (defaults to Q1, Q2, ...)" },
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

/** Option labels the form uses for its own rows. */
export const RESERVED_LABELS = ["Type something.", "Type something...", "Other", "Next"];

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

/** Line endings a model may send: CRLF and lone CR become LF. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

const checkSchema = compileChecker<QuestionArgs>(questionParameters);

/** The rules a JSON Schema cannot say: unique ids, unique and unreserved option labels. */
export function checkQuestionRules(args: QuestionArgs): ArgumentError | undefined {
  const ids = new Map<string, number>();
  for (const [i, q] of args.questions.entries()) {
    const id = q.id ?? `q${i + 1}`;
    const earlier = ids.get(id);
    if (earlier !== undefined) {
      return { category: "duplicate_id", message: `questions[${i}].id: "${id}" is already used by questions[${earlier}]` };
    }
    ids.set(id, i);
    const labels = new Map<string, number>();
    for (const [j, o] of q.options.entries()) {
      const key = o.label.trim().toLowerCase();
      if (RESERVED_LABELS.some((r) => r.toLowerCase() === key)) {
        return {
          category: "reserved_label",
          message: `questions[${i}].options[${j}].label: "${o.label}" is reserved; the form adds its own free-text row (allowOther)`,
        };
      }
      const twin = labels.get(key);
      if (twin !== undefined) {
        return {
          category: "duplicate_option",
          message: `questions[${i}].options[${j}].label: "${o.label}" repeats options[${twin}]`,
        };
      }
      labels.set(key, j);
    }
  }
  return undefined;
}

/** Fold, normalize line endings, check the schema, then the rules. */
export function checkQuestionArgs(raw: unknown): Checked<QuestionArgs> {
  const checked = checkSchema(foldSingleQuestion(raw));
  if (!checked.ok) return checked;
  const args: QuestionArgs = {
    ...checked.value,
    questions: checked.value.questions.map((q) => ({
      ...q,
      prompt: normalizeNewlines(q.prompt),
      options: q.options.map((o) => ({ ...o, label: normalizeNewlines(o.label), ...(o.description !== undefined ? { description: normalizeNewlines(o.description) } : {}) })),
    })),
  };
  const error = checkQuestionRules(args);
  return error ? { ok: false, error } : { ok: true, value: args };
}
