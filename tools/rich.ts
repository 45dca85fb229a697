/**
 * `ask_rich_questions`: a review form with recommendations, presenter notes,
 * the person's own notes on options and additional notes on the review screen.
 *
 * Result contract (docs/result-contract.md):
 * - the model-facing text, per question: normalized id and type, prompt and
 *   the optional blocks, every predefined option in order (1-based position,
 *   label, stable value, selected, recommended, description, details,
 *   presenter note, user note), the "Other / custom answer" entry when
 *   allowed, and the selected answer; `(empty)` for an unanswered text
 *   question; form title/context and additional notes; continuation lines of
 *   multi-line values indented under their field;
 * - `details`: a `RichFormResult`, or `{cancelled: true}` when no form could open.
 * What it does once called: tools/engine/rich.ts.
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
  /**
   * How the form ended (tools/engine/outcome.ts). At `timed_out` the text is the
   * contract's cancelled text (nothing was submitted); `answers` holds what the
   * form closed with: a restored draft's answers and the recommended options.
   */
  outcome: Outcome;
  /** With `outcome`: ids of the questions that took their recommended option. */
  defaulted?: string[];
  /** With `outcome: "partial"`: ids of the shown questions submitted without an answer. */
  unanswered?: string[];
}

export interface RichForm {
  title?: string;
  description?: string;
  questions: NormalizedRichQuestion[];
  /** Seconds to wait for the person's first key (the call's `timeout`). */
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
    return { kind: "answers", cancelled: d.cancelled, timedOut: d.outcome === "timed_out", answers };
  },
});
