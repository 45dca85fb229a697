/** `question_input`: a typed answer, checked while it is typed (length and pattern on the trimmed answer). */
import { InputParameters } from "../schemas/qwizard.js";
import type { OutcomeFields } from "./engine/answer-text.js";
import { defineManifest, describeCall } from "./manifest.js";
import { promptAsQuestion } from "./prepare.js";

export interface InputDetails extends OutcomeFields {
  question: string;
  answer: string | null;
  validationErrors?: string[];
  cancelled: boolean;
  error?: string;
}

export const questionInput = defineManifest({
  name: "question_input",

  label: "Question (typed answer)",

  description:
    "One typed answer, checked as typed: text, number (min, max), email or date (YYYY-MM-DD); minLength, maxLength, pattern on the trimmed text.",
  promptSnippet: "Typed, validated answer",
  promptGuidelines: [],

  parameters: InputParameters,

  folds: [promptAsQuestion],
  callSummary: describeCall,
  resultSummary: (d: InputDetails) =>
    d.error
      ? { kind: "error" }
      : {
          kind: "answers",
          cancelled: d.cancelled,
          answers: d.answer === null ? [] : [{ label: "Answer", value: d.answer }],
        },
});
