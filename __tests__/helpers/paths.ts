/**
 * Model-based path testing: @xstate/graph enumerates routes through a form's
 * statechart, and each route is replayed against the real `FormComponent`
 * with the key bytes the keymap binds to each event.
 *
 * The traversal is keyed on what the guards can see (state value, the kind of
 * row under each cursor, which questions are answered or have a selection or
 * a draft) plus the incoming event, never on raw answers: that keeps the
 * graph small while still reaching every self-loop and refused event.
 */
import { expect, jest } from "@jest/globals";
import { type AnyStateMachine, createActor, type InspectionEvent } from "xstate";
import { createFormMachine, type FormEvent, type FormResult } from "../../machines/form.js";
import type { FormSpec } from "../../machines/spec.js";
import { bytesForEvent } from "../../renderers/keymap.js";
import { openForm, overflowingLines } from "./fake-host.js";
import { COOLDOWN_DONE, guardKey, type Snap } from "./model.js";

export { formEvents, formTestModel, generatePaths, guardKey, TRAVERSAL_LIMIT } from "./model.js";

/** Every state node id and every transition (source, event, candidate index) of a machine. */
export function definitionOf(machine: AnyStateMachine) {
  const states = new Set<string>();
  const transitions = new Set<string>();
  const visit = (node: AnyStateMachine["root"]) => {
    states.add(node.id);
    for (const [eventType, defs] of node.transitions)
      defs.forEach((_, i) => transitions.add(`${node.id} ${eventType} #${i}`));
    node.always?.forEach((_, i) => transitions.add(`${node.id} always #${i}`));
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

function recordMicrosteps(coverage: Coverage) {
  return (e: InspectionEvent) => {
    if (e.type === "@xstate.snapshot") {
      const snap = e.snapshot as Snap;
      for (const node of snap._nodes) coverage.states.add(node.id);
    }
    if (e.type !== "@xstate.microstep") return;
    for (const t of e._transitions) {
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

export interface ReplayOptions {
  width: number;
  height?: number;
}

/**
 * Replay one generated path on the real component: press the bound keys for
 * each step, and check after every step that the component's machine is where
 * a pure model actor fed the same events is (and in the graph node the path
 * predicted), that every rendered line fits, and finally the result `done` got.
 */
export function replayPath(
  spec: FormSpec,
  steps: Array<{ event: { type: string }; state: unknown }>,
  coverage: Coverage,
  options: ReplayOptions,
): void {
  const model = createActor(createFormMachine(spec)).start();
  const key = guardKey(spec);
  const { form, results } = openForm(spec, {
    inspect: recordMicrosteps(coverage),
    maxHeight: () => options.height ?? 40,
  });
  const route: string[] = [];
  for (const step of steps) {
    const event = step.event as FormEvent;
    if (event.type === (COOLDOWN_DONE as string)) {
      // Both actors run on jest's fake clock: let the delay run out for both.
      route.push("(cooldown over)");
      jest.advanceTimersByTime(spec.waitMs ?? 0);
    } else if (event.type.startsWith("xstate.")) {
      continue;
    } else {
      route.push(JSON.stringify(event));
      model.send(event);
      if (event.type === "ABORT") form.abort();
      else form.handleInput(bytesForEvent(event, form.keyContext(), form.keybindings));
    }
    const expected = model.getSnapshot();
    const actual = form.snapshot;
    expect({ route, value: actual.value, context: actual.context }).toEqual({
      route,
      value: expected.value,
      context: expected.context,
    });
    expect({ route, node: key(expected, undefined) }).toEqual({ route, node: key(step.state as Snap, undefined) });
    if (actual.status === "active") expect(overflowingLines(form.render(options.width), options.width)).toEqual([]);
  }
  const end = model.getSnapshot();
  expect(results).toEqual(end.status === "done" ? [end.output as FormResult] : []);
  model.stop();
  form.dispose();
}
