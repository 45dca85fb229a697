/**
 * `ask_rich_questions`: a review form with recommendations, presenter notes
 * and the person's own notes. Its result contract is docs/result-contract.md;
 * `details` is a `RichFormResult`, or `{cancelled: true}` when no form opened.
 */

import type { Outcome } from "../schemas/outcome.js";
import { type RichOptionArgs, RichParameters, type RichQuestionArgs, type RichType } from "../schemas/rich.js";
import { defineManifest, describeCall } from "./manifest.js";
import { optionsFromStrings } from "./prepare.js";

export interface NormalizedRichOption extends RichOptionArgs {
  value: string;
}

export interface NormalizedRichQuestion extends Omit<RichQuestionArgs, "options"> {
  id: string;
  type: RichType;
  label: string;
  required: boolean;
  allowOther: boolean;
  options: NormalizedRichOption[];
}

export interface RichAnswer {
  id: string;
  type: RichType;
  value: string | string[];
  wasCustom: boolean;
  selectedOptionIndexes?: number[];
  customValue?: string;
  optionNotes?: Array<{ optionIndex: number; value: string; label: string; note: string }>;
}

export interface RichFormResult {
  title?: string;
  description?: string;
  questions: NormalizedRichQuestion[];
  answers: RichAnswer[];
  additionalText?: string;
  cancelled: boolean;
  /** At `timed_out` the text is the cancelled text; `answers` holds what the form closed with. */
  outcome: Outcome;
  defaulted?: string[];
  unanswered?: string[];
}

export interface RichForm {
  title?: string;
  description?: string;
  questions: NormalizedRichQuestion[];
  timeout?: number;
}

export type RichDetails = RichFormResult | { cancelled: true; outcome: "no_ui" | "error"; error?: string };

export const askRichQuestions = defineManifest({
  name: "ask_rich_questions",

  label: "Rich questions",

  description:
    "A rich review form: radio, checkbox or text questions with body, context, recommendation and caveats; notes allowed.",
  promptSnippet: "Decisions with context and recommendations",
  promptGuidelines: ["With ask_rich_questions, mark your pick recommended: true and say why in recommendation."],

  parameters: RichParameters,

  folds: [optionsFromStrings],
  callSummary: describeCall,
  resultSummary(d: RichDetails) {
    if (!("answers" in d)) return { kind: "error" };
    const answers = d.questions.map((q, k) => {
      const a = d.answers[k];
      const value = Array.isArray(a.value) ? a.value.join(", ") : a.value;
      const notes = a.optionNotes?.length
        ? ` (${a.optionNotes.length} note${a.optionNotes.length === 1 ? "" : "s"})`
        : "";
      return { label: q.label, value: `${value || "(empty)"}${notes}` };
    });
    return { kind: "answers", cancelled: d.cancelled, answers };
  },
});
