/**
 * The named guards, actions and delays of every form. They read the form from
 * `context.spec`, never from a closure: one machine serves every spec of a
 * shape. Actions change answers only through `answer`, which drops the answers
 * an answer change hides and notes them in `dropped`; a move of the person's
 * own to another question or the review clears that (`clearDropped`).
 */
import { assertEvent, assign, cancel, raise, setup } from "xstate";
import {
  type ChartContext,
  canSubmit,
  clamp,
  type Direction,
  type FormContext,
  type FormEvent,
  type FormResult,
  isOpen,
  isVisible,
  pruneHidden,
  replaceAt,
  reviewLines,
  SUBMIT_LINE,
  shownQuestions,
} from "./context.js";
import { hasInput } from "./entered.js";
import { picksAnswer } from "./initial.js";
import { inTypedOrder, NO_PICKS, type Picks, type Row, rowAt, rowCount, withTyped } from "./rows.js";
import type { FormSpec } from "./spec.js";
import { allOrNone, inverted, selectionAccepted, selectionAnswers, textProblems, withinMax } from "./text-rules.js";

/** The machine's own delayed end of the answer clock. */
export const TIME_UP = "TIME_UP";
type InternalEvent = { type: "ADVANCE" } | { type: typeof TIME_UP };

const ANSWER_CLOCK = "answer-clock";

export type FormTag =
  | "waiting"
  | "folded"
  | "question"
  /** Which question: its state's key (`q1`), read without matching every question's state. */
  | `q${number}`
  | "choosing"
  | "typing"
  | "noting"
  | "review"
  | "reviewing"
  | "writing"
  | "discarding";

export interface FormInput {
  spec: FormSpec;
  /** A restored draft. */
  restore?: FormContext;
}

export type QParam = { q: number };
export type AnswerAction =
  | { type: "pickHighlighted"; params: QParam }
  | { type: "confirmSelection"; params: QParam }
  | { type: "answerText"; params: QParam };

export function questionStateKey(k: number): `q${number}` {
  return `q${k + 1}`;
}

const question = (context: ChartContext, q: number) => context.spec.questions[q];
const row = (context: ChartContext, q: number): Row | undefined =>
  rowAt(question(context, q), context.typed[q], context.cursors[q]);
const lastRow = (context: ChartContext, q: number) => rowCount(question(context, q), context.typed[q]) - 1;
const answer = (
  context: ChartContext,
  q: number,
  picks: Picks,
  answered: boolean,
  extra: Partial<FormContext> = {},
): ChartContext =>
  pruneHidden(
    context.spec,
    {
      ...context,
      ...extra,
      picks: replaceAt(context.picks, q, picks),
      answered: replaceAt(context.answered, q, answered),
    },
    q,
  );

