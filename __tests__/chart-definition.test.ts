/**
 * The folded state's UNFOLD is written from `foldTargets(shape)`, the FOLD of
 * each state where the state is written: the two must name the same states,
 * for every shape, or a form folded from somewhere cannot be opened again.
 */
import { describe, expect, it } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { foldTargets } from "../machines/chart-moves.js";
import { createFormMachine } from "../machines/form.js";
import { chartShape } from "../machines/shape.js";
import { type FormSpec, normalizeForm, type QuestionInput } from "../machines/spec.js";

type Node = AnyStateMachine["root"];

const pathOf = (node: Node) => node.id.replace(/^form\.?/, "");

/** The states of the built machine with a FOLD, each with the place its FOLD records. */
function foldingStates(machine: AnyStateMachine): Array<{ path: string; at: unknown }> {
  const found: Array<{ path: string; at: unknown }> = [];
  const visit = (node: Node) => {
    for (const t of node.on.FOLD ?? []) {
      for (const a of t.actions as Array<{ type?: string; params?: { at?: string } }>)
        if (a.type === "markFolded") found.push({ path: pathOf(node), at: a.params?.at });
    }
    for (const child of Object.values(node.states)) visit(child as Node);
  };
  visit(machine.root);
  return found;
}

const examples = exampleNames().map((name): [string, FormSpec] => {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return [name, loaded.form.spec];
});

const options = [{ label: "A" }, { label: "B" }];
const choice = (id: string, extra: Partial<QuestionInput>): QuestionInput => ({
  id,
  prompt: `${id}?`,
  options,
  ...extra,
});
const text = (id: string, extra: Partial<QuestionInput> = {}): QuestionInput => ({
  id,
  prompt: `${id}?`,
  options: [],
  kind: "text",
  ...extra,
});

const shapes: Array<[string, FormSpec]> = [];
for (const notes of [false, true])
  for (const allowOther of [false, true])
    for (const multiple of [false, true]) {
      const q = { notes, allowOther, multiple };
      const named = `notes ${notes}, other ${allowOther}, ${multiple ? "multi" : "single"}`;
      shapes.push([`one question, ${named}`, normalizeForm({ questions: [choice("a", q)] })]);
      for (const additionalNotes of [false, true])
        shapes.push([
          `tabbed, ${named}, additional notes ${additionalNotes}`,
          normalizeForm({
            additionalNotes,
            questions: [choice("a", q), text("t"), choice("b", { notes: !notes, allowOther: !allowOther })],
          }),
        ]);
    }
shapes.push(["one text question", normalizeForm({ questions: [text("t")] })]);
shapes.push([
  "one text question with its review and additional notes",
  normalizeForm({ alwaysReview: true, additionalNotes: true, questions: [text("t")] }),
]);
shapes.push(["no questions", normalizeForm({ declinable: true, questions: [] })]);

describe.each([...examples, ...shapes])("the fold targets of %s", (_name, spec) => {
  const machine = createFormMachine(spec) as unknown as AnyStateMachine;
  const targets = foldTargets(chartShape(spec));

  it("are exactly the states with a FOLD, each recording itself", () => {
    const folding = foldingStates(machine);
    expect(new Set(targets).size).toBe(targets.length);
    expect(folding.map((f) => f.path).sort()).toEqual([...targets].sort());
    for (const f of folding) expect(f.at).toBe(f.path);
  });

  it("are where UNFOLD goes back to, in their order", () => {
    const unfold = (machine.root.states.folded as Node).on.UNFOLD ?? [];
    expect(unfold.map((t) => (t.target ?? []).map(pathOf))).toEqual(targets.map((at) => [at]));
  });
});
