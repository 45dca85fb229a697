/**
 * The answers a form opens with (defaults written by its author), and the
 * one way picks from outside the form (a default, a restored draft) are
 * fitted to a question.
 *
 * Contract: a question's `initial` answer is filled in as if the person had
 * given it: a typed answer's text is in its editor, an option is chosen and
 * highlighted, a multi-select's options are ticked. It counts as an answer
 * only when the question's own checks accept it (a default that breaks a
 * rule is shown, but Submit waits for a valid answer); options that do not
 * exist are ignored, and so is a typed answer where the question takes none.
 */
import type { Picks } from "./rows.js";
import type { FormSpec, QuestionSpec } from "./spec.js";
import { selectionAnswers, textProblems } from "./text-rules.js";

/**
 * Picks made fit for question `q`: options that exist, each once, in order;
 * typed answers only where the question takes them (a typed-answer question,
 * or `allowOther`), each once; a single-select keeps one choice (its first
 * option, else its typed answer), a typed-answer question one text.
 */
export function fitPicks(q: QuestionSpec, picks: Picks): Picks {
  const options = [...new Set(picks.options)]
    .filter((i) => Number.isInteger(i) && i >= 0 && i < q.options.length)
    .sort((a, b) => a - b);
  const custom = q.kind === "text" || q.allowOther ? [...new Set(picks.custom)] : [];
  if (q.kind === "text") return { options: [], custom: custom.slice(0, 1) };
  if (q.kind === "single") return { options: options.slice(0, 1), custom: options.length ? [] : custom.slice(0, 1) };
  return { options, custom };
}

/** Whether fitted picks answer question `q`: a text its checks accept, one choice, or a selection its count accepts. */
export function picksAnswer(q: QuestionSpec, picks: Picks): boolean {
  if (q.kind === "text") return picks.custom.length === 1 && textProblems(q.text!, picks.custom[0]).length === 0;
  if (q.kind === "multi") return selectionAnswers(q, picks);
  return picks.options.length + picks.custom.length === 1;
}

/** What opening answers set in a form's context. */
interface Opening {
  cursors: number[];
  picks: Picks[];
  answered: boolean[];
  drafts: string[];
}

/** `context` (a fresh one) with every question's initial answer applied. */
export function withInitialAnswers<C extends Opening>(spec: FormSpec, context: C): C {
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
      const typed = fitPicks(q, { options: [], custom: [text] });
      const ok = picksAnswer(q, typed);
      picks[k] = ok ? typed : picks[k];
      answered[k] = ok;
      return;
    }
    const chosen = fitPicks(q, q.initial);
    if (chosen.options.length === 0 && chosen.custom.length === 0) return;
    picks[k] = chosen;
    answered[k] = picksAnswer(q, chosen);
    if (chosen.options.length) cursors[k] = chosen.options[0];
  });
  return { ...context, cursors, picks, answered, drafts };
}
