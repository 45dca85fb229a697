/**
 * The one place that reads XState's private fields, so the rest of the
 * project reads the names below and a change of XState's insides shows up
 * here alone.
 *
 * Why they are read at all: XState v5's public API says which state a
 * snapshot is in (`value`, `matches`) but not which state nodes that is,
 * with their ids and kinds, in document order (`_nodes`: what the review
 * page names a step's leaf by, and what coverage counts as entered); and an
 * inspection's `@xstate.microstep` event says which transition definitions
 * it took only in `_transitions` (what coverage counts per candidate, so an
 * event with three guarded candidates counts three transitions). Both are
 * fields XState itself fills on every snapshot and microstep in v5. A step
 * XState did not take itself (machines/quick-steps.ts) is reported to an
 * inspector through the actor system's own `_sendInspectionEvent`, as XState
 * reports its microsteps.
 */
import type { AnyActorScope, AnyEventObject, AnyStateMachine, InspectionEvent } from "xstate";

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

/** Tell the actor's inspector of a microstep taken outside XState: `event` took `transitions` to `snapshot`. */
export function reportMicrostep(
  scope: AnyActorScope,
  event: AnyEventObject,
  snapshot: unknown,
  transitions: readonly unknown[],
): void {
  const system = scope.system as unknown as { _sendInspectionEvent(event: object): void };
  system._sendInspectionEvent({
    type: "@xstate.microstep",
    actorRef: scope.self,
    event,
    snapshot,
    _transitions: transitions,
  });
}

/**
 * The snapshot after a step outside XState that changed states (machines/quick-steps.ts):
 * the states in XState's `_nodes` order, with the state value and tags they make.
 */
export function movedSnapshot<S extends object>(
  snapshot: S,
  context: unknown,
  move: { nodes: readonly unknown[]; value: unknown; tags: Set<string> },
): S {
  return { ...snapshot, context, _nodes: move.nodes, value: move.value, tags: move.tags };
}
