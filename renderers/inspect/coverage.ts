/**
 * What routes must cover of a form: every state node, every transition (by
 * source, event and candidate) and every condition outcome at its boundaries;
 * and an inspection hook that records what a replay covered.
 */
import type { AnyStateMachine, InspectionEvent } from "xstate";
import type { FormContext } from "../../machines/context.js";
import { questionStateKey } from "../../machines/setup.js";
import type { FormSpec } from "../../machines/spec.js";
import { witnessesGiven, witnessesOfForm, witnessId } from "./boundaries.js";
import { activeNodes, microstepTransitions } from "./xstate-private.js";

/**
 * What a form's chart holds for routes to take. A question switched off (`on: false`) is never
 * shown: its state is only passed (its eventless moves), and nothing leads into it.
 */
export function definitionOf(machine: AnyStateMachine, spec?: FormSpec) {
  const conditions = new Set(spec ? witnessesOfForm(spec).map((w) => witnessId(spec, w)) : []);
  const off = (spec?.questions ?? []).flatMap((q, k) =>
    q.visibility.kind === "never" ? [`${machine.root.id}.${questionStateKey(k)}`] : [],
  );
  const never = (id: string) => off.some((o) => id === o || id.startsWith(`${o}.`));
  const states = new Set<string>();
  const transitions = new Set<string>();
  const visit = (node: AnyStateMachine["root"]) => {
    if (!never(node.id)) states.add(node.id);
    for (const [eventType, defs] of node.transitions)
      defs.forEach((t, i) => {
        if (never(node.id) || (t.target?.length && t.target.every((n) => never(n.id)))) return;
        transitions.add(`${node.id} ${eventType} #${i}`);
      });
    node.always?.forEach((_, i) => {
      transitions.add(`${node.id} always #${i}`);
    });
    for (const child of Object.values(node.states)) visit(child as AnyStateMachine["root"]);
  };
  visit(machine.root);
  return { states, transitions, conditions };
}

export interface Coverage {
  states: Set<string>;
  transitions: Set<string>;
  /** As `witnessId` names them. */
  conditions: Set<string>;
}

export function newCoverage(): Coverage {
  return { states: new Set(), transitions: new Set(), conditions: new Set() };
}

export function recordMicrosteps(coverage: Coverage, spec?: FormSpec) {
  const witnesses = spec ? witnessesOfForm(spec) : [];
  return (e: InspectionEvent) => {
    if (e.type === "@xstate.snapshot") {
      for (const node of activeNodes(e.snapshot)) coverage.states.add(node.id);
      if (spec && witnesses.length > 0) {
        const context = (e.snapshot as { context?: FormContext }).context;
        if (context?.answered)
          for (const w of witnessesGiven(spec, witnesses, context)) coverage.conditions.add(witnessId(spec, w));
      }
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

export function missedBy(machine: AnyStateMachine, coverage: Coverage, spec?: FormSpec) {
  const definition = definitionOf(machine, spec);
  return {
    definition,
    conditions: [...definition.conditions].filter((c) => !coverage.conditions.has(c)),
    states: [...definition.states].filter((s) => !coverage.states.has(s)),
    transitions: [...definition.transitions].filter((t) => !coverage.transitions.has(t)),
  };
}
