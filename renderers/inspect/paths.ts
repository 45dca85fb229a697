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
import { type FormEvent, openQuestions } from "../../machines/context.js";
import { formPosition } from "../../machines/position.js";
import { type FormSpec, isTabbed } from "../../machines/spec.js";
import { witnessesGiven, witnessesOfForm, witnessId } from "./boundaries.js";
import { definitionOf, newCoverage, recordMicrosteps } from "./coverage.js";
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
function inertScope(inspect: (event: InspectionEvent) => void): AnyActorScope {
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

/** Snapshots a walk from a partly answered form expands: what it looks for is a few steps away. */
const PARTLY_ANSWERED_WALK = 100;

export const SEARCH_LIMIT = 200_000;

/**
 * A breadth-first walk over the nodes `guardKey` tells apart, keeping the route to each step that
 * first reaches something new, until everything is reached. What needs every required question
 * answered (Submit) is searched for from where answering each in turn leads, so the walk grows with
 * the questions and options, not with the product of the answers. A promise from `pause()` (called
 * after each expanded snapshot) is waited for: a review page is built inside Pi without holding its
 * event loop.
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
  const definition = definitionOf(machine, spec);
  const remaining = new Set([
    ...[...definition.states].map((id) => `s ${id}`),
    ...[...definition.transitions].map((id) => `t ${id}`),
    ...[...definition.conditions].map((id) => `c ${id}`),
  ]);
  /** The keys' outcomes (`k …`): each is to be reached once, but is known only once met. */
  const known = new Set<string>();
  const taken = newCoverage();
  const record = recordMicrosteps(taken);
  /**
   * What reaching `state` newly covers, with the transitions `taken` holds; given the step's start
   * and event, also where that key leads from there (the review page says, for every key a state
   * offers, by which transitions it leads where, or that it is ignored).
   */
  const reach = (state: Snap, from?: Snap, event?: FormEvent): string[] => {
    const leads =
      from && event
        ? `k ${leafPath(from)} ${JSON.stringify(event)} ${taken.transitions.size > 0 ? [...taken.transitions].sort().join(", ") : "refused"}`
        : "";
    if (leads !== "" && !known.has(leads)) {
      known.add(leads);
      remaining.add(leads);
    }
    const hit = [
      leads,
      ...activeNodes(state).map((n) => `s ${n.id}`),
      ...[...taken.transitions].map((id) => `t ${id}`),
      ...witnessesGiven(spec, witnesses, state.context).map((w) => `c ${witnessId(spec, w)}`),
    ].filter((name) => remaining.has(name));
    for (const name of hit) remaining.delete(name);
    taken.transitions.clear();
    return hit;
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
  const ends: Step[] = [];
  let expanded = 0;
  const scope = inertScope(record);
  const stepTo = (from: Snap, event: FormEvent | { type: string }) => machine.transition(from, event, scope) as Snap;

  /** One snapshot expanded per turn; ends when `visit` returns true (giving that step), at `budget`, or when `more()` is false. */
  function* breadthFirst(
    origin: Step,
    visit: (step: Step, from: Step, event: FormEvent) => boolean,
    budget = Number.POSITIVE_INFINITY,
    more = () => true,
  ): Generator<void, Step | undefined> {
    const seen = new Set([keyOf(origin.state)]);
    const queue = [origin];
    for (let at = 0; at < queue.length && at < budget && more(); at++) {
      const from = queue[at];
      for (const event of events(from.state)) {
        const step: Step = { state: stepTo(from.state, event), event, parent: from };
        if (visit(step, from, event)) return step;
        const key = keyOf(step.state);
        if (seen.has(key)) continue;
        seen.add(key);
        queue.push(step);
      }
      if (++expanded > SEARCH_LIMIT)
        throw new Error(`The routes through this form need more than ${SEARCH_LIMIT} steps searched`);
      yield;
    }
    return undefined;
  }

  function* walk(origin: Step, budget = Number.POSITIVE_INFINITY): Generator<void> {
    yield* breadthFirst(
      origin,
      (step, from, event) => {
        if (reach(step.state, from.state, event).length > 0) ends.push(step);
        return false;
      },
      budget,
      () => remaining.size > 0,
    );
  }

  function* answerOne(origin: Step): Generator<void, Step | undefined> {
    const open = openQuestions(spec, origin.state.context).length;
    return yield* breadthFirst(origin, ({ state }) => {
      taken.transitions.clear();
      return state.status === "active" && openQuestions(spec, state.context).length < open;
    });
  }

  /** The nearest step where one more required question is open: a default's answer taken back. */
  function* openOne(origin: Step): Generator<void, Step | undefined> {
    const open = openQuestions(spec, origin.state.context).length;
    return yield* breadthFirst(origin, ({ state }) => {
      taken.transitions.clear();
      return state.status === "active" && openQuestions(spec, state.context).length > open;
    });
  }

  function* toReview(origin: Step): Generator<void, Step | undefined> {
    return yield* breadthFirst(origin, ({ state }) => {
      taken.transitions.clear();
      return state.status === "active" && formPosition(state).kind === "review";
    });
  }

  const start: Step = {
    state: machine.getInitialSnapshot(scope, { spec }) as Snap,
    event: { type: "xstate.init" },
    parent: undefined,
  };
  if (reach(start.state).length > 0) ends.push(start);
  yield* walk(start);
  const partly: Step[] = [];
  const openAt = (step: Step) => openQuestions(spec, step.state.context).length;
  /** A partly answered form: what it newly reaches, a short walk from it, and the seek from it below. */
  function* fromPartly(step: Step): Generator<void> {
    if (reach(step.state).length > 0) ends.push(step);
    yield* walk(step, PARTLY_ANSWERED_WALK);
    partly.push(step);
  }
  // Required questions their defaults answered are open only once emptied: what needs one open
  // beside others answered is looked for from where each is open again, answered in turn below.
  let opened = start;
  const byDefault = spec.questions.filter((q, k) => q.required && start.state.context.answered[k]).length;
  for (let n = 0; n < byDefault && remaining.size > 0; n++) {
    const more = yield* openOne(opened);
    if (!more) break;
    yield* fromPartly(more);
    opened = more;
  }
  // What is left needs required questions answered: answer them one by one with a short walk from
  // each (what passes the answered ones to an open one), then walk from where all are.
  let answered: Step | undefined = opened;
  while (remaining.size > 0 && answered && openAt(answered) > 0) {
    answered = yield* answerOne(answered);
    if (answered && openAt(answered) > 0) yield* fromPartly(answered);
  }
  if (remaining.size > 0 && answered && answered !== opened) {
    if (reach(answered.state).length > 0) ends.push(answered);
    yield* walk(answered);
  }
  // An answer can open required questions too (those a condition shows once it holds): from the
  // form as it opened, then from where all are answered, open one more and answer them in turn
  // again, while anything is left.
  let from: Step | undefined = opened;
  for (let round = 0; remaining.size > 0 && from && round < spec.questions.length; round++) {
    let at: Step | undefined = yield* openOne(from);
    while (at && openAt(at) > 0 && remaining.size > 0) {
      yield* fromPartly(at);
      at = yield* answerOne(at);
    }
    from = at;
  }
  // Which required questions are answered is not in the key, so what depends on it is reached only
  // from the partly answered forms. An answer given on the review screen goes on to the first
  // question still open, passing those answered (the seek); answering may have left the person
  // further from that screen than a short walk reaches (tabbing past the questions after the one
  // answered), so what is left is looked for from there too.
  for (const from of partly) {
    if (!isTabbed(spec) || ![...remaining].some((name) => !name.startsWith("k "))) break;
    const review = yield* toReview(from);
    if (review) yield* walk(review, PARTLY_ANSWERED_WALK);
  }
  return withoutPrefixes(ends.map(routeOf));
}
