/**
 * How a call ended, the same word on every form tool's `details.outcome` and
 * on `elicit()`'s result: one list, and one neutral sentence each for the
 * text the model reads. No sentence tells the model what to do next.
 */
import type { FormResult } from "../../machines/context.js";
import type { Outcome } from "../../schemas/outcome.js";

export { OUTCOMES, type Outcome } from "../../schemas/outcome.js";

/**
 * What a closed form's result says: submitted with every shown question
 * answered, or with some open (questions a condition hid do not count).
 */
export function outcomeOf(result: FormResult): Outcome {
  if (result.timedOut) return "timed_out";
  if (result.declined) return "declined";
  if (result.cancelled) return "cancelled";
  return openIds(result).length ? "partial" : "answered";
}

export function failureOutcome(category: string): "no_ui" | "error" {
  return category === "no_ui" ? "no_ui" : "error";
}

export function openIds(result: FormResult): string[] {
  return result.answers.filter((a) => !a.answered && !result.hidden.includes(a.id)).map((a) => a.id);
}

/** The sentence a partial submit starts with; `open` names the questions left open, as the text names them. */
export function partialSentence(open: string[] = []): string {
  const named = open.length ? `: ${open.join(", ")}` : "";
  return `User submitted the form with some questions left open${named}.`;
}

/** The sentence a cancel starts with; `answered` when answers given before it follow. */
export function cancelledSentence(subject: string, answered: boolean): string {
  return answered
    ? `User cancelled the ${subject}. Answers given before cancelling:`
    : `User cancelled the ${subject} without answering.`;
}
