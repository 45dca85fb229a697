/**
 * The moves a form's chart is built from, for one shape: where a tab goes
 * (a hidden question passes the move on), what Esc does where something may
 * have been entered, folding (each foldable state records itself), the seek
 * from the review screen to the first open question, and where an answer
 * leads. machines/question-states.ts and machines/form.ts write the states
 * with them.
 */
import { type AnswerAction, formSetup, questionStateKey } from "./setup.js";
import type { ChartShape } from "./shape.js";

/** One setup for every form: its guards and actions read the spec from the context. */
export const s = formSetup();

export function chartMoves(shape: ChartShape) {
  const qs = shape.questions;
  const tabbed = shape.tabbed;

  // Tabs move one step; a hidden question passes the move on in the same
  // direction (its eventless `always` transitions), so each question has a
  // fixed pair of neighbours and every guarded skip is one edge of the chart.
  const stateOf = (j: number) => (j < 0 || j >= qs.length ? "#form.review" : `#form.${questionStateKey(j)}`);
  const forward = (k: number) => ({ target: stateOf(k + 1), actions: "goForward" as const });
  const backward = (k: number) => ({ target: stateOf(k - 1), actions: "goBackward" as const });
  const cancel = { target: "#form.cancelled", actions: "markCancelled" as const };
  /** Esc once something was entered asks first (a second Esc or Enter discards); before that it cancels. */
  const askFirst = [{ guard: "hasInput" as const, target: "discarding" }, cancel];
  // A question shown by a condition is shown once an earlier one is answered (a condition on an
  // unanswered question is false): by the person, so Esc there always asks, unless a default
  // answer may have shown it; then Esc asks exactly when something was entered, as the footer says.
  const escFrom = (k: number) => (qs[k].visibility === "when" && !shape.defaults ? { target: "discarding" } : askFirst);
  const discarding = (back: string) =>
    s.createStateConfig({ tags: "discarding", on: { CANCEL: cancel, CONFIRM: cancel, RESUME: { target: back } } });
  /** A lone single-choice question without a typed answer or notes holds nothing before it ends: Esc just cancels. */
  const holdsInput = (k: number) => tabbed || qs[k].kind !== "single" || qs[k].allowOther || qs[k].notes;
  /** A review screen with nothing before it to answer (a bare confirmation) holds no input either. */
  const reviewHoldsInput = qs.length > 0 || shape.additionalNotes;
  const tabs = (k: number) => (tabbed ? { NEXT_TAB: forward(k), PREV_TAB: backward(k) } : {});
  /**
   * Folding keeps the form's place: each state the form can be folded from
   * records itself, and UNFOLD goes back to the one recorded (the context,
   * answers and highlights included, is untouched).
   */
  const foldable: string[] = [];
  const fold = (at: string) => {
    foldable.push(at);
    return { FOLD: { target: "#form.folded", actions: { type: "markFolded" as const, params: { at } } } };
  };
  /** Whether a seek can happen at all: an answer given from the review screen that may leave a question open. */
  const seeks = tabbed && qs.some((q, k) => q.autoAdvance && qs.some((o, j) => j !== k && o.required));
  /**
   * After an answer: when the person came from the review screen, back there,
   * and from there on to the first question still open (a seek) if there is
   * one; otherwise on to the next question.
   */
  const advance = (k: number) => {
    if (!tabbed || !qs[k].autoAdvance) return {};
    const back = { guard: "returningToReview" as const, target: "#form.review" };
    if (seeks) return { ADVANCE: [{ ...back, actions: "startSeek" as const }, forward(k)] };
    // From the last question, moving on is the review screen anyway.
    return { ADVANCE: k === qs.length - 1 ? [forward(k)] : [back, forward(k)] };
  };
  /** A seek goes on past question `k` when it is not open and a later question may be. */
  const seekOn = (k: number) =>
    seeks && qs.some((q, j) => j > k && q.required)
      ? [{ guard: { type: "passedWhileSeeking" as const, params: { q: k } }, target: stateOf(k + 1) }]
      : [];
  const skipHidden = (k: number) =>
    qs[k].visibility === "always" || !tabbed
      ? []
      : (["forward", "backward"] as const).map((direction) => ({
          guard: { type: "hiddenGoing" as const, params: { q: k, direction } },
          target: stateOf(direction === "forward" ? k + 1 : k - 1),
          actions: { type: "markPassed" as const, params: { q: k } },
        }));
  /** Where an answer leads: a lone question submits; a tabbed form moves on when the question auto-advances. */
  const answered = (k: number, action: AnswerAction) =>
    tabbed
      ? { actions: qs[k].autoAdvance ? [action, "advance" as const] : [action] }
      : { target: "#form.submitted", actions: [action, "markSubmitted" as const] };

  return {
    qs,
    tabbed,
    stateOf,
    forward,
    backward,
    cancel,
    askFirst,
    escFrom,
    discarding,
    holdsInput,
    reviewHoldsInput,
    tabs,
    foldable,
    fold,
    seeks,
    advance,
    seekOn,
    skipHidden,
    answered,
  };
}

export type ChartMoves = ReturnType<typeof chartMoves>;
