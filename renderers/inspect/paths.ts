/**
 * The routes through a form that together reach every state, transition and
 * condition outcome (renderers/inspect/coverage.ts names them). The path tests
 * replay them on the real component; the review page shows them.
 */
import {
  type AnyActorScope,
  type AnyStateMachine,
  createEmptyActor,
  type InspectionEvent,
  initialTransition,
  transition,
} from "xstate";
import type { FormEvent } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { witnessesGiven, witnessesOfForm, witnessId } from "./boundaries.js";
import { newCoverage, recordMicrosteps } from "./coverage.js";
import { formEvents, guardKey, type Snap } from "./events.js";
import { withoutPrefixes } from "./prefixes.js";
import { activeNodes, leafPath } from "./xstate-private.js";

/** A form's snapshots without an actor: the opening one, and where an event leads (each step worked out once). */
export function snapshotsOf(spec: FormSpec, machine: AnyStateMachine) {
  const [opening] = initialTransition(machine, { spec }) as [Snap, unknown];
  const known = new WeakMap<Snap, Map<string, Snap>>();
  return {
    opening,
    next(from: Snap, event: FormEvent | { type: string }): Snap {
      let after = known.get(from);
      if (!after) {
        after = new Map();
        known.set(from, after);
      }
      const key = JSON.stringify(event);
      let to = after.get(key);
      if (!to) {
        [to] = transition(machine, from, event) as [Snap, unknown];
        after.set(key, to);
      }
      return to;
    },
  };
}

/**
 * The scope XState's pure `transition()` builds, on an empty actor whose system's public `inspect`
 * reports the transitions each step takes (`transition()` says where a step leads, not by which).
 * Actions are not executed nor delays scheduled: a route sends the cooldown's end and the timeout.
 */
export function inertScope(inspect: (event: InspectionEvent) => void): AnyActorScope {
  const self = createEmptyActor();
  self.system.inspect(inspect);
  const none = () => {};
  return {
    self,
    system: self.system,
    id: "",
    sessionId: "",
    logger: none,
    defer: none,
    emit: none,
    stopChild: none,
    actionExecutor: none,
  };
}

/** The first step's event is `xstate.init`. */
export interface Route {
  steps: Array<{ state: Snap; event: FormEvent | { type: string } }>;
}

export const SEARCH_LIMIT = 200_000;

/**
 * A breadth-first walk over every class of snapshots `guardKey` tells apart, each expanded once by
 * every decision `formEvents` offers there, keeping the route to each step that first reaches
 * something: a state, a transition, a condition's outcome, or a key's outcome from a state (by
 * which transitions it leads where, or that it is ignored: what the review page's key table says).
 * The key holds what the guards read, so a snapshot merged into an earlier one of its class would
 * have taken the same transitions: the walk needs no phases nor goals. A promise from `pause()`
 * (called after each expanded snapshot) is waited for: a review page is built inside Pi without
 * holding its event loop.
 */
export async function findRoutes(
  spec: FormSpec,
  machine: AnyStateMachine,
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<Route[]> {
  const search = coveringSearch(spec, machine);
  for (let next = search.next(); ; next = search.next()) {
    if (next.done) return next.value;
    const waiting = pause();
    if (waiting) await waiting;
  }
}

export function generatePaths(spec: FormSpec, machine: AnyStateMachine): Route[] {
  const search = coveringSearch(spec, machine);
  for (let next = search.next(); ; next = search.next()) if (next.done) return next.value;
}

function* coveringSearch(spec: FormSpec, machine: AnyStateMachine): Generator<void, Route[]> {
  const events = formEvents(spec);
  const keyOf = guardKey(spec);
  const witnesses = witnessesOfForm(spec);
  const taken = newCoverage();
  /** What some step reached: states, transitions and condition outcomes by name, keys' outcomes as `q2.choosing {…} t1, t2`. */
  const reached = { states: new Set<string>(), transitions: new Set<string>(), conditions: new Set<string>() };
  const outcomes = new Set<string>();
  const fresh = (set: Set<string>, name: string) => !set.has(name) && Boolean(set.add(name));
  /** Whether the step into `state` (by `event` from a state at `leaf`) reaches anything no earlier step did. */
  const reaches = (state: Snap, leaf?: string, event?: string): boolean => {
    let any = false;
    for (const node of activeNodes(state)) any = fresh(reached.states, node.id) || any;
    for (const id of taken.transitions) any = fresh(reached.transitions, id) || any;
    if (witnesses.length > 0)
      for (const w of witnessesGiven(spec, witnesses, state.context))
        any = fresh(reached.conditions, witnessId(spec, w)) || any;
    if (event !== undefined)
      any = fresh(outcomes, `${leaf} ${event} ${[...taken.transitions].sort().join(", ") || "refused"}`) || any;
    taken.transitions.clear();
    return any;
  };

  interface Step {
    state: Snap;
    event: FormEvent | { type: string };
    parent: Step | undefined;
  }
  const routeOf = (end: Step): Route => {
    const steps: Route["steps"] = [];
    for (let at: Step | undefined = end; at; at = at.parent) steps.push({ state: at.state, event: at.event });
    return { steps: steps.reverse() };
  };
  const scope = inertScope(recordMicrosteps(taken));
  const start: Step = {
    state: machine.getInitialSnapshot(scope, { spec }) as Snap,
    event: { type: "xstate.init" },
    parent: undefined,
  };
  const ends: Step[] = reaches(start.state) ? [start] : [];
  const seen = new Set([keyOf(start.state)]);
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    if (at >= SEARCH_LIMIT)
      throw new Error(`The routes through this form need more than ${SEARCH_LIMIT} steps searched`);
    const from = queue[at];
    const leaf = leafPath(from.state);
    for (const event of events(from.state)) {
      const step: Step = { state: machine.transition(from.state, event, scope) as Snap, event, parent: from };
      if (reaches(step.state, leaf, JSON.stringify(event))) ends.push(step);
      const key = keyOf(step.state);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(step);
    }
    yield;
  }
  return withoutPrefixes(ends.map(routeOf));
}
