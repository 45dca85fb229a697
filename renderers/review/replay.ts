/**
 * Every route the path tests replay, replayed on the real `FormComponent`:
 * after each step the keys that send the event, the state, the transitions
 * and the screen at each width. Steps are a tree (a step is its parent plus
 * one event); long replays give the event loop a turn so Pi keeps drawing.
 */
import type { AnyStateMachine, InspectionEvent } from "xstate";
import type { FormEvent, FormResult } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import type { FormSnapshot } from "../../machines/position.js";
import type { FormSpec } from "../../machines/spec.js";
import { type Coverage, newCoverage, recordMicrosteps } from "../inspect/coverage.js";
import { COOLDOWN_DONE } from "../inspect/events.js";
import { findRoutes } from "../inspect/paths.js";
import { leafPath } from "../inspect/xstate-private.js";
import { FormComponent } from "../terminal/component.js";
import { editingInputs } from "../terminal/keymap.js";
import { ansiTheme } from "../theme.js";
import { eventText, keysOf } from "./keys.js";
import { ScreenTable } from "./screens.js";
import type { ReviewForm, ReviewOptions, ReviewStep } from "./types.js";

const host = (height: number) => ({ requestRender() {}, terminal: { rows: height + 4, columns: 120 } });

/** A form component as the review pages drive it: opened, or going on from where an earlier route left off. */
export function reviewComponent(
  spec: FormSpec,
  height: number,
  done: (result: FormResult) => void,
  inspect?: (event: InspectionEvent) => void,
  snapshot?: FormSnapshot,
): FormComponent {
  const component = new FormComponent({
    spec,
    host: host(height),
    theme: ansiTheme,
    done: ({ result }) => done(result),
    maxHeight: () => height,
    ...(inspect ? { inspect } : {}),
    ...(snapshot ? { snapshot } : {}),
  });
  component.focused = true;
  return component;
}

/** One event of a route, sent as the person's key would send it (a typed answer: the Backspaces and text that change the editor to it). */
export function sendToComponent(component: FormComponent, event: FormEvent): void {
  if (event.type === "ABORT") component.abort();
  else if (event.type === "TYPE")
    for (const input of editingInputs(component.keyContext().editorText(), event.text)) component.handleInput(input);
  else component.actor.send(event as never);
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
  const screensOf = async (component: FormComponent) => {
    const ids: number[] = [];
    for (const w of widths) {
      ids.push(table.add(component.render(w), w));
      const waiting = turn();
      if (waiting) await waiting;
    }
    return ids;
  };

  /** The component's snapshot after each step: a route that starts like an earlier one goes on from there. */
  const after: FormSnapshot[] = [];
  let closed: FormResult | undefined;
  const open = (from: number) =>
    reviewComponent(
      spec,
      height,
      (result) => {
        closed = result;
      },
      inspect,
      from > 0 ? after[from] : undefined,
    );

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
      closed = undefined;
      current.transitions.clear();
      const component = open(at);
      try {
        if (steps.length === 0) {
          steps.push({
            parent: -1,
            event: "the form opens",
            keys: [],
            state: leafPath(component.snapshot),
            edges: [],
            transitions: [...current.transitions],
            screens: await screensOf(component),
            refused: false,
            depth: 0,
            when: "",
          });
          after.push(component.snapshot);
        }
        for (const event of events.slice(known)) {
          const waiting = turn();
          if (waiting) await waiting;
          const keys = keysOf(event, component);
          current.transitions.clear();
          sendToComponent(component, event);
          const id = steps.length;
          stepIds.set(`${at}\u0000${JSON.stringify(event)}`, id);
          steps.push({
            parent: at,
            raw: event,
            event: eventText(event),
            keys,
            state: leafPath(component.snapshot),
            edges: [],
            transitions: [...current.transitions],
            screens: await screensOf(component),
            refused: current.transitions.size === 0,
            depth: steps[at].depth + 1,
            when: "",
          });
          after.push(component.snapshot);
          if (closed && !results.has(id)) results.set(id, closed);
          route.push(id);
          at = id;
        }
        routes.push(route);
      } finally {
        component.dispose();
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
