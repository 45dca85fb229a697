/** What the person entered, apart from what the form opened with and what a timeout took. */
import type { StoredContext } from "../schemas/draft.js";
import { clamp, type FormContext, initialContext, pruneHidden } from "./context.js";
import { fitPicks, picksAnswer } from "./initial.js";
import { memoizeOne } from "./memo.js";
import { inTypedOrder, NO_PICKS, type Picks, rowCount } from "./rows.js";
import type { FormSpec } from "./spec.js";

const openedWith = new WeakMap<FormSpec, FormContext>();

function samePicks(a: Picks, b: Picks): boolean {
  return (
    a.options.length === b.options.length &&
    a.custom.length === b.custom.length &&
    a.options.every((o, i) => o === b.options[i]) &&
    a.custom.every((c, i) => c === b.custom[i])
  );
}

/** Whether the person entered anything the form did not open with (the author's defaults are not input). */
export function hasInput(spec: FormSpec, c: FormContext): boolean {
  return enteredAnything(spec, c.answered, c.picks, c.typed, c.drafts, c.notes, c.additionalText);
}

// Every key asks (the footer, Esc); a context replaces a part when it changes it, never in place.
const enteredAnything = memoizeOne(
  (
    spec: FormSpec,
    answered: boolean[],
    picks: Picks[],
    typed: string[][],
    drafts: string[],
    notes: Array<Record<number, string>>,
    additionalText: string,
  ): boolean => {
    let start = openedWith.get(spec);
    if (!start) {
      start = initialContext(spec);
      openedWith.set(spec, start);
    }
    const initial = start;
    return (
      answered.some((a, i) => a !== initial.answered[i]) ||
      picks.some((p, i) => !samePicks(p, initial.picks[i])) ||
      typed.some((t, i) => t.length !== initial.typed[i].length) ||
      drafts.some((d, i) => d.trim() !== initial.drafts[i].trim()) ||
      notes.some((n) => Object.values(n).some((t) => t.trim() !== "")) ||
      additionalText.trim() !== ""
    );
  },
);

/** What a draft keeps: each question the timeout answered is as the form opened it. */
export function enteredContext<C extends FormContext>(spec: FormSpec, context: C): C {
  if (!context.defaulted.some(Boolean)) return context;
  const start = initialContext(spec);
  const next: C = {
    ...context,
    answered: context.answered.map((a, k) => (context.defaulted[k] ? start.answered[k] : a)),
    picks: context.picks.map((p, k) => (context.defaulted[k] ? start.picks[k] : p)),
    typed: context.typed.map((t, k) => (context.defaulted[k] ? start.typed[k] : t)),
    defaulted: context.defaulted.map(() => false),
  };
  return pruneHidden(spec, next);
}

/**
 * A stored draft made fit for this form (undefined when its lists have the
 * wrong length): what the form would refuse is dropped, and so are answers
 * the draft's own answers now hide.
 */
export function restoreContext(spec: FormSpec, stored: StoredContext): FormContext | undefined {
  const n = spec.questions.length;
  const lists = [stored.cursors, stored.picks, stored.answered, stored.drafts, stored.notes];
  if (!lists.every((list) => list.length === n)) return undefined;
  const start = initialContext(spec);
  const context: FormContext = { ...start, drafts: [...stored.drafts], additionalText: stored.additionalText };
  spec.questions.forEach((q, k) => {
    const taken = stored.defaulted?.[k] === true;
    const answered = stored.answered[k] === true && !taken;
    const picks = taken ? start.picks[k] : fitPicks(q, stored.picks[k]);
    const valid = picksAnswer(q, picks);
    context.picks[k] = answered && valid ? picks : answered ? NO_PICKS : picks;
    context.answered[k] = answered && valid;
    context.notes[k] = Object.fromEntries(
      Object.entries(stored.notes[k]).filter(([i]) => q.notes && Number(i) < q.options.length),
    );
    const kept = q.kind === "multi" && q.allowOther ? (stored.typed?.[k] ?? []) : [];
    context.typed[k] = q.kind === "multi" ? [...new Set([...kept, ...context.picks[k].custom])] : [];
    context.picks[k] = { ...context.picks[k], custom: inTypedOrder(context.typed[k], context.picks[k].custom) };
    context.cursors[k] = clamp(stored.cursors[k], 0, Math.max(0, rowCount(q, context.typed[k]) - 1));
  });
  return pruneHidden(spec, context);
}
