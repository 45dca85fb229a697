/**
 * A step of a form's chart that changes its context and nothing else, taken
 * without XState's general microstep.
 *
 * Most keys of a form are such steps: ↑/↓ is `MOVE`, a transition with no
 * target and one `assign`. XState takes every step the general way: it
 * works out the states to exit and enter (none here), resolves each action,
 * builds a new snapshot after every `assign` (computing its state value and
 * tags again from the state nodes), then looks for eventless transitions and
 * raised events. For a step that cannot leave its states that is most of
 * the cost of a key.
 *
 * `withQuickSteps(machine)` lets the machine take such a step directly. The
 * transition is chosen as XState chooses it: the chart's candidates for the
 * event from the innermost state out to the root, the first whose guard
 * passes (the candidates are kept per set of states and event type), and
 * the step is quick only when that transition has no target and all its
 * actions are `assign`s. The context is then assigned as XState assigns it (each
 * partial update over a copy, in order), and the new snapshot keeps the
 * states, value and tags of the last one, which a targetless step does not
 * change. It is quick only when no eventless transition of the states the
 * form is in is enabled afterwards; anything else, and anything that throws
 * or asks to spawn, is left to XState's `transition` from the same snapshot
 * (guards and assignments are pure, so trying first changes nothing). The
 * step is reported to an inspector as XState reports it (`@xstate.microstep`
 * with the transition taken), so coverage counts it.
 *
 * The path tests hold this to XState: every route is replayed on the
 * component beside a plain XState actor of the same chart, and after every
 * step both are in the same state with the same context.
 */
import type { AnyActorScope, AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from "xstate";
import { activeNodes, reportMicrostep } from "./xstate-private.js";

type Transition = ReturnType<AnyStateMachine["getTransitionData"]>[number];
type StateNode = AnyStateMachine["root"];
type Guard = Transition["guard"];

/** XState's `assign(…)` action: what it assigns, a function of the context or an object of values. */
interface AssignAction {
  type: "xstate.assign";
  assignment: unknown;
}
/** One `assign` of a transition, with the params it is given. */
interface Assignment {
  assignment: unknown;
  params: unknown;
}

/** Thrown by the spawner a quick step gives its assignments: spawning is XState's to do. */
const SPAWNS = Symbol("spawns");
const refuseSpawn = () => {
  throw SPAWNS;
};

const isAssign = (action: unknown): action is AssignAction =>
  typeof action === "function" && (action as { type?: unknown }).type === "xstate.assign";

/** The params an action or a guard is given, or `undefined` with `false` when they depend on the step (a function). */
function paramsOf(reference: unknown): [unknown, boolean] {
  if (typeof reference !== "object" || reference === null || !("params" in reference)) return [undefined, true];
  const params = (reference as { params: unknown }).params;
  return [params, typeof params !== "function"];
}

/**
 * The machine, taking steps that only assign without XState's microstep.
 * It is changed in place and returned (its `transition`).
 */
export function withQuickSteps<M extends AnyStateMachine>(machine: M): M {
  const full = machine.transition.bind(machine);
  const steps = new QuickSteps(machine);
  machine.transition = ((snapshot: AnyMachineSnapshot, event: AnyEventObject, scope: AnyActorScope) =>
    steps.take(snapshot, event, scope) ?? full(snapshot, event, scope)) as M["transition"];
  const initial = machine.getInitialSnapshot.bind(machine);
  machine.getInitialSnapshot = ((scope: AnyActorScope, input: unknown) =>
    steps.start(scope, input, initial)) as M["getInitialSnapshot"];
  return machine;
}

type Start = (scope: AnyActorScope, input: unknown) => AnyMachineSnapshot;

/**
 * What a form starts from, when it is the same for every form of a spec:
 * the input is the spec alone (no draft restored) and starting it ran no
 * action but `assign`s (no timer, no raised event, nothing spawned) and no
 * eventless transition could be taken on the way in (each would be reported
 * to an inspector). Snapshots are never changed, so forms share it.
 */
function startKey(input: unknown): object | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const { spec, restore, ...rest } = input as { spec?: unknown; restore?: unknown };
  if (typeof spec !== "object" || spec === null || restore !== undefined || Object.keys(rest).length > 0)
    return undefined;
  return spec;
}

