/**
 * The model-facing wording shared by the choice tools: one line per
 * question, and what a cancelled form says.
 *
 * `Label: user selected: 1. A, 2. B, user wrote: X`; a rating reads
 * `4 (Very good)`; an unanswered question `(no answer)`, or `(skipped)` when
 * it was optional.
 */
import type { QuestionOutcome } from "../machines/context.js";
import { optionText, type QuestionSpec } from "../machines/spec.js";

/** An answer's chosen option labels in option order, then its typed values; empty when unanswered. */
export function chosenLabels(q: QuestionSpec, outcome: QuestionOutcome): string[] {
  return outcome.answered ? [...outcome.options.map((i) => q.options[i].label), ...outcome.custom] : [];
}

/** One line per question: `Label: user selected: 1. A, 2. B, user wrote: X`. */
export function answerLine(q: QuestionSpec, outcome: QuestionOutcome, label = q.label): string {
  if (!outcome.answered) return `${label}: ${q.required ? "(no answer)" : "(skipped)"}`;
  const parts: string[] = [];
  if (outcome.options.length) parts.push(`user selected: ${outcome.options.map((i) => optionText(q, i)).join(", ")}`);
  if (outcome.custom.length) parts.push(`user wrote: ${outcome.custom.join(", ")}`);
  return `${label}: ${parts.join(", ") || "(no choice)"}`;
}

/** What the model reads of a cancelled form: the answers given before, or that there were none. */
export function cancelledText(subject: "form" | "questionnaire" | "question", given: string[]): string {
  if (given.length === 0) return `User cancelled the ${subject} without answering. Treat this as a declined answer.`;
  return [`User cancelled the ${subject}. Answers given before cancelling:`, ...given].join("\n");
}
