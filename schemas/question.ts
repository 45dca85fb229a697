/** Parameters of `question`, and the fold of its single-question call shape. */
import { type Static, Type } from "typebox";
import type { Alias, Fold } from "./aliases.js";
import { ChoiceOption, isRecord, LIMITS, Timeout } from "./fields.js";

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
      // Set by the fold below, never by the model: not declared.
      Type.Enum(["single-question"], { readOnly: true }),
    ),
  },
  { additionalProperties: false },
);

export type QuestionArgs = Static<typeof QuestionParameters>;

const SINGLE_TYPES: Readonly<Record<string, boolean>> = { single: false, multi: true };

/**
 * `{question, options, allowOther?, type?}` → `{questions: [...], compat:
 * "single-question"}`. A `type` other than `single` / `multi` stays `type`,
 * for the check to refuse by that name; missing `options` become an empty
 * list, refused as `options`.
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
