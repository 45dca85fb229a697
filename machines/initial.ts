/**
 * The answers a form opens with (defaults written by its author).
 *
 * Contract: a question's `initial` answer is filled in as if the person had
 * given it: a typed answer's text is in its editor, an option is chosen and
 * highlighted, a multi-select's options are ticked. It counts as an answer
 * only when the question's own checks accept it (a default that breaks a
 * rule is shown, but Submit waits for a valid answer); options that do not
 * exist are ignored.
 */
import type { FormContext } from "./context.js";
import type { Picks } from "./rows.js";
import type { FormSpec, QuestionSpec } from "./spec.js";
import { selectionAnswers, textProblems } from "./text-rules.js";

function validPicks(q: QuestionSpec, initial: Picks): Picks {
  const options = [...new Set(initial.options)]
    .filter((i) => Number.isInteger(i) && i >= 0 && i < q.options.length)
    .sort((a, b) => a - b);
  if (q.kind === "single")
    return { options: options.slice(0, 1), custom: options.length ? [] : initial.custom.slice(0, 1) };
  return { options, custom: q.allowOther ? [...initial.custom] : [] };
}

/** `context` (a fresh one) with every question's initial answer applied. */
export function withInitialAnswers(spec: FormSpec, context: FormContext): FormContext {
  if (!spec.questions.some((q) => q.initial)) return context;
  const cursors = [...context.cursors];
  const picks = [...context.picks];
  const answered = [...context.answered];
  const drafts = [...context.drafts];
  spec.questions.forEach((q, k) => {
    if (!q.initial) return;
    if (q.kind === "text") {
      const text = (q.initial.custom[0] ?? "").trim();
      if (text === "") return;
      drafts[k] = text;
      const ok = textProblems(q.text!, text).length === 0;
      picks[k] = ok ? { options: [], custom: [text] } : picks[k];
      answered[k] = ok;
      return;
    }
    const chosen = validPicks(q, q.initial);
    if (chosen.options.length === 0 && chosen.custom.length === 0) return;
    picks[k] = chosen;
    answered[k] = q.kind === "single" || selectionAnswers(q, chosen);
    if (chosen.options.length) cursors[k] = chosen.options[0];
  });
  return { ...context, cursors, picks, answered, drafts };
}
