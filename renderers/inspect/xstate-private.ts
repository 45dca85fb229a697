/**
 * The one place that reads XState's private fields, so a change of XState's
 * insides shows up here alone. The public API names neither the state nodes a
 * snapshot is in (`_nodes`) nor the transition definitions a microstep took
 * (`_transitions`: coverage counts each guarded candidate).
 */
import type { AnyStateMachine, InspectionEvent } from "xstate";

type StateNode = AnyStateMachine["root"];

/** Outermost first. */
export function activeNodes(snapshot: unknown): readonly StateNode[] {
  return (snapshot as { _nodes: StateNode[] })._nodes;
}

/** `q2.choosing`, `submitted`; `""` at the root. */
export function leafPath(snapshot: unknown): string {
  const leaves = activeNodes(snapshot).filter((n) => n.type === "atomic" || n.type === "final");
  return (leaves[leaves.length - 1]?.id ?? "").replace(/^form\.?/, "");
}

type Microstep = Extract<InspectionEvent, { type: "@xstate.microstep" }>;

export function microstepTransitions(event: Microstep): Microstep["_transitions"] {
  return event._transitions;
}