/** The form's chart: its types and named implementations, and the builders of its states and machine. */
export const formChart = setup({
  types: {} as {
    context: ChartContext;
    events: FormEvent | InternalEvent;
    input: FormInput;
    output: FormResult;
    tags: FormTag;
  },
  delays: {
    cooldown: ({ context }) => context.spec.waitMs ?? 0,
    answerTimeout: ({ context }) => context.spec.timeoutMs ?? 0,
  },
  guards: {
    onOtherRow: ({ context }, p: QParam) => row(context, p.q)?.kind === "other",
    onOptionRow: ({ context }, p: QParam) => row(context, p.q)?.kind === "option",
    selectionAccepted: ({ context }, p: QParam) => selectionAccepted(question(context, p.q), context.picks[p.q]),
    rowExists: ({ context, event }, p: QParam) =>
      event.type === "SELECT" && event.row >= 0 && event.row <= lastRow(context, p.q),
    hasText: ({ event }) => event.type === "SUBMIT_TEXT" && event.text.trim() !== "",
    entryExists: ({ context, event }) =>
      event.type === "SELECT" && event.row >= 0 && event.row < shownQuestions(context.spec, context).length,
    reviewCursorOn: ({ context }, p: QParam) => context.reviewCursor === p.q,
    hasInput: ({ context }) => hasInput(context.spec, context),
    returningToReview: ({ context }) => context.returnToReview,
    /** Back from the review screen with a required question open (the answer may just have shown it). */
    seekingOpen: ({ context }) => context.seeking && !canSubmit(context.spec, context),
    passedWhileSeeking: ({ context }, p: QParam) => context.seeking && !isOpen(context.spec, context, p.q),
    /** Nothing passed the seek on: it ends here. */
    seeking: ({ context }) => context.seeking,
    /** Tab keeps the draft as the answer. */
    draftKept: ({ context }, p: QParam) => context.drafts[p.q].trim() !== "",
    textAccepted: ({ context, event }, p: QParam) =>
      event.type === "SUBMIT_TEXT" && textProblems(question(context, p.q).text!, event.text).length === 0,
    hiddenGoing: ({ context }, p: { q: number; direction: Direction }) =>
      context.direction === p.direction && !isVisible(context.spec, context, p.q),
    canSubmit: ({ context }) => canSubmit(context.spec, context),
    clockRunning: ({ context }) => context.clock === "running",
    foldedAt: ({ context }, p: { at: string }) => context.foldedAt === p.at,
    allFit: ({ context }, p: QParam) =>
      withinMax(question(context, p.q), allOrNone(question(context, p.q), context.picks[p.q])),
    invertedFits: ({ context }, p: QParam) =>
      withinMax(question(context, p.q), inverted(question(context, p.q), context.picks[p.q])),
  },
  actions: {
    move: assign(({ context, event }, p: QParam) => {
      assertEvent(event, "MOVE");
      const cursor = clamp(context.cursors[p.q] + event.delta, 0, lastRow(context, p.q));
      return { cursors: replaceAt(context.cursors, p.q, cursor) };
    }),
    moveTo: assign(({ context, event }, p: QParam) => {
      assertEvent(event, ["SELECT", "MOVE_TO"]);
      const last = lastRow(context, p.q);
      const target = event.type === "SELECT" ? event.row : event.to === "last" ? last : 0;
      return { cursors: replaceAt(context.cursors, p.q, clamp(target, 0, last)) };
    }),
    pickHighlighted: assign(({ context }, p: QParam) =>
      answer(context, p.q, { options: [context.cursors[p.q]], custom: [] }, true),
    ),
    toggleHighlighted: assign(({ context }, p: QParam) => {
      const current = context.picks[p.q];
      const r = row(context, p.q);
      let next: Picks = current;
      if (r?.kind === "option") {
        const has = current.options.includes(r.index);
        const options = has
          ? current.options.filter((i) => i !== r.index)
          : [...current.options, r.index].sort((a, b) => a - b);
        next = { options, custom: current.custom };
      } else if (r?.kind === "chip") {
        const typed = context.typed[p.q];
        const text = typed[r.index];
        const custom = current.custom.includes(text)
          ? current.custom.filter((c) => c !== text)
          : inTypedOrder(typed, [...current.custom, text]);
        next = { options: current.options, custom };
      }
      // Emptying a multi-select un-answers it.
      return answer(context, p.q, next, selectionAnswers(question(context, p.q), next));
    }),
    confirmSelection: assign(({ context }, p: QParam) => answer(context, p.q, context.picks[p.q], true)),
    saveDraft: assign(({ context, event }, p: QParam) => {
      assertEvent(event, "TYPE");
      return { drafts: replaceAt(context.drafts, p.q, event.text) };
    }),
    typeAnswer: assign(({ context, event }, p: QParam) => {
      assertEvent(event, "TYPE");
      const text = event.text.trim();
      const ok = text !== "" && textProblems(question(context, p.q).text!, text).length === 0;
      return answer(context, p.q, ok ? { options: [], custom: [text] } : NO_PICKS, ok, {
        drafts: replaceAt(context.drafts, p.q, event.text),
      });
    }),
    writeNote: assign(({ context, event }, p: QParam) => {
      assertEvent(event, ["TYPE", "SUBMIT_TEXT"]);
      const option = context.cursors[p.q];
      return { notes: replaceAt(context.notes, p.q, { ...context.notes[p.q], [option]: event.text }) };
    }),
    writeAdditional: assign(({ event }) => {
      assertEvent(event, ["TYPE", "SUBMIT_TEXT"]);
      return { additionalText: event.text };
    }),
    /** An empty one (an optional question left blank) is no answer. */
    answerText: assign(({ context, event }, p: QParam) => {
      assertEvent(event, "SUBMIT_TEXT");
      const text = event.text.trim();
      const picks = text === "" ? NO_PICKS : { options: [], custom: [text] };
      return answer(context, p.q, picks, text !== "", { drafts: replaceAt(context.drafts, p.q, text) });
    }),
    addTypedChoice: assign(({ context, event }, p: QParam) => {
      assertEvent(event, "SUBMIT_TEXT");
      const text = event.text.trim();
      const current = context.picks[p.q];
      const typed = withTyped(context.typed[p.q], text);
      const custom = inTypedOrder(typed, [...current.custom, text]);
      // The new entry took the place of the "Type something." row: the highlight stays on it.
      const cursor = question(context, p.q).options.length + typed.indexOf(text);
      return answer(context, p.q, { options: current.options, custom }, true, {
        typed: replaceAt(context.typed, p.q, typed),
        drafts: replaceAt(context.drafts, p.q, ""),
        cursors: replaceAt(context.cursors, p.q, cursor),
      });
    }),
    moveReviewCursor: assign(({ context, event }) => {
      assertEvent(event, ["MOVE", "MOVE_TO"]);
      const lines = reviewLines(context.spec, context);
      const at = Math.max(0, lines.indexOf(context.reviewCursor));
      const to = event.type === "MOVE" ? at + event.delta : event.to === "first" ? 0 : lines.length - 1;
      return { reviewCursor: lines[clamp(to, 0, lines.length - 1)] };
    }),
    pointReviewCursor: assign(({ context, event }) => {
      assertEvent(event, "SELECT");
      return { reviewCursor: shownQuestions(context.spec, context)[event.row] ?? SUBMIT_LINE };
    }),
    advance: raise({ type: "ADVANCE" } as const),
    markPassed: assign(({ context }, p: QParam) => ({ passed: replaceAt(context.passed, p.q, true) })),
    markReturn: assign({ returnToReview: true, reviewCursor: SUBMIT_LINE, dropped: [] }),
    clearDropped: assign(({ context }) => (context.dropped.length ? { dropped: [] } : {})),
    clearReturn: assign({ returnToReview: false }),
    startSeek: assign({ seeking: true }),
    seekOpen: assign({ direction: "forward" as Direction, returnToReview: true }),
    stopSeeking: assign({ seeking: false }),
    keepDraft: assign(({ context }, p: QParam) => {
      const text = context.drafts[p.q].trim();
      const current = context.picks[p.q];
      if (question(context, p.q).kind === "single") return answer(context, p.q, { options: [], custom: [text] }, true);
      const typed = withTyped(context.typed[p.q], text);
      return answer(
        context,
        p.q,
        { options: current.options, custom: inTypedOrder(typed, [...current.custom, text]) },
        true,
        {
          typed: replaceAt(context.typed, p.q, typed),
          drafts: replaceAt(context.drafts, p.q, ""),
        },
      );
    }),
    toggleAll: assign(({ context }, p: QParam) => {
      const next = allOrNone(question(context, p.q), context.picks[p.q]);
      return answer(context, p.q, next, selectionAnswers(question(context, p.q), next));
    }),
    invert: assign(({ context }, p: QParam) => {
      const next = inverted(question(context, p.q), context.picks[p.q]);
      return answer(context, p.q, next, selectionAnswers(question(context, p.q), next));
    }),
    raiseConfirm: raise({ type: "CONFIRM" } as const),
    raiseToggle: raise({ type: "TOGGLE" } as const),
    goForward: assign({ direction: "forward" as Direction, returnToReview: false, reviewCursor: SUBMIT_LINE }),
    goBackward: assign({ direction: "backward" as Direction, returnToReview: false, reviewCursor: SUBMIT_LINE }),
    markWaited: assign({ waited: true }),
    markFolded: assign((_, p: { at: string }) => ({ foldedAt: p.at })),
    clearFolded: assign({ foldedAt: "" }),
    startClock: raise({ type: TIME_UP } as const, { delay: "answerTimeout", id: ANSWER_CLOCK }),
    cancelClock: cancel(ANSWER_CLOCK),
    markClockStopped: assign({ clock: "stopped" as const }),
    /** Every open question takes its recommended option where it has one that answers it. */
    takeRecommended: assign(({ context }) => {
      let next: ChartContext = { ...context, clock: "stopped", outcome: "timed_out" };
      context.spec.questions.forEach((q, k) => {
        if (next.answered[k] || !isVisible(next.spec, next, k)) return;
        const recommended = q.options.flatMap((o, i) => (o.recommended ? [i] : []));
        const picks: Picks = { options: q.kind === "multi" ? recommended : recommended.slice(0, 1), custom: [] };
        if (recommended.length === 0 || !picksAnswer(q, picks)) return;
        next = answer(next, k, picks, true, { defaulted: replaceAt(next.defaulted, k, true) });
      });
      return next;
    }),
    markSubmitted: assign({ outcome: "submitted" as const }),
    markCancelled: assign({ outcome: "cancelled" as const }),
    markDeclined: assign({ outcome: "declined" as const }),
  },
});
