/**
 * `question`: one or more multiple-choice questions; one shows an option
 * list, several a tabbed form with a Submit tab.
 *
 * `details` is `{questions, answers, cancelled}`: one answer per chosen option
 * or typed text, `index` 1-based as in the text the model reads and absent for
 * typed answers, `previewed: true` when the chosen option had a preview. A call in the single-question shape also carries
 * `question`, `options`, `answer`, `wasCustom` and `index` of that question.
 * The text groups each question's answers on one line:
 * `Scope: user selected: 1. A, 2. B, user wrote: X`.
 */
import type { FormResult, QuestionOutcome } from "../machines/context.js";
import { type FormSpec, normalizeForm, type QuestionSpec } from "../machines/spec.js";
import { checkAsWritten, prepareWith } from "../schemas/aliases.js";
import { checkQuestionArgs, foldSingleQuestion, type QuestionArgs, QuestionParameters } from "../schemas/question.js";
import { answerLine, cancelledText, outcomeFields, type TimedOutFields, timedOutText } from "./answer-text.js";
import { BY_TIMEOUT, defineFormTool, describeCall } from "./form-tool.js";
import { optionsFromStrings } from "./prepare.js";

export interface NormalizedQuestion {
  id: string;
  label: string;
  prompt: string;
  options: Array<{ label: string; description?: string; recommended?: true }>;
  allowOther: boolean;
  multiple: boolean;
}

export interface QuestionAnswer {
  id: string;
  label: string;
  wasCustom: boolean;
  /** 1-based position of the chosen option; absent for typed answers. */
  index?: number;
  /** The chosen option had a preview. */
  previewed?: true;
  /** Taken at the timeout: the option marked recommended, not the person's choice. */
  defaulted?: true;
}

export interface QuestionDetails extends TimedOutFields {
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

function formOf(args: QuestionArgs): FormSpec {
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
  if (args.compat === "single-question") Object.assign(out, singleShapeFields(spec.questions[0], result.answers[0]));
  return out;
}

function text(spec: FormSpec, result: FormResult): string {
  if (result.timedOut) return timedOutText(spec, result);
  if (!result.cancelled) return spec.questions.map((q, i) => answerLine(q, result.answers[i])).join("\n");
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

export const question = defineFormTool<QuestionArgs, QuestionDetails>({
  name: "question",
  label: "Question",
  description:
    "Ask the user to choose: one question is an option list, several are tabs with a Submit tab; " +
    "each also takes a typed answer unless allowOther is false.",
  searchHint: "choices",
  promptSnippet: "Ask the user multiple-choice questions",
  promptGuidelines: [
    "Use question instead of ending your reply with a question: all open questions in one call, 2-5 short options each, multiple: true where several apply.",
    "A cancelled question result means the user declined: re-ask only if the next step needs it.",
  ],
  parameters: QuestionParameters,
  prepareArguments: prepareWith(foldSingleQuestion, optionsFromStrings),
  check: checkAsWritten(checkQuestionArgs, optionsFromStrings),
  form: formOf,
  timeoutSeconds: (args) => args.timeout,
  answer: (args, spec, result) => ({ text: text(spec, result), details: details(args, spec, result) }),
  failure(failure, raw) {
    const out: QuestionDetails = { questions: [], answers: [], cancelled: true, error: failure.category };
    if (isSingleShape(raw)) Object.assign(out, { answer: null, wasCustom: false });
    return out;
  },
  callSummary: describeCall,
  resultSummary(d) {
    if (d.error) return { kind: "error" };
    const answers = d.questions.flatMap((q) => {
      const given = d.answers.filter((a) => a.id === q.id);
      if (given.length === 0) return [];
      const value = given
        .map((a) => `${a.wasCustom ? `✎ ${a.label}` : `${a.index}. ${a.label}`}${a.defaulted ? BY_TIMEOUT : ""}`)
        .join(", ");
      return [{ label: q.label, value }];
    });
    return { kind: "answers", cancelled: d.cancelled, timedOut: d.outcome === "timed_out", answers };
  },
});
