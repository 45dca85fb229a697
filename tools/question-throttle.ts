/** `question_throttle`: one question, opened no sooner than `cooldown` seconds after the previous one closed. */
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

export const questionThrottle = defineManifest({
  name: "question_throttle",

  label: "Question (throttled)",

  description:
    "One multiple-choice question, at least cooldown seconds (default 5) after the last, with a cancellable countdown.",
  promptSnippet: "Check-in question spaced from the last",
  promptGuidelines: [],

  parameters: ThrottleParameters,

  folds: [promptAsQuestion, optionsFromStrings],
  callSummary: describeCall,
  resultSummary(d: ThrottleDetails) {
    if (d.error) return { kind: "error" };
    const joined = Array.isArray(d.answer) ? d.answer.join(", ") : d.answer;
    const value = joined !== null && d.defaulted?.length ? `${joined}${BY_TIMEOUT}` : joined;
    return {
      kind: "answers",
      cancelled: d.cancelled,
      answers: value === null ? [] : [{ label: "Answer", value }],
    };
  },
});
