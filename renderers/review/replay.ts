/**
 * Every route the path tests replay, replayed on a terminal screen of a real session:
 * after each step the keys that send the event, the state, the transitions
 * and the screen at each width. Steps are a tree (a step is its parent plus
 * one event); long replays give the event loop a turn so Pi keeps drawing.
 */
import { getKeybindings } from "@earendil-works/pi-tui";
import type { AnyStateMachine, InspectionEvent } from "xstate";
import type { FormEvent, FormResult } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import type { FormSnapshot } from "../../machines/position.js";
import { FormSession } from "../../machines/session.js";
import type { FormSpec } from "../../machines/spec.js";
import { type Coverage, newCoverage, recordMicrosteps } from "../inspect/coverage.js";
import { COOLDOWN_DONE } from "../inspect/events.js";
import { findRoutes } from "../inspect/paths.js";
import { leafPath } from "../inspect/xstate-private.js";
import { editingInputs, stepsToRow } from "../terminal/keymap.js";
import { TerminalScreen } from "../terminal/screen.js";
import { ansiTheme } from "../theme.js";
import { eventText, keysOf } from "./keys.js";
import { ScreenTable } from "./screens.js";
import type { ReviewForm, ReviewOptions, ReviewStep } from "./types.js";

/** A session of the form as the review pages drive it, on a terminal screen: opened, or going on from a snapshot. */
export function reviewScreen(
  spec: FormSpec,
  inspect?: (event: InspectionEvent) => void,
  snapshot?: FormSnapshot,
): TerminalScreen {
  return new TerminalScreen(new FormSession({ spec, inspect, snapshot }), {
    theme: ansiTheme,
    keybindings: getKeybindings(),
  });
}

/** One event of a route, sent as the person's key would send it (a typed answer: the Backspaces and text that change the editor to it). */
export function sendToScreen(screen: TerminalScreen, event: FormEvent): void {
  if (event.type === "ABORT") screen.session.abort();
  else if (event.type === "TYPE")
    for (const input of editingInputs(screen.session.editorText, event.text)) screen.key(input);
  // A row no digit reaches is moved to and chosen; the chart's own events (a delay's end, the timeout) are sent as they are.
  else for (const step of stepsToRow(event, screen.keyContext())) screen.session.send(step);
}

/** The longest stretch a review page's build keeps the event loop to itself. */
const YIELD_EVERY_MS = 10;

/**
 * A pause for long work inside Pi: a promise that waits for the event loop's
 * next turn once the work has run `YIELD_EVERY_MS` since the last one, so Pi
 * keeps reading keys and drawing (the progress line); nothing before that.
 */
export function eventLoopTurns(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since <= YIELD_EVERY_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}

export interface Replay {
  machine: AnyStateMachine;
  steps: ReviewStep[];
  /** Every route, as its steps (the opening step 0 left out), shorter routes first. */
  routes: number[][];
  results: Map<number, FormResult>;
  rows: string[];
  screens: number[][];
  total: Coverage;
}

export async function replayRoutes(
  form: ReviewForm,
  widths: readonly number[],
  height: number,
  options: ReviewOptions,
): Promise<Replay> {
  const { spec } = form;
  const machine = createFormMachine(spec) as unknown as AnyStateMachine;
  const turn = eventLoopTurns();
  let looked = 0;
  const paths = await findRoutes(spec, machine, () => {
    looked++;
    const waiting = turn();
    if (waiting) options.onSearch?.(looked);
    return waiting;
  });
  const pause = turn();
  if (pause) await pause;
  const table = new ScreenTable();
  const total = newCoverage();
  const current = newCoverage();
  const recordTotal = recordMicrosteps(total, spec);
  const recordCurrent = recordMicrosteps(current);
  const inspect = (e: InspectionEvent) => {
    recordTotal(e);
    recordCurrent(e);
  };

  const steps: ReviewStep[] = [];
  const stepIds = new Map<string, number>();
  const results = new Map<number, FormResult>();
  const routes: number[][] = [];
  const screensOf = async (screen: TerminalScreen) => {
    const ids: number[] = [];
    for (const w of widths) {
      ids.push(table.add(screen.render(w, height, false), w));
      const waiting = turn();
      if (waiting) await waiting;
    }
    return ids;
  };

  /** The session's snapshot after each step: a route that starts like an earlier one goes on from there. */
  const after: FormSnapshot[] = [];
  const open = (from: number) => reviewScreen(spec, inspect, from > 0 ? after[from] : undefined);

  try {
    for (const [index, path] of paths.entries()) {
      const waiting = turn();
      if (waiting) await waiting;
      options.onProgress?.(index, paths.length);
      const events = path.steps
        .map(({ event }) => event as FormEvent)
        .filter((event) => !event.type.startsWith("xstate.") || (event.type as string) === COOLDOWN_DONE);
      const route: number[] = [];
      let at = 0;
      let known = 0;
      for (; known < events.length && steps.length > 0; known++) {
        const id = stepIds.get(`${at}\u0000${JSON.stringify(events[known])}`);
        if (id === undefined) break;
        route.push(id);
        at = id;
      }
      if (known === events.length && steps.length > 0) {
        routes.push(route);
        continue;
      }
      current.transitions.clear();
      const screen = open(at);
      const { session } = screen;
      try {
        if (steps.length === 0) {
          steps.push({
            parent: -1,
            event: "the form opens",
            keys: [],
            state: leafPath(session.snapshot),
            edges: [],
            transitions: [...current.transitions],
            screens: await screensOf(screen),
            refused: false,
            depth: 0,
            when: "",
          });
          after.push(session.snapshot);
        }
        for (const event of events.slice(known)) {
          const waiting = turn();
          if (waiting) await waiting;
          const keys = keysOf(event, screen);
          current.transitions.clear();
          sendToScreen(screen, event);
          const id = steps.length;
          stepIds.set(`${at}\u0000${JSON.stringify(event)}`, id);
          steps.push({
            parent: at,
            raw: event,
            event: eventText(event),
            keys,
            state: leafPath(session.snapshot),
            edges: [],
            transitions: [...current.transitions],
            screens: await screensOf(screen),
            refused: current.transitions.size === 0,
            depth: steps[at].depth + 1,
            when: "",
          });
          after.push(session.snapshot);
          const closed = session.settled;
          if (closed && !results.has(id)) results.set(id, closed.result);
          route.push(id);
          at = id;
        }
        routes.push(route);
      } finally {
        session.dispose();
      }
    }
    await table.done(turn);
  } finally {
    table.dispose();
  }

  // Shorter routes first (a stable sort keeps the generated order among equals).
  routes.sort((a, b) => a.length - b.length);
  return { machine, steps, routes, results, rows: table.rows, screens: table.screens, total };
}
