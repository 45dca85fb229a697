/**
 * The routes through a form: which events a person can cause from each
 * snapshot, the key the traversal merges snapshots on, and what the routes
 * must cover (renderers/inspect/coverage.ts counts what they did).
 * The path tests replay these routes on the real component; the review page
 * shows them; the benchmark times their generation.
 *
 * The traversal is keyed on what the guards can see (the state, how many
 * required questions are open, which are visible, the row under the cursor
 * or the review screen's line under its cursor,
 * whether an editor is empty or its text passes the checks, whether an answer
 * goes back towards the review screen) plus the incoming
 * edge, never on raw answers: that keeps the graph small while still reaching
 * every self-loop and refused event.
 */
import {
  type AnyActorScope,
  type AnyStateMachine,
  createEmptyActor,
  type InspectionEvent,
  initialTransition,
  type SnapshotFrom,
  transition,
} from "xstate";
import { type FormEvent, isVisible, openQuestions } from "../../machines/context.js";
import type { FormMachine } from "../../machines/form.js";
import { editorText, formPosition } from "../../machines/position.js";
import { isEmptyPicks, PAGE, rowAt } from "../../machines/rows.js";
import { type FormSpec, isTabbed } from "../../machines/spec.js";
import { selectionAccepted, textProblems } from "../../machines/text-rules.js";
import { decidingAnswers, witnessesGiven, witnessesOfForm, witnessId } from "./boundaries.js";
import { definitionOf, newCoverage, recordMicrosteps } from "./coverage.js";
import { activeNodes, leafPath } from "./xstate-private.js";

export type Snap = SnapshotFrom<FormMachine>;

/** The event XState sends itself when the `waiting` state's delay runs out. */
export const COOLDOWN_DONE = "xstate.after.cooldown.form.waiting";

/** The answer clock's end: the machine's own delayed `TIME_UP`; the replay advances the clock for it. */
export const TIME_UP = "TIME_UP";

/** The rows a digit key selects (1–9). */
const DIGIT_ROWS = 9;

/** The events a person can cause from a snapshot (keys plus an aborted tool call). */
export function formEvents(spec: FormSpec) {
  const decided = decidingAnswers(spec, witnessesOfForm(spec));
  return (snapshot: Snap): FormEvent[] => {
    if (snapshot.status !== "active") return [];
    const position = formPosition(snapshot);
    const c = snapshot.context;
    const nav: FormEvent[] = [{ type: "NEXT_TAB" }, { type: "PREV_TAB" }, { type: "CANCEL" }, { type: "ABORT" }];
    // An open editor: type into it when empty, save it, back out of it.
    const editing = (samples: string[], extra: FormEvent[] = []): FormEvent[] => {
      const text = editorText(position, c);
      const events: FormEvent[] = [{ type: "SUBMIT_TEXT", text }, { type: "CANCEL" }, { type: "ABORT" }, ...extra];
      if (text === "")
        events.push(...[...new Set(samples)].map((sample): FormEvent => ({ type: "TYPE", text: sample })));
      // An editor a default filled in is typed into where it stands.
      else if (position.kind === "question" && spec.questions[position.q].initial)
        events.push({ type: "TYPE", text: `${text}0` });
      return events;
    };
    // The countdown's end is XState's own delayed event; the replay advances the clock for it.
    if (position.kind === "waiting") return [{ type: "CANCEL" }, { type: "ABORT" }, { type: COOLDOWN_DONE } as never];
    // While the answer clock runs, the person's first key stops it (whatever else the key does, it
    // does once the clock is stopped), or nobody presses one and the time runs out.
    if (c.clock === "running") return [{ type: "STOP_CLOCK" }, { type: "ABORT" }, { type: TIME_UP } as never];
    if (position.kind === "folded") return [{ type: "UNFOLD" }, { type: "ABORT" }];
    // Asked whether to discard what was entered: discard (Esc, Enter) or go back (any other key).
    const discarding: FormEvent[] = [{ type: "CANCEL" }, { type: "CONFIRM" }, { type: "RESUME" }, { type: "ABORT" }];
    if (position.kind === "review") {
      if (position.mode === "discarding") return discarding;
      if (position.mode === "writing") return editing(["Blue"], [{ type: "FOLD" }]);
      // The digit keys 1–9 go to a question; the cursor keys move over every entry, and Enter opens it.
      const goTo: FormEvent[] = spec.questions.slice(0, DIGIT_ROWS).map((_, k) => ({ type: "SELECT", row: k }));
      const cursor: FormEvent[] = spec.questions.length
        ? [
            { type: "MOVE", delta: -1 },
            { type: "MOVE", delta: 1 },
            { type: "MOVE", delta: -PAGE },
            { type: "MOVE", delta: PAGE },
            { type: "MOVE_TO", to: "first" },
            { type: "MOVE_TO", to: "last" },
          ]
        : [];
      const extra: FormEvent[] = [
        ...(spec.additionalNotes ? [{ type: "NOTE" } as const] : []),
        ...(spec.declinable ? [{ type: "DECLINE" } as const] : []),
      ];
      return [{ type: "CONFIRM" }, ...cursor, ...goTo, ...extra, ...nav, { type: "FOLD" }];
    }
    if (position.kind !== "question") return [];
    const q = spec.questions[position.q];
    if (position.mode === "discarding") return discarding;
    if (position.mode === "noting") return editing(["Blue"], [{ type: "FOLD" }]);
    if (position.mode === "typing") {
      const tabs: FormEvent[] = [{ type: "NEXT_TAB" }, { type: "PREV_TAB" }];
      const deciding = [...decided.typed[position.q]];
      return editing(
        [...(q.kind === "text" ? textSamples(q.placeholder) : ["Blue"]), ...deciding],
        [...(isTabbed(spec) ? tabs : []), { type: "FOLD" }],
      );
    }
    // The row after the predefined options: a typed choice, or "Type something.".
    const afterOptions = q.options.length;
    return [
      { type: "MOVE", delta: 1 },
      { type: "MOVE", delta: -1 },
      { type: "MOVE_TO", to: "last" },
      { type: "SELECT", row: 0 },
      { type: "SELECT", row: afterOptions },
      // the options at a condition's boundaries
      ...[...decided.options[position.q]]
        .filter((row) => row !== 0 && row < DIGIT_ROWS)
        .map((row): FormEvent => ({ type: "SELECT", row })),
      { type: "TOGGLE" },
      { type: "CONFIRM" },
      ...(q.kind === "multi" ? [{ type: "TOGGLE_ALL" } as FormEvent, { type: "INVERT" } as FormEvent] : []),
      ...(q.notes ? [{ type: "NOTE" } as FormEvent] : []),
      ...nav,
      { type: "FOLD" },
    ];
  };
}

