/**
 * What forms share, and what each keeps of its own: forms of one shape run
 * one statechart definition, and the same content asked again gets the same
 * spec object; each form still runs an actor of its own, answers its own
 * spec (its options, ids and checks) and keeps its own state (a restored
 * draft in one is not seen by another); checked arguments are copied only
 * where a line ending changes, never changed in place.
 */
import { describe, expect, it } from "@jest/globals";
import { createActor } from "xstate";
import { formState, initialContext } from "../machines/context.js";
import { formMachine } from "../machines/form.js";
import { Recent } from "../machines/recent.js";
import { sharedSpec } from "../machines/shared-spec.js";
import { normalizeForm } from "../machines/spec.js";
import type { FormComponent } from "../renderers/terminal/component.js";
import { normalizeStrings } from "../schemas/rules.js";
import { createFormchart } from "../tools/index.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const input = (prompt: string, options = 3) => ({
  questions: [
    { prompt, options: Array.from({ length: options }, (_, i) => ({ label: `Option ${i}` })) },
    { prompt: "Second?", options: [{ label: "A" }, { label: "B" }], multiple: true },
  ],
});

describe("normalizeStrings", () => {
  it("hands back arguments without a carriage return as they are", () => {
    const args = { questions: [{ prompt: "P", options: [{ label: "A" }] }], n: 3, on: true, none: null };
    expect(normalizeStrings(args)).toBe(args);
  });

  it("copies only the path to a changed string and leaves the input untouched", () => {
    const untouched = { label: "A" };
    const args = { questions: [{ prompt: "line\r\nnext\rlast", options: [untouched] }], other: { x: "y" } };
    const out = normalizeStrings(args);
    expect(out).not.toBe(args);
    expect(out.questions[0].prompt).toBe("line\nnext\nlast");
    expect(args.questions[0].prompt).toBe("line\r\nnext\rlast");
    expect(out.questions[0].options[0]).toBe(untouched);
    expect(out.other).toBe(args.other);
  });

  it("keeps a __proto__ key a plain key in a copy", () => {
    const args = JSON.parse('{"__proto__": {"polluted": "yes"}, "text": "a\\r\\nb"}');
    const out = normalizeStrings(args);
    expect(Object.keys(out)).toEqual(["__proto__", "text"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("sharedSpec and formMachine", () => {
  it("gives the same content the same spec object, and other content its own", () => {
    const first = sharedSpec(normalizeForm(input("Which one, first test?")));
    expect(sharedSpec(normalizeForm(input("Which one, first test?")))).toBe(first);
    expect(sharedSpec(normalizeForm(input("Which other one?")))).not.toBe(first);
    expect(sharedSpec(normalizeForm({ ...input("Which one, first test?"), waitMs: 3000 }))).not.toBe(first);
  });

  it("does not hash specs past a thousand options", () => {
    const big = normalizeForm(input("Which of many?", 1001));
    expect(sharedSpec(big)).toBe(big);
    const again = normalizeForm(input("Which of many?", 1001));
    expect(sharedSpec(again)).toBe(again);
  });

  it("makes a spec's machine once, and each actor keeps its own state", () => {
    const spec = sharedSpec(normalizeForm(input("Shared machine?")));
    expect(formMachine(spec)).toBe(formMachine(spec));
    const restored = { ...initialContext(spec), answered: [true, false], cursors: [2, 0] };
    const a = createActor(formMachine(spec), { input: { spec, restore: restored } }).start();
    const b = createActor(formMachine(spec), { input: { spec } }).start();
    a.send({ type: "MOVE", delta: -1 });
    expect(a.getSnapshot().context.cursors[0]).toBe(1);
    expect(a.getSnapshot().context.answered).toEqual([true, false]);
    expect(formState(b.getSnapshot().context)).toEqual(initialContext(spec));
  });

  it("runs forms of one shape on one machine, each with its own options, ids and answers", () => {
    const two = normalizeForm({
      questions: [
        { id: "colour", prompt: "Colour?", options: [{ label: "Red" }, { label: "Blue" }], allowOther: false },
      ],
    });
    const four = normalizeForm({
      questions: [
        { id: "size", prompt: "Size?", options: ["S", "M", "L", "XL"].map((label) => ({ label })), allowOther: false },
      ],
    });
    expect(formMachine(four)).toBe(formMachine(two));
    const answer = (spec: typeof two) => {
      const actor = createActor(formMachine(spec), { input: { spec } }).start();
      for (let i = 0; i < 5; i++) actor.send({ type: "MOVE", delta: 1 });
      actor.send({ type: "CONFIRM" });
      return actor.getSnapshot().output;
    };
    // The highlight stops at each form's own last row, and the answer names each form's own question.
    expect(answer(two)?.answers).toEqual([{ id: "colour", answered: true, options: [1], custom: [] }]);
    expect(answer(four)?.answers).toEqual([{ id: "size", answered: true, options: [3], custom: [] }]);
  });

  it("gives forms whose states or transitions differ machines of their own", () => {
    const base = { prompt: "Which?", options: [{ label: "A" }, { label: "B" }] };
    const machine = formMachine(normalizeForm({ questions: [base] }));
    const differing = [
      { questions: [{ ...base, allowOther: false }] },
      { questions: [{ ...base, multiple: true }] },
      { questions: [base, base] },
      { questions: [base], waitMs: 1000 },
      { questions: [base], declinable: true },
    ];
    for (const form of differing) expect(formMachine(normalizeForm(form as never))).not.toBe(machine);
  });

  it("keeps no spec of more than a million characters, so it holds nothing that large once its form is gone", () => {
    const huge = () =>
      normalizeForm({
        questions: [
          { prompt: "Which?", options: Array.from({ length: 999 }, (_, i) => ({ label: `${i}`.padEnd(1000, "x") })) },
        ],
      });
    const first = sharedSpec(huge());
    expect(sharedSpec(huge())).not.toBe(first);
  });

  it("keeps machines of 100 questions in all: two of 50 let the older go", () => {
    const form = (n: number, multiple: boolean) =>
      normalizeForm({
        questions: Array.from({ length: n }, (_, i) => ({
          prompt: `Q${i}?`,
          options: [{ label: "A" }, { label: "B" }],
          multiple,
        })),
      });
    const small = form(3, false);
    const machine = formMachine(small);
    expect(formMachine(form(3, false))).toBe(machine);
    formMachine(form(50, false));
    formMachine(form(50, true));
    expect(formMachine(small)).not.toBe(machine);
  });

  it("opens the same tool call twice on one spec and one machine, each answered on its own", async () => {
    const pi = fakePi();
    createFormchart({ agentDir: tempAgentDir() })(pi.api);
    const tool = pi.tools.get("question")!;
    const forms: FormComponent[] = [];
    const call = (prompt: string, keys: string[]) => {
      const { ctx } = fakeUiContext((form) => {
        forms.push(form as unknown as FormComponent);
        for (const key of keys) form.handleInput(key);
      });
      return tool.execute(
        "1",
        { questions: [{ prompt, options: [{ label: "A" }, { label: "B" }] }] },
        undefined,
        undefined,
        ctx,
      );
    };
    const first = await call("Same call?", [KEY.enter]);
    const second = await call("Same call?", [KEY.down, KEY.enter]);
    const other = await call("Another call?", [KEY.enter]);
    expect(forms[1].session.spec).toBe(forms[0].session.spec);
    expect(forms[1].session.snapshot.machine).toBe(forms[0].session.snapshot.machine);
    expect(forms[2].session.spec).not.toBe(forms[0].session.spec);
    expect(first.details.answers[0].label).toBe("A");
    expect(second.details.answers[0].label).toBe("B");
    expect(other.details.answers[0].label).toBe("A");
  });
});

describe("Recent", () => {
  it("keeps the most recently used values within a number and a total weight", () => {
    const r = new Recent<string>(3, 10);
    r.set("a", "A", 1);
    r.set("b", "B", 1);
    r.set("c", "C", 1);
    // Using "a" makes "b" the least recently used.
    expect(r.get("a")).toBe("A");
    r.set("d", "D", 1);
    expect([r.get("b"), r.get("a"), r.get("c"), r.get("d")]).toEqual([undefined, "A", "C", "D"]);
    expect(r.size).toBe(3);
    // By weight: 4 + 4 + 4 passes 10, so the least recently used goes, however few there are.
    const w = new Recent<string>(10, 10);
    w.set("a", "A", 4);
    w.set("b", "B", 4);
    w.set("c", "C", 4);
    expect([w.get("a"), w.get("b"), w.get("c")]).toEqual([undefined, "B", "C"]);
  });

  it("never keeps a value heavier than the whole budget, and a value set again counts once", () => {
    const r = new Recent<string>(5, 10);
    r.set("big", "B", 11);
    expect(r.get("big")).toBeUndefined();
    r.set("x", "X1", 6);
    r.set("x", "X2", 6);
    r.set("y", "Y", 4);
    expect([r.get("x"), r.get("y")]).toEqual(["X2", "Y"]);
  });
});
