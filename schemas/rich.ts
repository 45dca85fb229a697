// Parameters of `ask_rich_questions`, and of `submit_questions`, which `/rich-questions` asks the model to call.

import { type Static, Type } from "typebox";
import { LIMITS, PREVIEW_DESCRIPTION, Timeout } from "./fields.js";
import { declareAs, UNDECLARED } from "./lenient.js";

const text = (description?: string, maxLength: number = LIMITS.text) =>
  Type.Optional(Type.String({ maxLength, ...(description ? { description } : {}) }));

/** Another name of a field, accepted, not declared. */
const alias = (maxLength: number = LIMITS.text) => Type.Optional(Type.String({ maxLength, ...UNDECLARED }));

const RichOption = declareAs(
  Type.Object(
    {
      label: Type.String({ minLength: 1, maxLength: LIMITS.label }),
      value: Type.Optional(
        Type.String({ minLength: 1, maxLength: LIMITS.label, description: "Reported (default label)" }),
      ),
      description: text(),
      details: text(),
      note: text("Yours, shown as yours"),
      preview: text(PREVIEW_DESCRIPTION, LIMITS.preview),
      recommended: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  {
    // Folded into `{label}` before Pi's check (tools/prepare.ts).
    type: ["string", "object"],
    description:
      "Label, or {label, value? (reported; default label), description?, details?, note? (yours), preview?, recommended?}",
  },
);

/** One type list, not a union: one clear message when wrong. */
const Caveats = Type.Unsafe<string | string[]>({
  type: ["string", "array"],
  maxLength: LIMITS.text,
  maxItems: 50,
  items: { type: "string", maxLength: LIMITS.description },
});

const RichQuestion = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.id })),
    type: Type.Optional(Type.Enum(["radio", "checkbox", "text"], { description: "default radio" })),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.tabLabel })),
    prompt: Type.String({ minLength: 1, maxLength: LIMITS.prompt }),
    body: text(),
    details: alias(),
    context: text(),
    recommendation: text(),
    caveats: Type.Optional(Caveats),
    required: Type.Optional(Type.Boolean()),
    allowOther: Type.Optional(Type.Boolean({ description: "default false" })),
    placeholder: text(),
    options: Type.Optional(Type.Array(RichOption, { maxItems: LIMITS.options })),
  },
  { additionalProperties: false },
);

export const RichParameters = Type.Object(
  {
    title: text(undefined, LIMITS.title),
    description: text(),
    context: alias(),
    questions: Type.Array(RichQuestion, { maxItems: LIMITS.questions }),
    timeout: Timeout,
  },
  { additionalProperties: false },
);

export type RichOptionArgs = Static<typeof RichOption>;
export type RichQuestionArgs = Static<typeof RichQuestion>;
export type RichArgs = Static<typeof RichParameters>;
export type RichType = NonNullable<RichQuestionArgs["type"]>;
