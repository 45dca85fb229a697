/**
 * The routes through a form: which events a person can cause from each
 * snapshot, the key the traversal merges snapshots on, and what the routes
 * must cover (machines/coverage.ts counts what they did).
 * The path tests replay these routes on the real component; the review page
 * shows them; the benchmark times their generation.
 *
 * The traversal is keyed on what the guards can see (the state, how many
 * required questions are open, which are visible, the row under the cursor,
 * whether an editor is empty or its text passes the checks, whether an answer
 * goes back towards the review screen) plus the incoming
 * edge, never on raw answers: that keeps the graph small while still reaching
 * every self-loop and refused event.
 */
import { TestModel } from "@xstate/graph";
import { type AnyStateMachine, createEmptyActor, type SnapshotFrom } from "xstate";
import { type FormEvent, isVisible, openQuestions } from "./context.js";
import { createFormMachine, type FormMachine } from "./form.js";
import { editorText, formPosition } from "./position.js";
import { isEmptyPicks, rowAt } from "./rows.js";
import { type FormSpec, isTabbed } from "./spec.js";
import { selectionAccepted, textProblems } from "./text-rules.js";

export type Snap = SnapshotFrom<FormMachine>;

/** The event XState sends itself when the `waiting` state's delay runs out. */
export const COOLDOWN_DONE = "xstate.after.cooldown.form.waiting";

/** The answer clock's end: the machine's own delayed `TIME_UP`; the replay advances the clock for it. */
export const TIME_UP = "TIME_UP";

