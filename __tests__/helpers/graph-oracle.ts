/**
 * @xstate/graph as an oracle for the route search of renderers/inspect/paths.ts.
 *
 * Its `TestModel` walks the same events the search walks (`formEvents`),
 * keyed on what the guards see (`guardKey`), and, as its own breadth-first
 * search needs to reach Submit, on how many required questions are open and
 * on the incoming edge. Its shortest paths are an independent search of the
 * same chart: whatever state node or transition they reach, the routes must
 * reach too.
 */
import { TestModel } from "@xstate/graph";
import { type AnyStateMachine, createActor, getNextSnapshot } from "xstate";
import { type FormEvent, openQuestions } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { type Coverage, newCoverage, recordMicrosteps } from "../../renderers/inspect/coverage.js";
import { formEvents, guardKey, type Snap } from "../../renderers/inspect/events.js";
import type { Route } from "../../renderers/inspect/paths.js";

/** @xstate/graph's traversal stops with "Traversal limit exceeded" past this many snapshots. */
export const ORACLE_LIMIT = 150_000;

export function oracleModel(spec: FormSpec, machine: AnyStateMachine) {
  const key = guardKey(spec);
  return new TestModel(machine, {
    events: formEvents(spec) as never,
    serializeState: ((state: Snap, event?: FormEvent, previous?: Snap) => {
      const open = state.status === "active" ? openQuestions(spec, state.context).length : 0;
      const from = previous ? JSON.stringify(previous.value) : "";
      return `${key(state)} open ${open} <- ${event ? event.type : "init"} ${from}`;
    }) as never,
    input: { spec },
  });
}

/** @xstate/graph's shortest paths, or undefined when the chart is past its traversal limit. */
export function oraclePaths(spec: FormSpec, machine: AnyStateMachine): Route[] | undefined {
  try {
    return oracleModel(spec, machine).getShortestPaths({ limit: ORACLE_LIMIT }) as unknown as Route[];
  } catch (error) {
    if (error instanceof Error && error.message === "Traversal limit exceeded") return undefined;
    throw error;
  }
}

/** The state nodes and transitions a set of routes take, by sending their events to a fresh actor each. */
export function taken(spec: FormSpec, machine: AnyStateMachine, routes: readonly Route[]): Coverage {
  const coverage = newCoverage();
  for (const route of routes) {
    const actor = createActor(machine, { input: { spec }, inspect: recordMicrosteps(coverage) }).start();
    for (const step of route.steps.slice(1)) actor.send(step.event as FormEvent);
    actor.stop();
  }
  return coverage;
}

/**
 * Where a route leaves the oracle's model: the first step whose event the model does not offer at
 * the snapshot before it, or whose snapshot is not where the model's logic takes that event.
 */
export function offModel(spec: FormSpec, machine: AnyStateMachine, route: Route): string | undefined {
  const model = oracleModel(spec, machine);
  const offered = model.options.events as unknown as (state: Snap) => FormEvent[];
  for (let i = 1; i < route.steps.length; i++) {
    const before = route.steps[i - 1].state;
    const { event, state } = route.steps[i];
    const same = (e: { type: string }) => JSON.stringify(e) === JSON.stringify(event);
    if (!offered(before).some(same)) return `step ${i}: ${JSON.stringify(event)} is not an event the model offers`;
    const next = getNextSnapshot(model.testLogic, before, event) as Snap;
    if (JSON.stringify([next.value, next.context]) !== JSON.stringify([state.value, state.context]))
      return `step ${i}: ${JSON.stringify(event)} leads elsewhere on the model`;
  }
  return undefined;
}
