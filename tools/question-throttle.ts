/**
 * `question_throttle`: one multiple-choice question, opened no sooner than
 * `cooldown` seconds (default 5) after the previous question closed; the wait
 * is a countdown the person can cancel.
 *
 * `details`: `{question, options, answer, wasCustom, index?, throttled, cancelled}`,
 * `throttled` telling whether it waited.
 * What it does once called: tools/engine/question-throttle.ts.
 */
import { ThrottleParameters } from "../schemas/qwizard.js";
import type { OutcomeFields } from "./engine/answer-text.js";
import { BY_TIMEOUT, defineManifest, describeCall } from "./manifest.js";
import { optionsFromStrings, promptAsQuestion } from "./prepare.js";

export interface ThrottleDetails extends OutcomeFields {
  question: string;
  options: string[];
  answer: string | string[] | null;
  wasCustom: boolean;
  index?: number;
  throttled: boolean;
  cancelled: boolean;
  error?: string;
}

export const questionThrottle = defineManifest<ThrottleDetails>({
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

  folds: [promptAsQuestion, optionsFromStrings],
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
