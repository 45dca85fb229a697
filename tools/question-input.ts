/**
 * `question_input`: a typed answer, checked while it is typed (`text`,
 * `number` (in `min`…`max` when given), `email`, `date`; length and pattern
 * on the trimmed answer).
 *
 * `details`: `{question, answer, cancelled}`, plus `validationErrors` when the
 * arguments were refused. Text: `User answered: …`.
 */
import type { FormResult } from "../machines/context.js";
import { type FormSpec, normalizeForm } from "../machines/spec.js";
import { checkAsWritten, prepareWith } from "../schemas/aliases.js";
import { checkInputArgs, type InputArgs, InputParameters } from "../schemas/qwizard.js";
import { byPrompt, cancelledText, outcomeFields, quoted, type TimedOutFields, timedOutText } from "./answer-text.js";
import { defineFormTool, describeCall } from "./form-tool.js";
import { promptAsQuestion } from "./prepare.js";

export interface InputDetails extends TimedOutFields {
  question: string;
  answer: string | null;
  validationErrors?: string[];
  cancelled: boolean;
  error?: string;
}

export function inputForm(args: InputArgs): FormSpec {
  return normalizeForm({
    questions: [
      {
        prompt: args.question,
        options: [],
        kind: "text",
        required: args.required,
        placeholder: args.placeholder,
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
    const details: InputDetails = { question, answer: null, cancelled: true };
    return { text: cancelledText("question", []), details };
  }
  const value = form.answers[0].custom[0] ?? "";
  const details: InputDetails = { question, answer: value, cancelled: false };
  return { text: value === "" ? "User left the answer empty." : `User answered: ${quoted(value)}`, details };
}

export const questionInput = defineFormTool<InputArgs, InputDetails>({
  name: "question_input",
  label: "Question (typed answer)",
  description:
    "Ask the user for a typed answer, checked while they type: type text, number (min/max for a range), email or " +
    "date (YYYY-MM-DD), minLength/maxLength and pattern on the trimmed answer. Enter is refused until the answer is valid.",
  searchHint: "typed answer",
  promptSnippet: "Ask the user for a typed, validated answer (text, number, email, date)",
  promptGuidelines: [
    "Use question_input when the answer is free text (a name, a number, a date) rather than a choice between options.",
  ],
  parameters: InputParameters,
  prepareArguments: prepareWith(promptAsQuestion),
  check: checkAsWritten(checkInputArgs, promptAsQuestion),
  form: inputForm,
  timeoutSeconds: (args) => args.timeout,
  answer: (_args, spec, result) => answer(spec, result),
  failure(failure, raw, spec) {
    const asked = (raw as { question?: unknown } | null)?.question;
    const details: InputDetails = {
      question: spec?.questions[0].prompt ?? (typeof asked === "string" ? asked : ""),
      answer: null,
      cancelled: true,
      error: failure.category,
    };
    if (failure.category !== "no_ui") details.validationErrors = [failure.message];
    return details;
  },
  callSummary: describeCall,
  resultSummary: (d) =>
    d.error
      ? { kind: "error" }
      : {
          kind: "answers",
          cancelled: d.cancelled,
          timedOut: d.outcome === "timed_out",
          answers: d.answer === null ? [] : [{ label: "Answer", value: d.answer }],
        },
});
