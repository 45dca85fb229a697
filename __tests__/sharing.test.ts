/**
 * What forms of one spec share, and what each keeps of its own: the same
 * content asked again gets the same spec object and statechart definition,
 * each form still runs an actor of its own (a restored draft in one is not
 * seen by another); checked arguments are copied only where a line ending
 * changes, never changed in place.
 */
import { describe, expect, it } from "@jest/globals";
import { createActor } from "xstate";
import { initialContext } from "../machines/context.js";
import { formMachine } from "../machines/form.js";
import { sharedSpec } from "../machines/shared-spec.js";
import { normalizeForm } from "../machines/spec.js";
import type { FormComponent } from "../renderers/component.js";
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
    const a = createActor(formMachine(spec), { input: { restore: restored } }).start();
    const b = createActor(formMachine(spec), { input: {} }).start();
    a.send({ type: "MOVE", delta: -1 });
    expect(a.getSnapshot().context.cursors[0]).toBe(1);
    expect(a.getSnapshot().context.answered).toEqual([true, false]);
    expect(b.getSnapshot().context).toEqual(initialContext(spec));
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
    expect(forms[1].spec).toBe(forms[0].spec);
    expect(forms[1].actor.logic).toBe(forms[0].actor.logic);
    expect(forms[2].spec).not.toBe(forms[0].spec);
    expect(first.details.answers[0].label).toBe("A");
    expect(second.details.answers[0].label).toBe("B");
    expect(other.details.answers[0].label).toBe("A");
  });
});
