// The check of `ask_rich_questions`' arguments (declared in rich.ts).
import { type RichArgs, RichParameters } from "./rich.js";
import { checkItems, normalizeStrings } from "./rules.js";
import { type Checked, compileChecker } from "./validate.js";

const checkSchema = compileChecker(RichParameters);

/** `/rich-questions` also takes an empty `questions` list: the message asks nothing (the tool refuses it). */
export function checkExtractedArgs(raw: unknown): Checked<RichArgs> {
  const checked = checkSchema(raw);
  if (checked.ok && checked.value.questions.length === 0) return { ok: true, value: normalizeStrings(checked.value) };
  return checkRichArgs(raw);
}

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