class QuickSteps {
  /** Per transition: its assignments in order, or null when it is not a quick step. */
  private readonly plans = new WeakMap<Transition, Assignment[] | null>();
  /** Per set of active state nodes: the candidates for each event type (`candidatesOf`). */
  private readonly candidates = new WeakMap<object, Map<string, readonly Transition[] | null>>();
  /** Per set of active state nodes: the eventless transitions of those states. */
  private readonly eventless = new WeakMap<object, Transition[]>();

  constructor(private readonly machine: AnyStateMachine) {}

  /** Per spec: the snapshot its forms start from, or null where each form starts on its own (`startKey`). */
  private readonly starts = new WeakMap<object, AnyMachineSnapshot | null>();
  /** Whether an eventless transition can be taken while the machine enters its initial states. */
  private eventlessOnEntry?: boolean;

  /** The snapshot a form starts from: XState's, kept for the next form of the spec where that is the same. */
  start(scope: AnyActorScope, input: unknown, initial: Start): AnyMachineSnapshot {
    const key = startKey(input);
    const kept = key && this.starts.get(key);
    if (kept) return kept;
    if (!key || kept === null) return initial(scope, input);
    let acted = false;
    const watched: AnyActorScope = Object.create(scope, {
      actionExecutor: {
        value: (action: Parameters<AnyActorScope["actionExecutor"]>[0]) => {
          acted = true;
          scope.actionExecutor(action);
        },
        writable: true,
      },
      defer: {
        value: (fn: () => void) => {
          acted = true;
          scope.defer(fn);
        },
      },
    });
    const snapshot = initial(watched, input);
    this.eventlessOnEntry ??= entryHasEventless(this.machine.root);
    const same = !acted && snapshot.status === "active" && !this.eventlessOnEntry;
    this.starts.set(key, same ? snapshot : null);
    return snapshot;
  }

  /** The next snapshot, or undefined when XState has to take the step. */
  take(snapshot: AnyMachineSnapshot, event: AnyEventObject, scope: AnyActorScope): AnyMachineSnapshot | undefined {
    if (snapshot.status !== "active" || event.type.startsWith("xstate.")) return undefined;
    try {
      const chosen = this.choose(snapshot, event);
      if (!chosen) return undefined;
      const plan = this.planOf(chosen);
      if (!plan) return undefined;
      let context = snapshot.context;
      for (const { assignment, params } of plan) {
        const args = { context, event, spawn: refuseSpawn, self: scope.self, system: scope.system };
        context = Object.assign({}, context, assigned(assignment, args, params));
      }
      if (this.eventlessEnabled(snapshot, context, event)) return undefined;
      const next: AnyMachineSnapshot = { ...snapshot, context };
      reportMicrostep(scope, event, next, [chosen]);
      return next;
    } catch {
      // A guard or an assignment that throws, or one that spawns: XState takes the step and says why.
      return undefined;
    }
  }

  /**
   * The transition XState would take: the first candidate for the event
   * whose guard passes, from the innermost state out to the root. Undefined
   * when none does, or where only XState can tell (states side by side, an
   * event matched by a wildcard, a guard that is not a plain named one).
   */
  private choose(snapshot: AnyMachineSnapshot, event: AnyEventObject): Transition | undefined {
    const candidates = this.candidatesOf(activeNodes(snapshot), event.type);
    if (!candidates) return undefined;
    for (const t of candidates) {
      const passes = guardPasses(this.machine, t.guard, snapshot.context, event);
      if (passes === undefined) return undefined;
      if (passes) return t;
    }
    return undefined;
  }

