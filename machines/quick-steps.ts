/**
 * Steps of a form's chart that only assign, taken without XState's general
 * microstep: the ones that stay in their states, and the ones that go to
 * other states whose exit and entry actions (if any) are assignments too.
 *
 * Most keys of a form are such steps: ↑/↓ is `MOVE`, a transition with no
 * target and one `assign`; Tab goes to the next question's state, Enter on
 * "Type something." to its editor's, Esc back. XState takes every step the
 * general way: it works out the states to exit and enter, resolves each
 * action, builds a new snapshot after every `assign` (computing its state
 * value and tags again from the state nodes), then looks for eventless
 * transitions and raised events. For a key that is most of its cost.
 *
 * `withQuickSteps(machine)` lets the machine take such a step directly. The
 * transition is chosen as XState chooses it: the chart's candidates for the
 * event from the innermost state out to the root, the first whose guard
 * passes (the candidates are kept per set of states and event type). A step
 * with a target goes where XState's microstep would take it (SCXML's exit
 * and entry sets: `moveFrom`), worked out once per innermost state and
 * transition, and every list of states is kept once per innermost state, so
 * the form's position, candidates and eventless transitions are looked up
 * rather than worked out again. The context is assigned as XState assigns
 * it: the exit actions of the states left (innermost first), the
 * transition's actions, the entry actions of the states entered (outermost
 * first), each partial update over a copy, in order. The step is quick only
 * when no eventless transition of the states it ends in is enabled
 * afterwards; anything else (a raised event, a timer, a final state, states
 * side by side, history, a guard XState has to evaluate itself) and anything
 * that throws or asks to spawn is left to XState's `transition` from the
 * same snapshot (guards and assignments are pure, so trying first changes
 * nothing). The step is reported to an inspector as XState reports it
 * (`@xstate.microstep` with the transition taken), so coverage counts it.
 *
 * The path tests hold this to XState: every route is replayed on the
 * component beside a plain XState actor of the same chart, and after every
 * step both are in the same state with the same context.
 */
import type { AnyActorScope, AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from "xstate";
import { activeNodes, movedSnapshot, reportMicrostep } from "./xstate-private.js";

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
 * The machine, taking steps that only assign without XState's microstep and
 * starting forms of one spec from one snapshot. It is changed in place (its
 * `transition` and `getInitialSnapshot`) and returned.
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
  /** Per transition: its assignments in order, or null when an action is not an `assign`. */
  private readonly plans = new WeakMap<Transition, Assignment[] | null>();
  /** Per set of active state nodes: the candidates for each event type (`candidatesOf`). */
  private readonly candidates = new WeakMap<object, Map<string, readonly Transition[] | null>>();
  /** Per innermost state: where each transition with a target leads from it (`moveOf`). */
  private readonly moves = new Map<StateNode, Map<Transition, Move | null>>();
  /** Per innermost state: the one list of states a step into it leaves the form in, with their value and tags. */
  private readonly configurations = new Map<StateNode, Configuration>();
  /** Per set of active state nodes: the eventless transitions of those states. */
  private readonly eventless = new WeakMap<object, Transition[]>();

  /** Per spec: the snapshot its forms start from, or null where each form starts on its own (`startKey`). */
  private readonly starts = new WeakMap<object, AnyMachineSnapshot | null>();
  /** Whether an eventless transition can be taken while the machine enters its initial states. */
  private eventlessOnEntry?: boolean;

  constructor(private readonly machine: AnyStateMachine) {}

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
      const from = activeNodes(snapshot);
      const move = chosen.target?.length ? this.moveOf(from, chosen) : undefined;
      if (move === null) return undefined;
      let context = snapshot.context;
      const steps = move ? [...move.exit, ...plan, ...move.entry] : plan;
      for (const { assignment, params } of steps) {
        const args = { context, event, spawn: refuseSpawn, self: scope.self, system: scope.system };
        context = Object.assign({}, context, assigned(assignment, args, params));
      }
      if (this.eventlessEnabled(move?.nodes ?? from, context, event)) return undefined;
      const next = move ? movedSnapshot(snapshot, context, move) : { ...snapshot, context };
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

  /**
   * Where `t` leads from these states, worked out once per innermost state
   * (in a chart without states side by side it decides the others); null
   * where XState has to take it.
   */
  private moveOf(from: readonly StateNode[], t: Transition): Move | null {
    const leaf = innermost(from);
    if (!leaf) return null;
    let byTransition = this.moves.get(leaf);
    if (!byTransition) {
      byTransition = new Map();
      this.moves.set(leaf, byTransition);
    }
    let move = byTransition.get(t);
    if (move === undefined) {
      move = moveFrom(from, t, this.machine, (nodes) => this.configuration(nodes));
      byTransition.set(t, move);
    }
    return move;
  }

  /** The one list of these states (kept per innermost state), so the caches kept per list find it again. */
  private configuration(nodes: StateNode[]): Configuration {
    const leaf = innermost(nodes)!;
    let kept = this.configurations.get(leaf);
    if (!kept) {
      kept = { nodes, value: stateValueOf(this.machine.root, nodes), tags: new Set(nodes.flatMap((n) => n.tags)) };
      this.configurations.set(leaf, kept);
    }
    return kept;
  }

  private planOf(t: Transition): Assignment[] | null {
    let plan = this.plans.get(t);
    if (plan === undefined) {
      plan = assignmentsOf(this.machine, t);
      this.plans.set(t, plan);
    }
    return plan;
  }

  /** Whether an eventless transition of these states is enabled with `context` (or cannot be told). */
  private eventlessEnabled(nodes: readonly StateNode[], context: unknown, event: AnyEventObject): boolean {
    let always = this.eventless.get(nodes);
    if (!always) {
      always = nodes.flatMap((node) => node.always ?? []);
      this.eventless.set(nodes, always);
    }
    for (const t of always) if (guardPasses(this.machine, t.guard, context, event) !== false) return true;
    return false;
  }
}