/** Answers to type into a typed-answer question: one of each kind the checks know, and the author's own example. */
function textSamples(placeholder: string | undefined): string[] {
  return [...new Set(["Blue", "42", "2024-02-29", "ada@example.org", ...(placeholder ? [placeholder] : [])])];
}

/**
 * What a node of the route search is: what the guards can see of a snapshot. Submit's guard asks
 * whether a required question is still open: the key holds only whether one is (a count would make
 * the search grow with the product of the answers); the search answers them in turn where it needs
 * them all answered. At a question a condition reads, the key also holds its picks and draft, so a
 * route can give each answer at a condition's boundary.
 */
export function guardKey(spec: FormSpec) {
  const branching = spec.questions.some((q) => q.visibility.kind !== "always");
  const required = spec.questions.map((q) => q.required);
  const deciding = decidingAnswers(spec, witnessesOfForm(spec));
  const decides = (q: number) => deciding.options[q].size > 0 || deciding.typed[q].size > 0;
  return (snapshot: Snap): string => {
    const c = snapshot.context;
    const position = snapshot.status === "active" ? formPosition(snapshot) : undefined;
    // What the guards of the current question read: the row under its cursor,
    // whether it has a selection and whether its editor draft is empty.
    const here =
      position?.kind === "question"
        ? [
            rowAt(spec.questions[position.q], c.typed[position.q], c.cursors[position.q])?.kind,
            !isEmptyPicks(c.picks[position.q]),
            // what Enter on a multi-select decides on
            selectionAccepted(spec.questions[position.q], c.picks[position.q]),
            c.drafts[position.q] !== "",
            // what the typed-answer guard decides on
            spec.questions[position.q].text
              ? textProblems(spec.questions[position.q].text!, c.drafts[position.q]).length
              : -1,
            editorText(position, c) !== "",
            ...(decides(position.q) ? [c.picks[position.q], editorText(position, c)] : []),
          ]
        : position?.kind === "review"
          ? [c.additionalText !== "", c.reviewCursor]
          : [];
    // Visibility is what the branch guards decide on (a form without conditions shows every question).
    const visible = branching ? spec.questions.map((_, i) => Number(isVisible(spec, c, i))).join("") : "";
    const open = branching ? openQuestions(spec, c).length > 0 : c.answered.some((a, i) => !a && required[i]);
    // The direction of travel only matters where a hidden question passes it on.
    const direction = branching ? c.direction : "";
    const key = {
      v: snapshot.value,
      open,
      visible,
      direction,
      here,
      back: c.returnToReview,
      clock: c.clock,
      folded: c.foldedAt,
    };
    return JSON.stringify(key);
  };
}

/**
 * A form's snapshots computed without an actor, as the route search computes
 * them: the opening one, and where an event leads from one. Routes that start
 * alike share their snapshots: each sequence of events is worked out once.
 */
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
 * What XState's logic needs to take a step without an actor of its own: the
 * `ActorScope` its pure `transition()` makes the same way, here on an empty
 * actor whose system's public `inspect` reports the transitions each step
 * takes (the pure `transition()` says where a step leads, not by which
 * transitions). Actions are not executed and delays not scheduled: a route
 * sends the cooldown's end and the timeout itself.
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