  /** The candidates for an event in these states, innermost first; null where XState has to choose. */
  private candidatesOf(nodes: readonly StateNode[], eventType: string): readonly Transition[] | null {
    let byEvent = this.candidates.get(nodes);
    if (!byEvent) {
      byEvent = new Map();
      this.candidates.set(nodes, byEvent);
    }
    let list = byEvent.get(eventType);
    if (list === undefined) {
      list = candidatesIn(nodes, eventType);
      byEvent.set(eventType, list);
    }
    return list;
  }

  private planOf(t: Transition): Assignment[] | null {
    let plan = this.plans.get(t);
    if (plan === undefined) {
      plan = assignmentsOf(this.machine, t);
      this.plans.set(t, plan);
    }
    return plan;
  }

  /** Whether an eventless transition of the snapshot's states is enabled with `context` (or cannot be told). */
  private eventlessEnabled(snapshot: AnyMachineSnapshot, context: unknown, event: AnyEventObject): boolean {
    const nodes = activeNodes(snapshot);
    let always = this.eventless.get(nodes);
    if (!always) {
      always = nodes.flatMap((node) => node.always ?? []);
      this.eventless.set(nodes, always);
    }
    for (const t of always) if (guardPasses(this.machine, t.guard, context, event) !== false) return true;
    return false;
  }
}

/** Whether a state entered on the way into the machine's initial states (or the root) has an eventless transition. */
function entryHasEventless(root: StateNode): boolean {
  for (let node: StateNode | undefined = root; node; ) {
    if (node.always?.length || node.type === "parallel") return true;
    if (node.type !== "compound") return false;
    node = node.initial.target[0];
  }
  return false;
}

/** The candidates of one innermost state and its ancestors, in XState's order; null where XState has to choose. */
function candidatesIn(nodes: readonly StateNode[], eventType: string): readonly Transition[] | null {
  const innermost = nodes.filter((n) => n.type === "atomic" || n.type === "final");
  if (innermost.length !== 1) return null;
  const list: Transition[] = [];
  for (let node: StateNode | undefined = innermost[0]; node; node = node.parent) {
    for (const descriptor of node.transitions.keys()) if (descriptor.includes("*")) return null;
    list.push(...(node.transitions.get(eventType) ?? []));
  }
  return list;
}

/** What one `assign` gives, as XState's `assign` works it out. */
function assigned(assignment: unknown, args: object, params: unknown): object {
  if (typeof assignment === "function") return assignment(args, params);
  const partial: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(assignment as object))
    partial[key] = typeof value === "function" ? value(args, params) : value;
  return partial;
}

/** A transition's assignments when it has no target and every action is an `assign`, else null. */
function assignmentsOf(machine: AnyStateMachine, t: Transition): Assignment[] | null {
  if ((t.target?.length ?? 0) > 0 || t.reenter) return null;
  const plan: Assignment[] = [];
  for (const action of t.actions as unknown[]) {
    if (typeof action === "function") {
      if (!isAssign(action)) return null;
      plan.push({ assignment: action.assignment, params: undefined });
      continue;
    }
    const name = typeof action === "string" ? action : (action as { type?: unknown }).type;
    const implementation = typeof name === "string" ? machine.implementations.actions[name] : undefined;
    const [params, fixed] = paramsOf(action);
    if (!isAssign(implementation) || !fixed) return null;
    plan.push({ assignment: implementation.assignment, params });
  }
  return plan;
}

/** A named guard's answer, as XState gives it; `undefined` where only XState can tell (an inline or built-in guard). */
function guardPasses(machine: AnyStateMachine, guard: Guard, context: unknown, event: AnyEventObject) {
  if (guard === undefined) return true;
  if (typeof guard === "function") return undefined;
  const name = typeof guard === "string" ? guard : (guard as { type?: unknown }).type;
  const implementation = typeof name === "string" ? machine.implementations.guards[name] : undefined;
  const [params, fixed] = paramsOf(guard);
  if (typeof implementation !== "function" || "check" in implementation || !fixed) return undefined;
  return Boolean((implementation as (args: object, params: unknown) => unknown)({ context, event }, params));
}
