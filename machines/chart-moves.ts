/** The moves a form's chart is built from, for one shape; question-states.ts and form.ts write the states with them. */
import { type AnswerAction, formChart, questionStateKey } from "./setup.js";
import type { ChartShape } from "./shape.js";

/**
 * The states the form can be folded from, as `q2.typing`: every state a person answers or writes in,
 * the review's first. The folded state's UNFOLD goes back to each, in this order.
 */
export function foldTargets(shape: ChartShape): string[] {
  const review = shape.tabbed ? ["review.reviewing", ...(shape.additionalNotes ? ["review.writing"] : [])] : [];
  const inQuestion = (q: ChartShape["questions"][number]) =>
    q.kind === "text" ? ["typing"] : [...(q.notes ? ["noting"] : []), ...(q.allowOther ? ["typing"] : []), "choosing"];
  return [...review, ...shape.questions.flatMap((q, k) => inQuestion(q).map((at) => `${questionStateKey(k)}.${at}`))];
}

/** FOLD from the state `at` (one of `foldTargets`), which the folded state's UNFOLD goes back to. */
export const fold = (at: string) => ({
  FOLD: { target: "#form.folded", actions: { type: "markFolded" as const, params: { at } } },
});

export function chartMoves(shape: ChartShape) {
  const qs = shape.questions;
  const tabbed = shape.tabbed;

  // A hidden question passes a tab move on (eventless transitions), so each question has a fixed
  // pair of neighbours and every guarded skip is one edge of the chart.
  const stateOf = (j: number) => (j < 0 || j >= qs.length ? "#form.review" : `#form.${questionStateKey(j)}`);
  const forward = (k: number) => ({ target: stateOf(k + 1), actions: "goForward" as const });
  const backward = (k: number) => ({ target: stateOf(k - 1), actions: "goBackward" as const });
  const cancel = { target: "#form.cancelled", actions: "markCancelled" as const };
  const askFirst = [{ guard: "hasInput" as const, target: "discarding" }, cancel];
  // A conditional question is shown only once the person answered an earlier one, so Esc there always
  // asks, unless a default answer may have shown it.
  const escFrom = (k: number) => (qs[k].visibility === "when" && !shape.defaults ? { target: "discarding" } : askFirst);
  const discarding = (back: string) =>
    formChart.createStateConfig({
      tags: "discarding",
      on: { CANCEL: cancel, CONFIRM: cancel, RESUME: { target: back } },
    });
  /** A lone single-choice question without a typed answer or notes holds nothing before it ends. */
  const holdsInput = (k: number) =>
    (tabbed && reviewHoldsInput) || qs[k].kind !== "single" || qs[k].allowOther || qs[k].notes;
  /** Whether anything can be entered at all: not when every question is one option picked by default. */
  const reviewHoldsInput = qs.some((q) => !q.fixed) || shape.additionalNotes;
  // A tab move is the person moving on: what an answer change dropped has been said.
  const tabForward = (k: number) => ({
    target: stateOf(k + 1),
    actions: ["goForward" as const, "clearDropped" as const],
  });
  const tabBackward = (k: number) => ({
    target: stateOf(k - 1),
    actions: ["goBackward" as const, "clearDropped" as const],
  });
  const tabs = (k: number) => (tabbed ? { NEXT_TAB: tabForward(k), PREV_TAB: tabBackward(k) } : {});
  /** A seek: an answer given from the review screen goes on to the first question still open. */
  // Only where an answer can leave a required question open: not one its question is shown only after,
  // nor one of a question never shown.
  const seeksTo = (j: number) =>
    qs.some((q, k) => k !== j && q.autoAdvance && q.visibility !== "never" && !q.needs.includes(j));
  const seeks = tabbed && qs.some((q, j) => q.required && seeksTo(j));
  const advance = (k: number) => {
    if (!tabbed || !qs[k].autoAdvance) return {};
    const back = { guard: "returningToReview" as const, target: "#form.review" };
    if (seeks) return { ADVANCE: [{ ...back, actions: "startSeek" as const }, forward(k)] };
    return { ADVANCE: k === qs.length - 1 ? [forward(k)] : [back, forward(k)] };
  };
  // Passing k needs a required question after it open once another's answer started the seek.
  const seekOn = (k: number) =>
    seeks && qs.some((q, j) => j > k && q.required && seeksTo(j))
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
  /** A lone question submits on its answer. */
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
    tabForward,
    tabBackward,
    seeks,
    advance,
    seekOn,
    skipHidden,
    answered,
  };
}

export type ChartMoves = ReturnType<typeof chartMoves>;
