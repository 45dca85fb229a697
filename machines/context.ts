/**
 * What a form remembers, and what it reports when it closes.
 *
 * Contract: the context holds, per question, the highlighted row, the
 * current selection, whether it is answered, the editor draft and the
 * person's notes on options; plus the additional notes of the review screen.
 * Questions hidden by their conditions are judged on the answers here, and an
 * answer change that hides a later question drops that question's answer.
 * "Required, visible and unanswered" is decided in one place (`openQuestions`):
 * Submit, the tab bar, the review screen and the dialogs all ask it.
 */
import { allHold } from "./conditions.js";
import { withInitialAnswers } from "./initial.js";
import { NO_PICKS, type Picks } from "./rows.js";
import type { FormSpec } from "./spec.js";

/** The semantic events a person (or an aborted call) can send a form. */
export type FormEvent =
  | { type: "MOVE"; delta: number }
  | { type: "MOVE_TO"; to: "first" | "last" }
  | { type: "SELECT"; row: number }
  | { type: "TOGGLE" }
  /** Tick every option of a multi-select, or clear them all when all are ticked. */
  | { type: "TOGGLE_ALL" }
  /** Tick the options that are not ticked and clear the ones that are. */
  | { type: "INVERT" }
  /** Leave the "discard answers?" question and go on answering. */
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
  /** The person pressed a key while the answer clock ran: it stops for good. */
  | { type: "STOP_CLOCK" }
  /** Fold the form to one line (the transcript above it can be read), and open it again as it was. */
  | { type: "FOLD" }
  | { type: "UNFOLD" };

/** The review cursor on the submit line (below the entries). */
export const SUBMIT_LINE = -1;

export type Outcome = "open" | "submitted" | "cancelled" | "declined" | "timed_out";
/** The answer clock of a form with a timeout: not set, counting down, or stopped by a key. */
export type Clock = "off" | "running" | "stopped";
export type Direction = "forward" | "backward";

export interface FormContext {
  /** Highlighted row per question. */
  cursors: number[];
  /** Current selection per question (the working set for multi-select). */
  picks: Picks[];
  /** Whether each question has a confirmed answer. */
  answered: boolean[];
  /**
   * Typed choices per multi-select, ticked or not, in the order they were
   * added: a chip Space unticks keeps its row, and Space ticks it again
   * (`picks` holds the ticked ones). Empty for other questions.
   */
  typed: string[][];
  /** Editor text per question, kept when the editor closes. */
  drafts: string[];
  /** Whether the form waited (a throttle countdown) before it was shown. */
  waited: boolean;
  /** Which way the last tab move went: a hidden question passes it on. */
  direction: Direction;
  /** The person's notes per question, by option index. */
  notes: Array<Record<number, string>>;
  /** Additional notes written on the review screen. */
  additionalText: string;
  /** Questions a tab move passed over because their conditions hid them. */
  passed: boolean[];
  /**
   * The person came from the review screen to change an answer: the next
   * answer goes on to the first question still open, or back to the review.
   */
  returnToReview: boolean;
  /** Within one step: passing over the questions that are not open, on the way to the first that is. */
  seeking: boolean;
  /**
   * The review screen's cursor: the question whose entry it is on, or -1 on
   * the submit line, where it stands whenever the review screen is reached
   * by a tab move or coming back from a question.
   */
  reviewCursor: number;
  /** The answer clock: a form with a timeout counts down until the person's first key. */
  clock: Clock;
  /** Where the form was folded from (`q2.typing`, `review.reviewing`): UNFOLD goes back there; empty otherwise. */
  foldedAt: string;
  /** Questions answered at the timeout with the option the author recommended, not by the person. */
  defaulted: boolean[];
  outcome: Outcome;
}

/**
 * The statechart's context: the form's state and, beside it, the spec the
 * form answers. The chart's definition depends only on the spec's shape (see
 * `chartShape`), so its guards and actions read the texts, options, checks
 * and conditions from here. The spec is never changed and never stored.
 */
export interface ChartContext extends FormContext {
  readonly spec: FormSpec;
}

/**
 * The form's own state alone, typed so that it cannot carry the spec: what
 * leaves the engine (an outcome's context, a stored draft).
 */
export type FormState = FormContext & { spec?: never };

/** The form's own state, without the spec the chart carries beside it. */
export function formState(context: FormContext): FormState {
  if (!("spec" in context)) return context;
  const { spec: _, ...state } = context as ChartContext;
  return state;
}

