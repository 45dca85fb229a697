/** `question` once called: the questions as a form, and the form's result as the text and the `details` the manifest describes. */
import type { FormResult, QuestionOutcome } from "../../machines/context.js";
import { type FormSpec, normalizeForm, type QuestionSpec } from "../../machines/spec.js";
import { checkAsWritten } from "../../schemas/aliases-check.js";
import type { QuestionArgs } from "../../schemas/question.js";
import { checkFoldedQuestion } from "../../schemas/question-check.js";
import {
  question as manifest,
  type NormalizedQuestion,
  type QuestionAnswer,
  type QuestionDetails,
} from "../question.js";
import { answerLine, cancelledText, notesLine, outcomeFields, partialLine, timedOutText } from "./answer-text.js";
import { defineFormTool } from "./form-tool.js";
import { failureOutcome, outcomeOf } from "./outcome.js";

function formOf(args: QuestionArgs): FormSpec {
  return normalizeForm({
    additionalNotes: true,
    questions: args.questions.map((q) => ({
      id: q.id,
      label: q.label,
      prompt: q.prompt,
      options: q.options,
      allowOther: q.allowOther,
      multiple: q.multiple,
      // Open unless the model says it must be answered: the person can submit the rest.
      required: q.required ?? false,
    })),
  });
}

function normalizedQuestions(spec: FormSpec): NormalizedQuestion[] {
  return spec.questions.map((q) => ({
    id: q.id,
    label: q.label,
    prompt: q.prompt,
    options: q.options.map((o) => ({
      label: o.label,
      ...(o.description ? { description: o.description } : {}),
      ...(o.recommended ? { recommended: true as const } : {}),
    })),
    allowOther: q.allowOther,
    multiple: q.kind === "multi",
  }));
}

function answersOf(q: QuestionSpec, outcome: QuestionOutcome): QuestionAnswer[] {
  if (!outcome.answered) return [];
  return [
    ...outcome.options.map(
      (i): QuestionAnswer =>
        q.options[i].preview
          ? { id: q.id, label: q.options[i].label, wasCustom: false, index: i + 1, previewed: true }
          : { id: q.id, label: q.options[i].label, wasCustom: false, index: i + 1 },
    ),
    ...outcome.custom.map((text) => ({ id: q.id, label: text, wasCustom: true })),
  ];
}

function singleShapeFields(q: QuestionSpec, outcome: QuestionOutcome | undefined) {
  const answers = outcome ? answersOf(q, outcome) : [];
  const base = { question: q.prompt, options: q.options.map((o) => o.label) };
  if (answers.length === 0) return { ...base, answer: null, wasCustom: false };
  if (q.kind === "multi") {
    return { ...base, answer: answers.map((a) => a.label), wasCustom: answers.some((a) => a.wasCustom) };
  }
  const [a] = answers;
  return a.index === undefined
    ? { ...base, answer: a.label, wasCustom: true }
    : { ...base, answer: a.label, wasCustom: false, index: a.index };
}

function details(args: QuestionArgs, spec: FormSpec, result: FormResult): QuestionDetails {
  const defaulted = new Set(result.defaulted ?? []);
  const out: QuestionDetails = {
    questions: normalizedQuestions(spec),
    answers: spec.questions.flatMap((q, i) =>
      answersOf(q, result.answers[i]).map((a) => (defaulted.has(q.id) ? { ...a, defaulted: true as const } : a)),
    ),
    ...outcomeFields(result),
  };
  if (!result.cancelled && result.additionalText) out.additionalText = result.additionalText;
  if (args.compat === "single-question") Object.assign(out, singleShapeFields(spec.questions[0], result.answers[0]));
  return out;
}

function text(spec: FormSpec, result: FormResult): string {
  if (result.timedOut) return timedOutText(spec, result);
  if (!result.cancelled) {
    const lines = [...spec.questions.map((q, i) => answerLine(q, result.answers[i])), ...notesLine(result)];
    return (outcomeOf(result) === "partial" ? [partialLine(spec, result), ...lines] : lines).join("\n");
  }
  const given = spec.questions.flatMap((q, i) =>
    result.answers[i].answered ? [answerLine(q, result.answers[i])] : [],
  );
  return cancelledText("form", given);
}

/** A call in the single-question shape, as Pi hands it over (folded) or as written. */
const isSingleShape = (raw: unknown) => {
  const r = raw as { compat?: unknown; question?: unknown; questions?: unknown } | null;
  return r?.compat === "single-question" || (typeof r?.question === "string" && r.questions === undefined);
};

export const question = defineFormTool<QuestionArgs, QuestionDetails>(manifest, {
  check: checkAsWritten(checkFoldedQuestion),
  form: formOf,
  timeoutSeconds: (args) => args.timeout,
  answer: (args, spec, result) => ({ text: text(spec, result), details: details(args, spec, result) }),
  failure(failure, raw) {
    const out: QuestionDetails = {
      questions: [],
      answers: [],
      cancelled: true,
      outcome: failureOutcome(failure.category),
      error: failure.category,
    };
    if (isSingleShape(raw)) Object.assign(out, { answer: null, wasCustom: false });
    return out;
  },
});
