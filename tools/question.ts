/**
 * `question`: one or more multiple-choice questions. `details` holds one
 * answer per chosen option or typed text; a call in the single-question shape
 * also carries that question's `question`, `options`, `answer`, `wasCustom`
 * and `index`.
 */
import { foldSingleQuestion, QuestionParameters } from "../schemas/question.js";
import type { OutcomeFields } from "./engine/answer-text.js";
import { BY_TIMEOUT, defineManifest, describeCall } from "./manifest.js";
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
  /** 1-based, as in the text the model reads; absent for typed answers. */
  index?: number;
  previewed?: true;
  /** Taken at the timeout: the option marked recommended, not the person's choice. */
  defaulted?: true;
}

export interface QuestionDetails extends OutcomeFields {
  questions: NormalizedQuestion[];
  answers: QuestionAnswer[];
  cancelled: boolean;
  /** Submitted forms only. */
  additionalText?: string;
  error?: string;
  // The single-question call shape adds these:
  question?: string;
  options?: string[];
  answer?: string | string[] | null;
  wasCustom?: boolean;
  index?: number;
}

export const question = defineManifest({
  name: "question",
  label: "Question",
  description:
    "Ask the user multiple-choice questions; several show as tabs. Typed answers too, unless allowOther: false; required: true blocks Submit. timeout (any form tool): seconds before the recommended options are taken.",
  promptSnippet: "Ask the user multiple-choice questions",
  promptGuidelines: [
    "Ask with question, not in your reply: all open questions in one call, 2-5 short options each.",
    "If the user cancels a question, re-ask only if the next step needs it.",
  ],
  parameters: QuestionParameters,
  folds: [foldSingleQuestion, optionsFromStrings],
  callSummary: describeCall,
  resultSummary(d: QuestionDetails) {
    if (d.error) return { kind: "error" };
    const answers = d.questions.flatMap((q) => {
      const given = d.answers.filter((a) => a.id === q.id);
      if (given.length === 0) return [];
      const value = given
        .map((a) => `${a.wasCustom ? `✎ ${a.label}` : `${a.index}. ${a.label}`}${a.defaulted ? BY_TIMEOUT : ""}`)
        .join(", ");
      return [{ label: q.label, value }];
    });
    return { kind: "answers", cancelled: d.cancelled, answers };
  },
});
