/**
 * The chart around a question asked without stopping the model (`wait: false`;
 * tools/engine/waiting.ts runs one per question), its context what the
 * question is at: when it was asked (`since`), its timeout (`timeoutMs`, 0
 * for none), where it was last opened (`where`), and what the key that
 * closed the open form asked for (`closedBy`). Only a question nobody has
 * opened times out: what was entered is never replaced by the recommended options.
 */
import { type Actor, assign, createActor, setup } from "xstate";
import { type FormContext, type FormResult, formResult } from "./context.js";
import { createFormMachine } from "./form.js";
import type { FormSpec } from "./spec.js";

/** What is sent to the chart: each event once, with a sample of what it carries. */
export const WAITING_EVENTS = [
  { type: "OPEN", where: "terminal" as "terminal" | "page" },
  { type: "CLOSE_BY", key: "refuse" as "next" | "refuse" },
  { type: "PUT_BACK" },
  { type: "ANSWER" },
  { type: "REFUSE" },
  { type: "WITHDRAW" },
  { type: "SESSION_END" },
] as const;

export type WaitingEvent = (typeof WAITING_EVENTS)[number];

/** XState's own event when the timeout of a question nobody opened runs out. */
export const TIMED_OUT = "xstate.after.timeout.waiting.waiting";

export type WaitingEnd = "answered" | "refused" | "withdrawn" | "timedOut" | "notAnswered";

const open = { target: "opened", actions: "noteOpen" } as const;
/** Answered or declined by another extension without being opened (tools/form-events.ts). */
const elsewhere = { ANSWER: "answered", REFUSE: "refused" } as const;

export const waitingMachine = setup({
  types: {} as {
    context: { since: number; timeoutMs: number; where?: "terminal" | "page"; closedBy?: "next" | "refuse" };
    events: WaitingEvent;
    input: { timeoutMs?: number };
  },
  delays: { timeout: ({ context }) => context.timeoutMs },
  guards: { timed: ({ context }) => context.timeoutMs > 0 },
  actions: {
    noteOpen: assign(({ event }) => ({ where: event.type === "OPEN" ? event.where : undefined, closedBy: undefined })),
    noteKey: assign({ closedBy: ({ event }) => (event.type === "CLOSE_BY" ? event.key : undefined) }),
  },
}).createMachine({
  id: "waiting",
  context: ({ input }) => ({ since: Date.now(), timeoutMs: input.timeoutMs ?? 0 }),
  initial: "waiting",
  states: {
    // Opening it leaves this state for good: its timeout is cancelled, and put back it does not time out.
    waiting: {
      after: { timeout: { guard: "timed", target: "timedOut" } },
      on: { OPEN: open, ...elsewhere, WITHDRAW: "withdrawn", SESSION_END: "notAnswered" },
    },
    opened: {
      on: {
        CLOSE_BY: { actions: "noteKey" },
        PUT_BACK: "putBack",
        ANSWER: "answered",
        REFUSE: "refused",
        WITHDRAW: "withdrawn",
        SESSION_END: "notAnswered",
      },
    },
    putBack: { on: { OPEN: open, ...elsewhere, WITHDRAW: "withdrawn", SESSION_END: "notAnswered" } },
    answered: { type: "final" },
    refused: { type: "final" },
    withdrawn: { type: "final" },
    timedOut: { type: "final" },
    notAnswered: { type: "final" },
  },
});

export type WaitingChart = Actor<typeof waitingMachine>;

/** XState's timers, unreferenced: a question's timeout never keeps the process alive. */
const unreferenced = {
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms).unref(),
  clearTimeout: (timer: NodeJS.Timeout) => clearTimeout(timer),
};

export function startWaitingChart(timeoutMs?: number): WaitingChart {
  return createActor(waitingMachine, { input: { timeoutMs }, clock: unreferenced }).start();
}

export function stateOf(chart: WaitingChart): "waiting" | "opened" | "putBack" | WaitingEnd {
  return chart.getSnapshot().value as "waiting" | "opened" | "putBack" | WaitingEnd;
}

export function waitsForKey(chart: WaitingChart): boolean {
  return ["waiting", "putBack"].includes(stateOf(chart));
}

/** Where it is open now, if it is. */
export function openIn(chart: WaitingChart): "terminal" | "page" | undefined {
  return stateOf(chart) === "opened" ? chart.getSnapshot().context.where : undefined;
}

/** When it was asked, and when it times out: only while nobody has opened it yet. */
export function timesOf(chart: WaitingChart): { since: number; deadline?: number } {
  const { since, timeoutMs } = chart.getSnapshot().context;
  return { since, deadline: stateOf(chart) === "waiting" && timeoutMs > 0 ? since + timeoutMs : undefined };
}

/** The form's own chart run to its timeout, for a question nobody opened. */
export function timedOutResult(spec: FormSpec): FormResult {
  const form = createActor(createFormMachine(spec), { input: { spec } }).start();
  form.send({ type: "TIME_UP" });
  const { context } = form.getSnapshot() as { context: FormContext };
  form.stop();
  return formResult(spec, context);
}
