/**
 * The chart around a question asked without stopping the model (`wait: false`;
 * tools/engine/waiting.ts runs one per question). Only a question nobody has
 * opened times out: what was entered is never replaced by the recommended options.
 */
import { type Actor, createActor, createMachine } from "xstate";
import { type FormContext, type FormResult, formResult } from "./context.js";
import { createFormMachine } from "./form.js";
import type { FormSpec } from "./spec.js";

export type WaitingEvent =
  | { type: "OPEN" }
  | { type: "PUT_BACK" }
  | { type: "ANSWER" }
  | { type: "REFUSE" }
  | { type: "WITHDRAW" }
  | { type: "TIME_UP" }
  | { type: "SESSION_END" };

export const WAITING_EVENTS: readonly WaitingEvent[] = [
  { type: "OPEN" },
  { type: "PUT_BACK" },
  { type: "ANSWER" },
  { type: "REFUSE" },
  { type: "WITHDRAW" },
  { type: "TIME_UP" },
  { type: "SESSION_END" },
];

export type WaitingEnd = "answered" | "refused" | "withdrawn" | "timedOut" | "notAnswered";

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
        REFUSE: "refused",
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
    refused: { type: "final" },
    withdrawn: { type: "final" },
    timedOut: { type: "final" },
    notAnswered: { type: "final" },
  },
});

export type WaitingChart = Actor<typeof waitingMachine>;

export function startWaitingChart(): WaitingChart {
  return createActor(waitingMachine).start();
}

export function stateOf(chart: WaitingChart): "waiting" | "opened" | "putBack" | WaitingEnd {
  return chart.getSnapshot().value as "waiting" | "opened" | "putBack" | WaitingEnd;
}

export function waitsForKey(chart: WaitingChart): boolean {
  const state = stateOf(chart);
  return state === "waiting" || state === "putBack";
}

/** The form's own chart run to its timeout, for a question nobody opened. */
export function timedOutResult(spec: FormSpec): FormResult {
  const form = createActor(createFormMachine(spec), { input: { spec } }).start();
  form.send({ type: "TIME_UP" });
  const { context } = form.getSnapshot() as { context: FormContext };
  form.stop();
  return formResult(spec, context);
}
