/**
 * The one place that reads XState's private fields, so a change of XState's
 * insides shows up here alone. XState v5's public API says which state a
 * snapshot is in (`value`, `matches`) but not which state nodes that is, with
 * their ids and kinds, in document order (`_nodes`: what the review page names
 * a step's leaf by, and what coverage counts as entered); and an inspection's
 * `@xstate.microstep` event names the transition definitions it took only in
 * `_transitions` (what coverage counts per candidate, so an event with three
 * guarded candidates counts three transitions). Only the inspector reads them.
 */
import type { AnyStateMachine, InspectionEvent } from "xstate";

type StateNode = AnyStateMachine["root"];

/** The state nodes a snapshot is in, outermost first (XState's `_nodes`). */
export function activeNodes(snapshot: unknown): readonly StateNode[] {
  return (snapshot as { _nodes: StateNode[] })._nodes;
}

/** The innermost state a snapshot is in, as a path from the root (`q2.choosing`, `submitted`; `""` at the root). */
export function leafPath(snapshot: unknown): string {
  const leaves = activeNodes(snapshot).filter((n) => n.type === "atomic" || n.type === "final");
  return (leaves[leaves.length - 1]?.id ?? "").replace(/^form\.?/, "");
}

type Microstep = Extract<InspectionEvent, { type: "@xstate.microstep" }>;

/** The transition definitions a microstep took (XState's `_transitions`). */
export function microstepTransitions(event: Microstep): Microstep["_transitions"] {
  return event._transitions;
}
