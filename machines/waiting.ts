/**
 * The life of a question asked without stopping the model (`wait: false`):
 * it waits beside the editor until the person opens it; Esc or the fold key
 * puts it back, with what was entered kept; it ends answered (a submit, a
 * decline or the form's own timeout once opened), withdrawn by the model,
 * timed out while nobody opened it, or not answered when the session that
 * asked it ended. A form is a statechart; a question that waits is this
 * chart around it (tools/engine/waiting.ts runs one per question).
 *
 * Only a question nobody has opened times out: once the person opened it,
 * its clock stops, as a form's stops at the first key, and a question put
 * back waits without one (what was entered is never replaced by the
 * recommended options).
 */
import { type Actor, createActor, createMachine } from "xstate";
import { type FormContext, type FormResult, formResult } from "./context.js";
import { createFormMachine } from "./form.js";
import type { FormSpec } from "./spec.js";

export type WaitingEvent =
  | { type: "OPEN" }
  | { type: "PUT_BACK" }
  | { type: "ANSWER" }
  | { type: "WITHDRAW" }
  | { type: "TIME_UP" }
  | { type: "SESSION_END" };

/** Every event the chart takes, for the path tests and the review page. */
export const WAITING_EVENTS: readonly WaitingEvent[] = [
  { type: "OPEN" },
  { type: "PUT_BACK" },
  { type: "ANSWER" },
  { type: "WITHDRAW" },
  { type: "TIME_UP" },
  { type: "SESSION_END" },
];

/** The chart's final states: how a waiting question ended. */
export type WaitingEnd = "answered" | "withdrawn" | "timedOut" | "notAnswered";

export const waitingMachine = createMachine({
  id: "waiting",
  types: {} as { events: WaitingEvent },
  initial: "waiting",
  states: {
    waiting: {
      on: {
        OPEN: "opened",
        WITHDRAW: "withdrawn",
        TIME_UP: "timedOut",
        SESSION_END: "notAnswered",
      },
    },
    opened: {
      on: {
        PUT_BACK: "putBack",
        ANSWER: "answered",
        WITHDRAW: "withdrawn",
        SESSION_END: "notAnswered",
      },
    },
    putBack: {
      on: {
        OPEN: "opened",
        WITHDRAW: "withdrawn",
        SESSION_END: "notAnswered",
      },
    },
    answered: { type: "final" },
    withdrawn: { type: "final" },
    timedOut: { type: "final" },
    notAnswered: { type: "final" },
  },
});

export type WaitingChart = Actor<typeof waitingMachine>;

/** A question's chart, started: it waits. */
export function startWaitingChart(): WaitingChart {
  return createActor(waitingMachine).start();
}

/** Where a question's chart is: a state it waits or is open in, or how it ended. */
export function stateOf(chart: WaitingChart): "waiting" | "opened" | "putBack" | WaitingEnd {
  return chart.getSnapshot().value as "waiting" | "opened" | "putBack" | WaitingEnd;
}

/** Whether the question waits for the key on the line: not yet opened, or put back. */
export function waitsForKey(chart: WaitingChart): boolean {
  const state = stateOf(chart);
  return state === "waiting" || state === "putBack";
}

/**
 * What a form gives when its timeout runs out before anyone opened it: the
 * form's own statechart, run to its timeout (the recommended options taken).
 */
export function timedOutResult(spec: FormSpec): FormResult {
  const form = createActor(createFormMachine(spec), { input: { spec } }).start();
  form.send({ type: "TIME_UP" });
  const { context } = form.getSnapshot() as { context: FormContext };
  form.stop();
  return formResult(spec, context);
}