/** The events a person can cause from a snapshot (keys plus an aborted tool call). */
export function formEvents(spec: FormSpec) {
  return (snapshot: Snap): FormEvent[] => {
    if (snapshot.status !== "active") return [];
    const position = formPosition(snapshot);
    const c = snapshot.context;
    const nav: FormEvent[] = [{ type: "NEXT_TAB" }, { type: "PREV_TAB" }, { type: "CANCEL" }, { type: "ABORT" }];
    // An open editor: type into it when empty, save it, back out of it.
    const editing = (samples: string[], extra: FormEvent[] = []): FormEvent[] => {
      const text = editorText(position, c);
      const events: FormEvent[] = [{ type: "SUBMIT_TEXT", text }, { type: "CANCEL" }, { type: "ABORT" }, ...extra];
      if (text === "") events.push(...samples.map((sample): FormEvent => ({ type: "TYPE", text: sample })));
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
      const goTo: FormEvent[] = spec.questions.map((_, k) => ({ type: "SELECT", row: k }));
      const extra: FormEvent[] = [
        ...(spec.additionalNotes ? [{ type: "NOTE" } as const] : []),
        ...(spec.declinable ? [{ type: "DECLINE" } as const] : []),
      ];
      return [{ type: "CONFIRM" }, ...goTo, ...extra, ...nav, { type: "FOLD" }];
    }
    if (position.kind !== "question") return [];
    const q = spec.questions[position.q];
    if (position.mode === "discarding") return discarding;
    if (position.mode === "noting") return editing(["Blue"], [{ type: "FOLD" }]);
    if (position.mode === "typing") {
      const tabs: FormEvent[] = [{ type: "NEXT_TAB" }, { type: "PREV_TAB" }];
      return editing(q.kind === "text" ? textSamples(q.placeholder) : ["Blue"], [
        ...(isTabbed(spec) ? tabs : []),
        { type: "FOLD" },
      ]);
    }
    // The row after the predefined options: a typed choice, or "Type something.".
    const afterOptions = q.options.length;
    return [
      { type: "MOVE", delta: 1 },
      { type: "MOVE", delta: -1 },
      { type: "MOVE_TO", to: "last" },
      { type: "SELECT", row: 0 },
      { type: "SELECT", row: afterOptions },
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

export function guardKey(spec: FormSpec) {
  const branching = spec.questions.some((q) => q.visibility.kind !== "always");
  return (snapshot: Snap, event: FormEvent | undefined, previous?: Snap): string => {
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
          ]
        : position?.kind === "review"
          ? [c.additionalText !== ""]
          : [];
    // Visibility is what the branch guards decide on. Submit's guard only asks
    // whether a required question is still open: key on how many are (not
    // which), so the search can make progress towards Submit without
    // enumerating every combination of answers.
    const visible = spec.questions.map((_, i) => Number(isVisible(spec, c, i))).join("");
    const open = openQuestions(spec, c).length;
    // The direction of travel only matters where a hidden question passes it on.
    const direction = branching ? c.direction : "";
    // A tab move out of an editor that keeps its text lands where a move without it does: the
    // number of typed answers tells the two apart (only there, so other nodes still merge).
    const tab = event?.type === "NEXT_TAB" || event?.type === "PREV_TAB";
    const typed = tab ? c.picks.reduce((n, p) => n + p.custom.length, 0) : 0;
    // An answer given from the review screen goes on to the first open question, or back to the
    // review: key on it after the edges that can answer (moving the highlight or typing cannot, and
    // leaving it out there keeps routes that only move about from doubling).
    const local = event?.type === "MOVE" || event?.type === "MOVE_TO" || event?.type === "TYPE";
    const back = c.returnToReview && !local;
    const key = { v: snapshot.value, open, visible, direction, here, typed, back, clock: c.clock };
    // The incoming edge is part of the node, so self-loops, refused events and
    // two routes into the same state (Esc from different tabs) are all kept.
    const from = previous ? JSON.stringify(previous.value) : "";
    return `${JSON.stringify(key)} <- ${event ? event.type : "init"} ${from}`;
  };
}

/** Traversals larger than this fail loudly instead of running for ever. */
export const TRAVERSAL_LIMIT = 150_000;

export function formTestModel(
  spec: FormSpec,
  machine: AnyStateMachine = createFormMachine(spec) as unknown as AnyStateMachine,
) {
  return new TestModel(machine, {
    events: formEvents(spec) as never,
    serializeState: guardKey(spec) as never,
    input: { spec },
  });
}

/**
 * The shortest route to every node of the traversal, less the routes that are
 * the beginning of another (that one replays them on the way): what
 * @xstate/graph's own deduplication keeps, in its order, longest first. Its
 * own compares each route with every route kept before it, which is most of
 * the time a large form takes; `withoutPrefixes` does the same in one pass.
 */
export function generatePaths(spec: FormSpec, machine: AnyStateMachine) {
  return withoutPrefixes(
    formTestModel(spec, machine).getShortestPaths({ limit: TRAVERSAL_LIMIT, allowDuplicatePaths: true }),
  );
}

/** A route as the replay reads it: from the opening snapshot, each step's event (the first is `xstate.init`). */
export interface Route {
  steps: Array<{ state: Snap; event: FormEvent | { type: string } }>;
}

/**
 * The same routes as `generatePaths`, in the same order, found by a search
 * that lets the caller pause: `pause()` is called after each snapshot the
 * search expands, and the search waits when it returns a promise. This is
 * how a review page is built inside Pi without holding Pi's event loop: the
 * search is @xstate/graph's (a breadth-first walk over the nodes that
 * `guardKey` tells apart, then the shortest route to each node), written
 * here as a loop that can wait. A test holds its result to
 * `generatePaths`'s for the examples.
 */
export async function findRoutes(
  spec: FormSpec,
  machine: AnyStateMachine,
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<Route[]> {
  const events = formEvents(spec);
  const keyOf = guardKey(spec);
  const empty = createEmptyActor();
  // What a transition may reach of the running actor: nothing, as in @xstate/graph's own search.
  const scope = {
    self: empty,
    logger: () => {},
    id: "",
    sessionId: "",
    defer: () => {},
    system: empty.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as Parameters<AnyStateMachine["transition"]>[2];
  const start = machine.getInitialSnapshot(scope, { spec }) as Snap;

  // Every node with the transitions out of it, in the order the walk first met them.
  type Edge = { event: FormEvent; state: Snap };
  const nodes = new Map<string, { state: Snap; edges: Map<string, Edge> }>();
  const queue: Array<{ state: Snap; event: FormEvent | undefined; previous: Snap | undefined }> = [
    { state: start, event: undefined, previous: undefined },
  ];
  for (let at = 0; at < queue.length; at++) {
    if (at > TRAVERSAL_LIMIT) throw new Error("Traversal limit exceeded");
    const { state, event, previous } = queue[at];
    const key = keyOf(state, event, previous);
    if (nodes.has(key)) continue;
    const edges = new Map<string, Edge>();
    nodes.set(key, { state, edges });
    for (const next of events(state)) {
      const reached = machine.transition(state, next, scope) as Snap;
      edges.set(JSON.stringify(next), { event: next, state: reached });
      queue.push({ state: reached, event: next, previous: state });
    }
    const waiting = pause();
    if (waiting) await waiting;
  }

  // The shortest way to each node: met first in a breadth-first walk from the start, over those transitions.
  const startKey = keyOf(start, undefined, undefined);
  const snapshots = new Map<string, Snap>([[startKey, start]]);
  const parents = new Map<string, { from: string | undefined; event: FormEvent | undefined }>([
    [startKey, { from: undefined, event: undefined }],
  ]);
  const order = [startKey];
  for (let at = 0; at < order.length; at++) {
    const key = order[at];
    const previous = snapshots.get(key)!;
    for (const { event, state } of nodes.get(key)!.edges.values()) {
      const next = keyOf(state, event, previous);
      snapshots.set(next, state);
      if (parents.has(next)) continue;
      parents.set(next, { from: key, event });
      order.push(next);
    }
  }

  // Each node's route, as @xstate/graph writes it: the opening step's event is `xstate.init`, each
  // later step holds an event and the snapshot it led to.
  const routes = new Map<string, Route>();
  const all: Route[] = [];
  for (const [key, { from, event }] of parents) {
    const steps: Route["steps"] =
      from === undefined
        ? [{ state: snapshots.get(key)!, event: { type: "xstate.init" } }]
        : [...routes.get(from)!.steps, { state: snapshots.get(key)!, event: event! }];
    const route = { steps };
    routes.set(key, route);
    all.push(route);
  }
  return withoutPrefixes(all);
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
