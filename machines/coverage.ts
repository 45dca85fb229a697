/**
 * What routes cover of a form's definition: every state node and every
 * transition (by source, event and candidate), read off the machine, and an
 * inspection hook that records what a replay entered and took. The path
 * tests hold a form's routes to all of it; the review page shows the table.
 */
import type { AnyStateMachine, InspectionEvent } from "xstate";
import { activeNodes, microstepTransitions } from "./xstate-private.js";

/** Every state node id and every transition (source, event, candidate index) of a machine. */
export function definitionOf(machine: AnyStateMachine) {
  const states = new Set<string>();
  const transitions = new Set<string>();
  const visit = (node: AnyStateMachine["root"]) => {
    states.add(node.id);
    for (const [eventType, defs] of node.transitions)
      defs.forEach((_, i) => {
        transitions.add(`${node.id} ${eventType} #${i}`);
      });
    node.always?.forEach((_, i) => {
      transitions.add(`${node.id} always #${i}`);
    });
    for (const child of Object.values(node.states)) visit(child as AnyStateMachine["root"]);
  };
  visit(machine.root);
  return { states, transitions };
}

export interface Coverage {
  states: Set<string>;
  transitions: Set<string>;
}

export function newCoverage(): Coverage {
  return { states: new Set(), transitions: new Set() };
}

/** An inspection hook that records the state nodes entered and the transitions taken (eventless ones included). */
export function recordMicrosteps(coverage: Coverage) {
  return (e: InspectionEvent) => {
    if (e.type === "@xstate.snapshot") {
      for (const node of activeNodes(e.snapshot)) coverage.states.add(node.id);
    }
    if (e.type !== "@xstate.microstep") return;
    for (const t of microstepTransitions(e)) {
      const eventless = t.source.always?.indexOf(t) ?? -1;
      if (eventless >= 0) {
        coverage.transitions.add(`${t.source.id} always #${eventless}`);
        continue;
      }
      const list = t.source.transitions.get(t.eventType);
      const i = list ? list.indexOf(t) : -1;
      if (i >= 0) coverage.transitions.add(`${t.source.id} ${t.eventType} #${i}`);
    }
  };
}

/** What a set of routes missed of a machine's definition. */
export function missedBy(machine: AnyStateMachine, coverage: Coverage) {
  const definition = definitionOf(machine);
  return {
    definition,
    states: [...definition.states].filter((s) => !coverage.states.has(s)),
    transitions: [...definition.transitions].filter((t) => !coverage.transitions.has(t)),
  };
}
