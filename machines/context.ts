/**
 * What a form remembers, and what it reports when it closes. An answer change
 * that hides a later question drops that question's answer, and the form keeps
 * what it dropped until the person moves on, to say so. "Required, visible
 * and unanswered" is decided in one place (`openQuestions`): Submit, the tab
 * bar, the review screen and the dialogs all ask it.
 */
import { allHold } from "./conditions.js";
import { withInitialAnswers } from "./initial.js";
import { NO_PICKS, type Picks } from "./rows.js";
import type { FormSpec } from "./spec.js";

export type FormEvent =
  | { type: "MOVE"; delta: number }
  | { type: "MOVE_TO"; to: "first" | "last" }
  | { type: "SELECT"; row: number }
  | { type: "TOGGLE" }
  /** Tick every option, or clear them all when all are ticked. */
  | { type: "TOGGLE_ALL" }
  | { type: "INVERT" }
  | { type: "RESUME" }
  | { type: "CONFIRM" }
  | { type: "NEXT_TAB" }
  | { type: "PREV_TAB" }
  | { type: "CANCEL" }
  | { type: "ABORT" }
  | { type: "TYPE"; text: string }
  | { type: "SUBMIT_TEXT"; text: string }
  | { type: "NOTE" }
  | { type: "DECLINE" }
  | { type: "STOP_CLOCK" }
  | { type: "FOLD" }
  | { type: "UNFOLD" };

export const SUBMIT_LINE = -1;

export type Outcome = "open" | "submitted" | "cancelled" | "declined" | "timed_out";
export type Clock = "off" | "running" | "stopped";
export type Direction = "forward" | "backward";

export interface FormContext {
  cursors: number[];
  picks: Picks[];
  answered: boolean[];
  /** Typed choices per multi-select, ticked or not, in the order added: an unticked one keeps its row. */
  typed: string[][];
  drafts: string[];
  waited: boolean;
  direction: Direction;
  notes: Array<Record<number, string>>;
  additionalText: string;
  passed: boolean[];
  /** Came from the review screen: the next answer goes on to the first open question, or back to the review. */
  returnToReview: boolean;
  /** Within one step: passing over the questions that are not open, on the way to the first that is. */
  seeking: boolean;
  reviewCursor: number;
  clock: Clock;
  /** Where the form was folded from (`q2.typing`); empty otherwise. */
  foldedAt: string;
  /** Answered at the timeout with the recommended option, not by the person. */
  defaulted: boolean[];
  /** The answers the answer changes to one question dropped (each still hidden), until the person moves on. */
  dropped: Dropped[];
  outcome: Outcome;
}

/** The answer of question `q` that a change to question `by` hid and dropped. */
export interface Dropped {
  q: number;
  by: number;
  picks: Picks;
}

/** The chart is built from the spec's shape alone, so guards and actions read the spec from here; it is never stored. */
export interface ChartContext extends FormContext {
  readonly spec: FormSpec;
}

/** Typed so that it cannot carry the spec: what leaves the engine (an outcome's context, a stored draft). */
export type FormState = FormContext & { spec?: never };

export function formState(context: FormContext): FormState {
  if (!("spec" in context)) return context;
  const { spec: _, ...state } = context as ChartContext;
  return state;
}

export interface QuestionOutcome {
  id: string;
  answered: boolean;
  /** Indexes of chosen options, in option order. */
  options: number[];
  custom: string[];
}

export interface FormResult {
  cancelled: boolean;
  /** Also counts as cancelled. */
  declined?: true;
  /** Closed at the timeout with the answers so far and the recommended options; also counts as cancelled. */
  timedOut?: true;
  defaulted?: string[];
  answers: QuestionOutcome[];
  /** Passed over while hidden, and left unanswered. */
  skipped: string[];
  hidden: string[];
  waited: boolean;
  notes: Array<Record<number, string>>;
  additionalText: string;
}

export function initialContext(spec: FormSpec): FormContext {
  const n = spec.questions.length;
  const blank: FormContext = {
    cursors: new Array(n).fill(0),
    picks: new Array(n).fill(NO_PICKS),
    answered: new Array(n).fill(false),
    typed: Array.from({ length: n }, () => []),
    drafts: new Array(n).fill(""),
    waited: false,
    direction: "forward",
    notes: Array.from({ length: n }, () => ({})),
    additionalText: "",
    passed: new Array(n).fill(false),
    returnToReview: false,
    seeking: false,
    reviewCursor: SUBMIT_LINE,
    clock: spec.timeoutMs && spec.timeoutMs > 0 ? "running" : "off",
    defaulted: new Array(n).fill(false),
    foldedAt: "",
    dropped: [],
    outcome: "open",
  };
  const opened = withInitialAnswers(spec, blank);
  const typed = spec.questions.map((q, k) => (q.kind === "multi" ? [...opened.picks[k].custom] : []));
  return pruneHidden(spec, { ...opened, typed });
}

