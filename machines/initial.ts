/**
 * The answers a form opens with, filled in as if the person had given them.
 * One counts as an answer only when the question's checks accept it (a
 * default that breaks a rule is shown, but Submit waits for a valid answer).
 */
import type { Picks } from "./rows.js";
import type { FormSpec, QuestionSpec } from "./spec.js";
import { selectionAnswers, textProblems } from "./text-rules.js";

/** The one way picks from outside (a default, a restored draft) are fitted to a question. */
export function fitPicks(q: QuestionSpec, picks: Picks): Picks {
  const options = [...new Set(picks.options)]
    .filter((i) => Number.isInteger(i) && i >= 0 && i < q.options.length)
    .sort((a, b) => a - b);
  const custom = q.kind === "text" || q.allowOther ? [...new Set(picks.custom)] : [];
  if (q.kind === "text") return { options: [], custom: custom.slice(0, 1) };
  if (q.kind === "single") return { options: options.slice(0, 1), custom: options.length ? [] : custom.slice(0, 1) };
  return { options, custom };
}

export function picksAnswer(q: QuestionSpec, picks: Picks): boolean {
  if (q.kind === "text") return picks.custom.length === 1 && textProblems(q.text!, picks.custom[0]).length === 0;
  if (q.kind === "multi") return selectionAnswers(q, picks);
  return picks.options.length + picks.custom.length === 1;
}

interface Opening {
  cursors: number[];
  picks: Picks[];
  answered: boolean[];
  drafts: string[];
}

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
