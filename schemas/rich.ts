/**
 * Parameters of `ask_rich_questions` (and of the internal `submit_questions`
 * tool `/rich-questions` asks the model to call).
 *
 * A form has an optional `title` and `description` (or `context`), and
 * questions of type `radio` (default), `checkbox` or `text`. A question may
 * carry `body` (or `details`), `context`, `recommendation`, `caveats`,
 * `required` (default true) and `allowOther` (default false); an option
 * carries `label`, a stable `value` (default: the label), `description`,
 * `details`, a presenter `note` and `recommended`.
 */
import { type Static, Type } from "typebox";
import { checkItems, LIMITS, normalizeStrings, PREVIEW_DESCRIPTION, Timeout } from "./rules.js";
import { type Checked, compileChecker } from "./validate.js";

const text = (description: string, maxLength: number = LIMITS.text) =>
  Type.Optional(Type.String({ maxLength, description }));

const RichOption = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: LIMITS.label, description: "Short option label" }),
    value: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: LIMITS.label,
        description: "Stable value reported back (defaults to the label)",
      }),
    ),
    description: text("One-line description"),
    details: text("Longer explanation"),
    note: text("Your note about this option, shown to the user as yours"),
    preview: text(PREVIEW_DESCRIPTION, LIMITS.preview),
    recommended: Type.Optional(Type.Boolean({ description: "You recommend this option" })),
  },
  { additionalProperties: false },
);

/** A string or a list of strings, as one JSON Schema type list (one clear error message when wrong). */
const Caveats = Type.Unsafe<string | string[]>({
  type: ["string", "array"],
  maxLength: LIMITS.text,
  maxItems: 50,
  items: { type: "string", maxLength: LIMITS.description },
  description: "Risks or trade-offs",
});

const RichQuestion = Type.Object(
  {
    id: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.id, description: "Stable id (defaults to q1, q2, ...)" }),
    ),
    type: Type.Optional(Type.Enum(["radio", "checkbox", "text"], { description: "radio (default), checkbox or text" })),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.tabLabel, description: "Short tab label" })),
    prompt: Type.String({ minLength: 1, maxLength: LIMITS.prompt, description: "The question" }),
    body: text("Explanation under the question"),
    details: text("Same as body"),
    context: text("Background the user needs"),
    recommendation: text("What you recommend and why"),
    caveats: Type.Optional(Caveats),
    required: Type.Optional(Type.Boolean({ description: "Must be answered before submit (default true)" })),
    allowOther: Type.Optional(Type.Boolean({ description: "Offer a custom answer (default false)" })),
    placeholder: text("Hint for a text question"),
    options: Type.Optional(
      Type.Array(RichOption, { maxItems: LIMITS.options, description: "Options of a radio or checkbox question" }),
    ),
  },
  { additionalProperties: false },
);

export const RichParameters = Type.Object(
  {
    title: text("Form title", LIMITS.title),
    description: text("Context for the whole form"),
    context: text("Same as description"),
    questions: Type.Array(RichQuestion, {
      maxItems: LIMITS.questions,
      description: "The questions, each radio (one choice), checkbox (several) or text (typed)",
    }),
    timeout: Timeout,
  },
  { additionalProperties: false },
);

export type RichOptionArgs = Static<typeof RichOption>;
export type RichQuestionArgs = Static<typeof RichQuestion>;
export type RichArgs = Static<typeof RichParameters>;
export type RichType = NonNullable<RichQuestionArgs["type"]>;

const checkSchema = compileChecker(RichParameters);

/**
 * What `/rich-questions` accepts from the model: the tool's arguments, or an
 * empty `questions` list, which says the message asks nothing (the tool
 * itself refuses an empty form as `empty_questionnaire`).
 */
export function checkExtractedArgs(raw: unknown): Checked<RichArgs> {
  const checked = checkSchema(raw);
  if (checked.ok && checked.value.questions.length === 0) return { ok: true, value: normalizeStrings(checked.value) };
  return checkRichArgs(raw);
}

/** Schema, then rules: ids unique, choice questions with options, labels and stable values unique and unreserved. */
export function checkRichArgs(raw: unknown): Checked<RichArgs> {
  const checked = checkSchema(raw);
  if (!checked.ok) return checked;
  const args = normalizeStrings(checked.value);
  const error = checkItems(
    args.questions.map((q) => ({
      id: q.id,
      prompt: q.prompt,
      options: q.options ?? [],
      generatedOptions: q.type === "text",
    })),
    { listName: "questions", minOptions: 1 },
  );
  if (error) return { ok: false, error };
  for (const [i, q] of args.questions.entries()) {
    if (q.type === "text" && q.options?.length) {
      return {
        ok: false,
        error: { category: "invalid_arguments", message: `questions[${i}].options: a text question has no options` },
      };
    }
    const values = new Map<string, number>();
    for (const [j, o] of (q.options ?? []).entries()) {
      const value = o.value ?? o.label;
      const twin = values.get(value);
      if (twin !== undefined) {
        return {
          ok: false,
          error: {
            category: "duplicate_option",
            message: `questions[${i}].options[${j}].value: "${value}" repeats the value of options[${twin}]`,
          },
        };
      }
      values.set(value, j);
    }
  }
  return { ok: true, value: args };
}