export function reviewLines(spec: FormSpec, context: FormContext): number[] {
  return [...shownQuestions(spec, context), SUBMIT_LINE];
}

export function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  const copy = list.slice();
  copy[index] = value;
  return copy;
}

export function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

/** The answer as the values conditions compare, or undefined if unanswered. */
export function answerValues(spec: FormSpec, context: FormContext, id: string): string[] | undefined {
  const q = spec.questions.findIndex((question) => question.id === id);
  if (q < 0 || !context.answered[q]) return undefined;
  const picks = context.picks[q];
  return [...picks.options.map((i) => spec.questions[q].options[i].value), ...picks.custom];
}

export function isVisible(spec: FormSpec, context: FormContext, q: number): boolean {
  const v = spec.questions[q].visibility;
  if (v.kind === "always") return true;
  if (v.kind === "never") return false;
  return allHold(v.conditions, (field) => answerValues(spec, context, field));
}

/**
 * Drop the answers of questions an answer change has hidden (conditions only
 * look back, so one pass). A change to question `by` notes what it dropped,
 * beside what its earlier changes dropped that is still hidden.
 */
export function pruneHidden<C extends FormContext>(spec: FormSpec, context: C, by?: number): C {
  let next = context;
  const dropped: Dropped[] = [];
  spec.questions.forEach((q, j) => {
    if (q.visibility.kind === "always" || !next.answered[j] || isVisible(spec, next, j)) return;
    dropped.push({ q: j, by: by ?? -1, picks: next.picks[j] });
    next = { ...next, answered: replaceAt(next.answered, j, false), picks: replaceAt(next.picks, j, NO_PICKS) };
  });
  if (by === undefined) return next;
  const earlier = context.dropped.filter((d) => d.by === by && !isVisible(spec, next, d.q));
  return earlier.length + dropped.length === 0 && context.dropped.length === 0
    ? next
    : { ...next, dropped: [...earlier, ...dropped] };
}

export function isOpen(spec: FormSpec, context: FormContext, q: number): boolean {
  return spec.questions[q].required && !context.answered[q] && isVisible(spec, context, q);
}

export function openQuestions(spec: FormSpec, context: FormContext): number[] {
  const open: number[] = [];
  spec.questions.forEach((_, i) => {
    if (isOpen(spec, context, i)) open.push(i);
  });
  return open;
}

export function shownQuestions(spec: FormSpec, context: FormContext): number[] {
  return spec.questions.map((_, i) => i).filter((i) => isVisible(spec, context, i));
}

export function canSubmit(spec: FormSpec, context: FormContext): boolean {
  return openQuestions(spec, context).length === 0;
}

/** Unconfirmed selections are not answers. */
export function formResult(spec: FormSpec, context: FormContext): FormResult {
  return {
    cancelled: context.outcome !== "submitted",
    ...(context.outcome === "declined" ? { declined: true as const } : {}),
    ...(context.outcome === "timed_out"
      ? {
          timedOut: true as const,
          defaulted: spec.questions.filter((_, i) => context.defaulted[i] === true).map((q) => q.id),
        }
      : {}),
    answers: spec.questions.map((q, i) => {
      const answered = context.answered[i] === true;
      const picks = answered ? context.picks[i] : NO_PICKS;
      return { id: q.id, answered, options: [...picks.options], custom: [...picks.custom] };
    }),
    skipped: spec.questions.filter((_, i) => context.passed[i] && context.answered[i] !== true).map((q) => q.id),
    hidden: spec.questions.filter((_, i) => !isVisible(spec, context, i)).map((q) => q.id),
    waited: context.waited,
    notes: context.notes.map((byOption) =>
      Object.fromEntries(
        Object.entries(byOption)
          .filter(([, note]) => note.trim() !== "")
          .map(([i, note]) => [i, note.trim()]),
      ),
    ),
    additionalText: context.additionalText.trim(),
  };
}

/** A form that closed on an error of its own: cancelled with its answers, or with none when the context broke. */
export function cancelledResult(spec: FormSpec, context: FormContext): FormResult {
  try {
    return formResult(spec, { ...context, outcome: "cancelled" });
  } catch {
    return formResult(spec, { ...initialContext(spec), outcome: "cancelled" });
  }
}

/** The context is kept as a draft when the form was not submitted. */
export interface FormOutcome {
  result: FormResult;
  context: FormState;
  error?: string;
}
