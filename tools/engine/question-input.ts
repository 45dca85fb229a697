/** `question_input` once called: one typed answer, checked while it is typed; the result as its text and details. */
import type { FormResult } from "../../machines/context.js";
import { type FormSpec, normalizeForm } from "../../machines/spec.js";
import { checkAsWritten } from "../../schemas/aliases-check.js";
import type { InputArgs } from "../../schemas/qwizard.js";
import { checkInputArgs } from "../../schemas/qwizard-check.js";
import { type InputDetails, questionInput as manifest } from "../question-input.js";
import { byPrompt, cancelledText, outcomeFields, quoted, timedOutText } from "./answer-text.js";
import { defineFormTool } from "./form-tool.js";
import { failureOutcome } from "./outcome.js";
import { rangeSentence } from "./schema-form.js";

export function inputForm(args: InputArgs): FormSpec {
  return normalizeForm({
    questions: [
      {
        prompt: args.question,
        options: [],
        kind: "text",
        required: args.required,
        placeholder: args.placeholder,
        // The range is read before typing, not learnt from a broken answer.
        body:
          args.type === "number" ? rangeSentence({ kind: "number", minimum: args.min, maximum: args.max }) : undefined,
        text: {
          type: args.type ?? "text",
          minLength: args.minLength,
          maxLength: args.maxLength,
          pattern: args.pattern,
          minimum: args.min,
          maximum: args.max,
        },
      },
    ],
  });
}

function answer(spec: FormSpec, form: FormResult) {
  const question = spec.questions[0].prompt;
  if (form.timedOut) {
    const typed = form.answers[0].answered ? (form.answers[0].custom[0] ?? "") : null;
    const details: InputDetails = { question, answer: typed, ...outcomeFields(form) };
    return { text: timedOutText(spec, form, byPrompt), details };
  }
  if (form.cancelled) {
    const details: InputDetails = { question, answer: null, ...outcomeFields(form) };
    return { text: cancelledText("question", []), details };
  }
  const value = form.answers[0].custom[0] ?? "";
  // One question: `answer` says it was left empty, and there is no id to name.
  const { unanswered: _, ...fields } = outcomeFields(form);
  const details: InputDetails = { question, answer: value, ...fields };
  return { text: value === "" ? "User left the answer empty." : `User answered: ${quoted(value)}`, details };
}

export const questionInput = defineFormTool<InputArgs, InputDetails>(manifest, {
  check: checkAsWritten(checkInputArgs),
  form: inputForm,
  timeoutSeconds: (args) => args.timeout,
  answer: (_args, spec, result) => answer(spec, result),
  failure(failure, raw, spec) {
    const asked = (raw as { question?: unknown } | null)?.question;
    const details: InputDetails = {
      question: spec?.questions[0].prompt ?? (typeof asked === "string" ? asked : ""),
      answer: null,
      cancelled: true,
      outcome: failureOutcome(failure.category),
      error: failure.category,
    };
    if (failure.category !== "no_ui") details.validationErrors = [failure.message];
    return details;
  },
});