export interface QuestionOutcome {
  id: string;
  answered: boolean;
  /** Zero-based indexes of chosen predefined options, in option order. */
  options: number[];
  /** Typed answers. */
  custom: string[];
}

export interface FormResult {
  cancelled: boolean;
  /** The person declined to answer (a form that offers it); such a form also counts as cancelled. */
  declined?: true;
  /**
   * Nobody answered before the form's timeout: it closed with the answers
   * given so far and, where a question was open, its recommended option;
   * such a form also counts as cancelled (the person submitted nothing).
   */
  timedOut?: true;
  /** With `timedOut`: ids of the questions answered at the timeout with their recommended option. */
  defaulted?: string[];
  answers: QuestionOutcome[];
  /** Ids of the questions passed over while navigating because their conditions hid them, and left unanswered. */
  skipped: string[];
  /** Ids of the questions hidden by their conditions when the form closed. */
  hidden: string[];
  waited: boolean;
  /** Non-empty notes per question, by option index. */
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
    outcome: "open",
  };
  const opened = withInitialAnswers(spec, blank);
  const typed = spec.questions.map((q, k) => (q.kind === "multi" ? [...opened.picks[k].custom] : []));
  return pruneHidden(spec, { ...opened, typed });
}

/**
 * The review screen's lines the cursor moves over, in order: the shown
 * questions' entries, then the submit line (`SUBMIT_LINE`).
 */
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

/** The answer of the question with this id, as the values conditions compare, or undefined if unanswered. */
export function answerValues(spec: FormSpec, context: FormContext, id: string): string[] | undefined {
  const q = spec.questions.findIndex((question) => question.id === id);
  if (q < 0 || !context.answered[q]) return undefined;
  const picks = context.picks[q];
  return [...picks.options.map((i) => spec.questions[q].options[i].value), ...picks.custom];
}

/** Whether question `q` is shown, judged on the answers in `context`. */
export function isVisible(spec: FormSpec, context: FormContext, q: number): boolean {
  const v = spec.questions[q].visibility;
  if (v.kind === "always") return true;
  if (v.kind === "never") return false;
  return allHold(v.conditions, (field) => answerValues(spec, context, field));
}

/** Drop the answers of questions an answer change has hidden (conditions only look back, so one pass). */
export function pruneHidden<C extends FormContext>(spec: FormSpec, context: C): C {
  let next = context;
  spec.questions.forEach((q, j) => {
    if (q.visibility.kind === "always" || !next.answered[j] || isVisible(spec, next, j)) return;
    next = { ...next, answered: replaceAt(next.answered, j, false), picks: replaceAt(next.picks, j, NO_PICKS) };
  });
  return next;
}

/** Whether question `q` keeps Submit closed: required, shown and unanswered. */
export function isOpen(spec: FormSpec, context: FormContext, q: number): boolean {
  return spec.questions[q].required && !context.answered[q] && isVisible(spec, context, q);
}

/** Indexes of the questions that keep Submit closed: required, shown and unanswered. */
export function openQuestions(spec: FormSpec, context: FormContext): number[] {
  const open: number[] = [];
  spec.questions.forEach((_, i) => {
    if (isOpen(spec, context, i)) open.push(i);
  });
  return open;
}

/** The questions shown, judged on the answers in `context`: their indexes, in order. */
export function shownQuestions(spec: FormSpec, context: FormContext): number[] {
  return spec.questions.map((_, i) => i).filter((i) => isVisible(spec, context, i));
}

/** Where question `q` stands among the shown questions (0-based), or -1 when it is hidden. */
export function shownPosition(spec: FormSpec, context: FormContext, q: number): number {
  return shownQuestions(spec, context).indexOf(q);
}

export function canSubmit(spec: FormSpec, context: FormContext): boolean {
  return openQuestions(spec, context).length === 0;
}

/** Build the result a facade maps from. Unconfirmed selections are not answers. */
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

/**
 * The result of a form that closed on an error of its own: a cancel with the
 * answers given so far, or with none when the context itself is what broke.
 */
export function cancelledResult(spec: FormSpec, context: FormContext): FormResult {
  try {
    return formResult(spec, { ...context, outcome: "cancelled" });
  } catch {
    return formResult(spec, { ...initialContext(spec), outcome: "cancelled" });
  }
}

/** How a shown form ended: its result, and the context it ended in (kept as a draft when it was not submitted). */
export interface FormOutcome {
  result: FormResult;
  context: FormState;
  /** Set when the form closed because of an error of its own. */
  error?: string;
}