/** A route as the replay reads it: from the opening snapshot, each step's event (the first is `xstate.init`). */
export interface Route {
  steps: Array<{ state: Snap; event: FormEvent | { type: string } }>;
}

/** How many snapshots the walk from a partly answered form expands (what it looks for is a few steps away). */
const PARTLY_ANSWERED_WALK = 100;

/** The searches' own bound on the snapshots they expand: far above what any form the tools accept needs. */
export const SEARCH_LIMIT = 200_000;

/**
 * The routes that together reach every state, every transition and every
 * condition outcome at its boundaries (renderers/inspect/coverage.ts names them),
 * each by a shortest route the search finds: a breadth-first walk over the
 * nodes `guardKey` tells apart, that keeps the route to each step that
 * first reaches something not reached before, and stops once everything
 * is. What needs every required question answered (Submit, the submitted
 * state) is searched for the same way from where answering each question in
 * turn leads. So the routes number about the form's states and transitions,
 * and the walk grows with the questions and their options, not with the
 * product of the answers. `pause()` is called after each snapshot the walk
 * expands; when it returns a promise the walk waits (how a review page is
 * built inside Pi without holding its event loop).
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

/** The same routes as `findRoutes`, found without pausing. */
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
  /** The keys' outcomes met so far (`k …`): each is reached once, but only known once met. */
  const known = new Set<string>();
  const taken = newCoverage();
  const record = recordMicrosteps(taken);
  /**
   * What reaching `state` newly covers, with the transitions `taken` holds; and, given the step's
   * start and event, where that key leads from that state (so the review page can say, for every key
   * a state offers, by which transitions it leads where and where it is ignored).
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

  // Steps as a tree: each holds the snapshot it reached, its event and the step before it.
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

  /**
   * Breadth-first from `origin`, one snapshot expanded per turn: each new step goes to `visit`,
   * which ends the search by returning true; so do an empty queue, `budget` expanded snapshots,
   * or `more()` turning false. Returns the step `visit` stopped at.
   */
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

  /** Keeps each step from `origin` that reaches something new; until nothing is left, or `budget` snapshots. */
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

  /** From `origin`, the nearest step that leaves fewer required questions open (a shortest way to answer one). */
  function* answerOne(origin: Step): Generator<void, Step | undefined> {
    const open = openQuestions(spec, origin.state.context).length;
    return yield* breadthFirst(origin, ({ state }) => {
      taken.transitions.clear();
      return state.status === "active" && openQuestions(spec, state.context).length < open;
    });
  }

  const start: Step = {
    state: machine.getInitialSnapshot(scope, { spec }) as Snap,
    event: { type: "xstate.init" },
    parent: undefined,
  };
  if (reach(start.state).length > 0) ends.push(start);
  yield* walk(start);
  // What is left needs required questions answered: answer them one by one, with a short walk from
  // each (what goes past the answered ones to an open one), then walk from where all are.
  let answered: Step | undefined = start;
  while (remaining.size > 0 && answered && openQuestions(spec, answered.state.context).length > 0) {
    answered = yield* answerOne(answered);
    if (answered && openQuestions(spec, answered.state.context).length > 0) {
      if (reach(answered.state).length > 0) ends.push(answered);
      yield* walk(answered, PARTLY_ANSWERED_WALK);
    }
  }
  if (remaining.size > 0 && answered && answered !== start) {
    if (reach(answered.state).length > 0) ends.push(answered);
    yield* walk(answered);
  }
  return withoutPrefixes(ends.map(routeOf));
}

interface PrefixNode {
  next: Map<string, PrefixNode>;
  /** A route that ends here was kept: an equal one after it is not. */
  kept: boolean;
}

/**
 * The routes whose events are not the start of (or the same as) a route kept
 * before them, taken longest first (ties in their order): a route that
 * starts another one ends where that one passes. Each route's events go into
 * a tree of prefixes once, so this is linear in the steps of all routes.
 */
export function withoutPrefixes<P extends { steps: ReadonlyArray<{ event: unknown }> }>(paths: readonly P[]): P[] {
  const root: PrefixNode = { next: new Map(), kept: false };
  const ends = paths.map((path) => {
    let node = root;
    for (const step of path.steps) {
      const event = JSON.stringify(step.event);
      let child = node.next.get(event);
      if (!child) {
        child = { next: new Map(), kept: false };
        node.next.set(event, child);
      }
      node = child;
    }
    return node;
  });
  const longestFirst = paths.map((_, i) => i).sort((a, b) => paths[b].steps.length - paths[a].steps.length);
  const kept: P[] = [];
  for (const i of longestFirst) {
    const end = ends[i];
    if (end.next.size > 0 || end.kept) continue;
    end.kept = true;
    kept.push(paths[i]);
  }
  return kept;
}
