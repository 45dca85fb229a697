/**
 * `question_throttle`: one multiple-choice question, opened no sooner than
 * `cooldown` seconds (default 5) after the previous question closed; the wait
 * is a countdown the person can cancel.
 *
 * `details`: `{question, options, answer, wasCustom, index?, throttled, cancelled}`,
 * `throttled` telling whether it waited.
 */
import type { FormResult } from "../machines/context.js";
import { type FormSpec, normalizeForm } from "../machines/spec.js";
import { checkAsWritten, prepareWith } from "../schemas/aliases.js";
import { checkThrottleArgs, type ThrottleArgs, ThrottleParameters } from "../schemas/qwizard.js";
import {
  answerLine,
  byPrompt,
  cancelledText,
  chosenLabels,
  outcomeFields,
  type TimedOutFields,
  timedOutText,
} from "./answer-text.js";
import { BY_TIMEOUT, defineFormTool, describeCall } from "./form-tool.js";
import { optionsFromStrings, promptAsQuestion } from "./prepare.js";

export const DEFAULT_THROTTLE_COOLDOWN = 5;

export interface ThrottleDetails extends TimedOutFields {
  question: string;
  options: string[];
  answer: string | string[] | null;
  wasCustom: boolean;
  index?: number;
  throttled: boolean;
  cancelled: boolean;
  error?: string;
}

function formOf(args: ThrottleArgs): FormSpec {
  return normalizeForm({
    questions: [
      { prompt: args.question, options: args.options, allowOther: args.allowOther, multiple: args.type === "multi" },
    ],
  });
}

function answer(spec: FormSpec, form: FormResult) {
  const q = spec.questions[0];
  const outcome = form.answers[0];
  const labels = chosenLabels(q, outcome);
  const details: ThrottleDetails = {
    question: q.prompt,
    options: q.options.map((o) => o.label),
    answer: labels.length === 0 ? null : q.kind === "multi" ? labels : labels[0],
    wasCustom: outcome.custom.length > 0,
    throttled: form.waited,
    ...outcomeFields(form),
  };
  if (q.kind === "single" && outcome.options.length) details.index = outcome.options[0] + 1;
  if (form.timedOut) return { text: timedOutText(spec, form, byPrompt), details };
  return { text: form.cancelled ? cancelledText("question", []) : answerLine(q, outcome, "Answer"), details };
}

export const questionThrottle = defineFormTool<ThrottleArgs, ThrottleDetails>({
  name: "question_throttle",
  label: "Question (throttled)",
  description:
    "Ask one multiple-choice question, but not sooner than cooldown seconds (default 5) after the previous question; " +
    "the user sees a countdown they can cancel. details.throttled tells whether it waited.",
  searchHint: "spaced check-in",
  promptSnippet: "Ask one multiple-choice question, spaced out from the previous one by a cooldown",
  promptGuidelines: [
    "Use question_throttle for check-in questions in a long task so the user is not asked questions back to back.",
  ],
  parameters: ThrottleParameters,
  prepareArguments: prepareWith(promptAsQuestion, optionsFromStrings),
  check: checkAsWritten(checkThrottleArgs, promptAsQuestion, optionsFromStrings),
  form: formOf,
  cooldownSeconds: (args) => args.cooldown ?? DEFAULT_THROTTLE_COOLDOWN,
  timeoutSeconds: (args) => args.timeout,
  answer: (_args, spec, result) => answer(spec, result),
  failure(failure, raw) {
    const r = (raw ?? {}) as { question?: unknown; options?: unknown };
    return {
      question: typeof r.question === "string" ? r.question : "",
      options: Array.isArray(r.options) ? r.options.map((o) => String((o as { label?: unknown })?.label ?? "")) : [],
      answer: null,
      wasCustom: false,
      throttled: false,
      cancelled: true,
      error: failure.category,
    };
  },
  callSummary: describeCall,
  resultSummary(d) {
    if (d.error) return { kind: "error" };
    const joined = Array.isArray(d.answer) ? d.answer.join(", ") : d.answer;
    const value = joined !== null && d.defaulted?.length ? `${joined}${BY_TIMEOUT}` : joined;
    return {
      kind: "answers",
      cancelled: d.cancelled,
      timedOut: d.outcome === "timed_out",
      answers: value === null ? [] : [{ label: "Answer", value }],
    };
  },
});
