/**
 * The statechart is written so the compiler checks it: a misspelt action,
 * guard, event or tag in a state of the form's `setup` does not type-check.
 * `tsc --noEmit` (CI) fails if any line marked `@ts-expect-error` below
 * stops being an error, so these lines are the proof.
 */
import { describe, expect, it } from "@jest/globals";
import { createFormMachine, formChart } from "../machines/form.js";
import { normalizeForm } from "../machines/spec.js";

const spec = normalizeForm({ questions: [{ prompt: "Pick one", options: [{ label: "A" }, { label: "B" }] }] });

/** States with misspellings: never run, only compiled. */
function misspelt() {
  return [
    // @ts-expect-error an action that does not exist
    formChart.createStateConfig({ on: { CANCEL: { actions: "markCancelld" } } }),
    // @ts-expect-error a guard that does not exist
    formChart.createStateConfig({ on: { CONFIRM: { guard: "canSubmitt", target: "#form.submitted" } } }),
    // @ts-expect-error a guard parameter of the wrong type
    formChart.createStateConfig({ on: { CONFIRM: { guard: { type: "onOptionRow", params: { q: "one" } } } } }),
    // @ts-expect-error an event the form never receives
    formChart.createStateConfig({ on: { CONFRIM: { target: "#form.submitted" } } }),
    // @ts-expect-error a tag renderers do not know
    formChart.createStateConfig({ tags: "typng" }),
  ];
}

describe("the typed statechart", () => {
  it("is built from the named actions and guards the compiler checks", () => {
    const machine = createFormMachine(spec);
    const actions = Object.keys(machine.implementations.actions);
    const guards = Object.keys(machine.implementations.guards);
    expect(actions).toEqual(expect.arrayContaining(["markCancelled", "markSubmitted", "pickHighlighted"]));
    expect(guards).toEqual(expect.arrayContaining(["canSubmit", "onOptionRow", "onOtherRow"]));
    expect(misspelt()).toHaveLength(5);
  });
});