/** States the form can be in, in XState's order, with the state value and tags they make. */
interface Configuration {
  nodes: StateNode[];
  value: StateValue;
  tags: Set<string>;
}

/**
 * The states a step leads to, and the assignments of the states it leaves
 * and enters (their exit and entry actions, in XState's order).
 */
interface Move extends Configuration {
  exit: Assignment[];
  entry: Assignment[];
}

/** The one innermost state of these states, or undefined where there are more (states side by side). */
function innermost(nodes: readonly StateNode[]): StateNode | undefined {
  let leaf: StateNode | undefined;
  for (const node of nodes)
    if (node.type === "atomic" || node.type === "final") {
      if (leaf) return undefined;
      leaf = node;
    }
  return leaf;
}

type StateValue = string | { [key: string]: StateValue };

/** Whether `node` lies inside `ancestor` (and is not it). */
function inside(node: StateNode, ancestor: StateNode): boolean {
  for (let up = node.parent; up; up = up.parent) if (up === ancestor) return true;
  return false;
}

/** A state whose entering or leaving does more than assign: a child actor, history, or the form's end. */
function acts(node: StateNode): boolean {
  return (
    node.invoke.length > 0 ||
    node.type === "final" ||
    node.type === "parallel" ||
    node.type === "history" ||
    (node.type === "compound" && node.initial.actions.length > 0) ||
    Object.values(node.states).some((child) => child.type === "history")
  );
}

/**
 * Where a transition with one target leads from these states, as XState's
 * microstep works it out (SCXML's): the transition's domain (its source,
 * when the target lies inside it; else their least common ancestor), the
 * states inside the domain left, the target with its ancestors up to the
 * domain and its initial states entered, in document order; the states
 * left run their exit actions innermost first, the states entered their
 * entry actions outermost first. Null where the step does more than change
 * states and assign: an action of a state left or entered that is not an
 * `assign`, a child actor, history, a final state, states side by side, or
 * a transition that re-enters.
 */
function moveFrom(
  from: readonly StateNode[],
  t: Transition,
  machine: AnyStateMachine,
  configuration: (nodes: StateNode[]) => Configuration,
): Move | null {
  const root = machine.root;
  const targets = t.target ?? [];
  if (targets.length !== 1 || t.reenter || from.some((n) => n.type === "parallel")) return null;
  const target = targets[0];
  let domain: StateNode | undefined;
  if (target === t.source || inside(target, t.source)) domain = t.source;
  else for (let up = target.parent; up && !domain; up = up.parent) if (inside(t.source, up)) domain = up;
  domain ??= root;
  const left = from.filter((n) => inside(n, domain));
  const entered = new Set<StateNode>();
  if (target !== t.source || t.source !== domain) entered.add(target);
  for (let up = target.parent; up && up !== domain; up = up.parent) entered.add(up);
  for (let node = target; node.type === "compound"; ) {
    node = node.initial.target[0];
    entered.add(node);
  }
  const enteredInOrder = [...entered].sort((a, b) => a.order - b.order);
  if (left.some(acts) || enteredInOrder.some(acts)) return null;
  const exit = assignmentsIn(
    machine,
    [...left].sort((a, b) => b.order - a.order).flatMap((n) => n.exit),
  );
  const entry = assignmentsIn(
    machine,
    enteredInOrder.flatMap((n) => n.entry),
  );
  if (!exit || !entry) return null;
  const nodes = from.filter((n) => !left.includes(n));
  nodes.push(...enteredInOrder);
  return { ...configuration(nodes), exit, entry };
}

/** The state value of these states (one innermost state), as XState writes it: `"folded"`, `{ q1: "choosing" }`. */
function stateValueOf(node: StateNode, nodes: readonly StateNode[]): StateValue {
  const child = nodes.find((n) => n.parent === node);
  if (!child) return {};
  return child.type === "atomic" || child.type === "final" ? child.key : { [child.key]: stateValueOf(child, nodes) };
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

/** A transition's assignments when every action is an `assign`, else null. */
function assignmentsOf(machine: AnyStateMachine, t: Transition): Assignment[] | null {
  return assignmentsIn(machine, t.actions);
}

/** These actions as assignments when every one is an `assign`, else null. */
function assignmentsIn(machine: AnyStateMachine, actions: readonly unknown[]): Assignment[] | null {
  const plan: Assignment[] = [];
  for (const action of actions) {
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
