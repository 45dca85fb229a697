/**
 * The `question` tool's facade: its arguments → `FormSpec`, and a `FormResult`
 * → the tool's `details` and the text the model reads.
 *
 * `details` is `{questions, answers, cancelled}`: one answer per chosen option
 * or typed text, `index` 1-based as in the text the model reads and absent for
 * typed answers. A call in the single-question shape also carries
 * `question`, `options`, `answer`, `wasCustom` and `index` of that question.
 * The text groups each question's answers on one line:
 * `Scope: user selected: 1. A, 2. B, user wrote: X`.
 */
import type { FormResult, QuestionOutcome } from "../machines/form.js";
import { type FormSpec, normalizeForm, type QuestionSpec } from "../machines/spec.js";
import type { QuestionArgs } from "../schemas/question.js";

export interface NormalizedQuestion {
  id: string;
  label: string;
  prompt: string;
  options: Array<{ label: string; description?: string }>;
  allowOther: boolean;
  multiple: boolean;
}

export interface QuestionAnswer {
  id: string;
  label: string;
  wasCustom: boolean;
  /** 1-based position of the chosen option; absent for typed answers. */
  index?: number;
}

export interface QuestionDetails {
  questions: NormalizedQuestion[];
  answers: QuestionAnswer[];
  cancelled: boolean;
  /** Set when the form could not open: a stable category. */
  error?: string;
  // The single-question call shape adds these:
  question?: string;
  options?: string[];
  answer?: string | string[] | null;
  wasCustom?: boolean;
  index?: number;
}

export function questionFormSpec(args: QuestionArgs): FormSpec {
  return normalizeForm({
    questions: args.questions.map((q) => ({
      id: q.id,
      label: q.label,
      prompt: q.prompt,
      options: q.options,
      allowOther: q.allowOther,
      multiple: q.multiple,
    })),
  });
}

export function normalizedQuestions(spec: FormSpec): NormalizedQuestion[] {
  return spec.questions.map((q) => ({
    id: q.id,
    label: q.label,
    prompt: q.prompt,
    options: q.options.map((o) => (o.description ? { label: o.label, description: o.description } : { label: o.label })),
    allowOther: q.allowOther,
    multiple: q.kind === "multi",
  }));
}

function answersOf(q: QuestionSpec, outcome: QuestionOutcome): QuestionAnswer[] {
  if (!outcome.answered) return [];
  return [
    ...outcome.options.map((i) => ({ id: q.id, label: q.options[i].label, wasCustom: false, index: i + 1 })),
    ...outcome.custom.map((text) => ({ id: q.id, label: text, wasCustom: true })),
  ];
}

export function questionDetails(spec: FormSpec, result: FormResult, singleShape: boolean): QuestionDetails {
  const details: QuestionDetails = {
    questions: normalizedQuestions(spec),
    answers: spec.questions.flatMap((q, i) => answersOf(q, result.answers[i])),
    cancelled: result.cancelled,
  };
  if (singleShape) Object.assign(details, singleShapeFields(spec.questions[0], result.answers[0]));
  return details;
}

function singleShapeFields(q: QuestionSpec, outcome: QuestionOutcome | undefined) {
  const answers = outcome ? answersOf(q, outcome) : [];
  const base = { question: q.prompt, options: q.options.map((o) => o.label) };
  if (answers.length === 0) return { ...base, answer: null, wasCustom: false };
  if (q.kind === "multi") {
    return { ...base, answer: answers.map((a) => a.label), wasCustom: answers.some((a) => a.wasCustom) };
  }
  const [a] = answers;
  return a.index === undefined ? { ...base, answer: a.label, wasCustom: true } : { ...base, answer: a.label, wasCustom: false, index: a.index };
}

/** One line per question: `Label: user selected: 1. A, 2. B, user wrote: X`. */
export function answerLine(q: QuestionSpec, outcome: QuestionOutcome): string {
  if (!outcome.answered) return `${q.label}: ${q.required ? "(no answer)" : "(skipped)"}`;
  const parts: string[] = [];
  if (outcome.options.length) {
    parts.push(`user selected: ${outcome.options.map((i) => `${i + 1}. ${q.options[i].label}`).join(", ")}`);
  }
  if (outcome.custom.length) parts.push(`user wrote: ${outcome.custom.join(", ")}`);
  return `${q.label}: ${parts.join(", ") || "(no choice)"}`;
}

export function questionText(spec: FormSpec, result: FormResult): string {
  if (!result.cancelled) return spec.questions.map((q, i) => answerLine(q, result.answers[i])).join("\n");
  const given = spec.questions.flatMap((q, i) => (result.answers[i].answered ? [answerLine(q, result.answers[i])] : []));
  if (given.length === 0) return "User cancelled the form without answering. Treat this as a declined answer.";
  return ["User cancelled the form. Answers given before cancelling:", ...given].join("\n");
}
