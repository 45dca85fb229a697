/**
 * What the person entered, apart from what the form opened with: whether
 * there is anything (`hasInput`, which Esc asks before it cancels), what a
 * draft keeps (`enteredContext`: not what a timeout took), and a stored
 * draft fitted back to a form (`restoreContext`).
 */
import type { StoredContext } from "../schemas/draft.js";
import { clamp, type FormContext, initialContext, pruneHidden } from "./context.js";
import { fitPicks, picksAnswer } from "./initial.js";
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

/**
 * Whether the person has entered anything: an answer, a selection, a draft or
 * a note that the form did not open with (the author's defaults are not the
 * person's input).
 */
export function hasInput(spec: FormSpec, context: FormContext): boolean {
  const last = lastAsked.get(spec);
  if (
    last &&
    last.answered === context.answered &&
    last.picks === context.picks &&
    last.typed === context.typed &&
    last.drafts === context.drafts &&
    last.notes === context.notes &&
    last.additionalText === context.additionalText
  )
    return last.input;
  const input = enteredAnything(spec, context);
  const { answered, picks, typed, drafts, notes, additionalText } = context;
  lastAsked.set(spec, { answered, picks, typed, drafts, notes, additionalText, input });
  return input;
}

/**
 * The last answer of `hasInput` per form, with the parts of the context it
 * read: a context replaces a part when it changes it (never in place), so
 * the same parts give the same answer, and every key of a form asks (the
 * footer, Esc).
 */
const lastAsked = new WeakMap<
  FormSpec,
  Pick<FormContext, "answered" | "picks" | "typed" | "drafts" | "notes" | "additionalText"> & { input: boolean }
>();

function enteredAnything(spec: FormSpec, context: FormContext): boolean {
  let start = openedWith.get(spec);
  if (!start) {
    start = initialContext(spec);
    openedWith.set(spec, start);
  }
  const initial = start;
  return (
    context.answered.some((a, i) => a !== initial.answered[i]) ||
    context.picks.some((p, i) => !samePicks(p, initial.picks[i])) ||
    context.typed.some((t, i) => t.length !== initial.typed[i].length) ||
    context.drafts.some((d, i) => d.trim() !== initial.drafts[i].trim()) ||
    context.notes.some((n) => Object.values(n).some((t) => t.trim() !== "")) ||
    context.additionalText.trim() !== ""
  );
}

/**
 * What the person entered, without what the timeout took: each question the
 * timeout answered with its recommended option is as the form opened it.
 * This, not the context the form closed in, is what a draft keeps.
 */
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
 * A stored draft made fit for this form, or undefined when it cannot be:
 * lists of the wrong length, options that do not exist, a typed answer where
 * none is allowed, a selection the question would refuse, a note on a missing
 * option are dropped; answers of questions the draft's own answers now hide
 * are dropped too (pruned); each highlight stays on its row where the row still exists.
 */
export function restoreContext(spec: FormSpec, stored: StoredContext): FormContext | undefined {
  const n = spec.questions.length;
  const lists = [stored.cursors, stored.picks, stored.answered, stored.drafts, stored.notes];
  if (!lists.every((list) => list.length === n)) return undefined;
  const start = initialContext(spec);
  const context: FormContext = { ...start, drafts: [...stored.drafts], additionalText: stored.additionalText };
  spec.questions.forEach((q, k) => {
    // What a timeout took is not the person's: such a question's answer opens as it would without the draft.
    const taken = stored.defaulted?.[k] === true;
    const answered = stored.answered[k] === true && !taken;
    // Fitted as a default answer is: the same options, typed answers and checks.
    const picks = taken ? start.picks[k] : fitPicks(q, stored.picks[k]);
    const valid = picksAnswer(q, picks);
    context.picks[k] = answered && valid ? picks : answered ? NO_PICKS : picks;
    context.answered[k] = answered && valid;
    context.notes[k] = Object.fromEntries(
      Object.entries(stored.notes[k]).filter(([i]) => q.notes && Number(i) < q.options.length),
    );
    // Every ticked typed choice has its row; unticked ones keep theirs where typed answers are allowed.
    const kept = q.kind === "multi" && q.allowOther ? (stored.typed?.[k] ?? []) : [];
    context.typed[k] = q.kind === "multi" ? [...new Set([...kept, ...context.picks[k].custom])] : [];
    context.picks[k] = { ...context.picks[k], custom: inTypedOrder(context.typed[k], context.picks[k].custom) };
    context.cursors[k] = clamp(stored.cursors[k], 0, Math.max(0, rowCount(q, context.typed[k]) - 1));
  });
  return pruneHidden(spec, context);
}
