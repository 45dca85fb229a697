import { describe, expect, it } from "@jest/globals";
import { createActor } from "xstate";
import type { FormEvent } from "../machines/context.js";
import { createFormMachine } from "../machines/form.js";
import { formPosition } from "../machines/position.js";
import { normalizeForm, type QuestionInput } from "../machines/spec.js";

function run(questions: QuestionInput[], events: FormEvent[]) {
  const actor = createActor(createFormMachine(normalizeForm({ questions })), { input: {} }).start();
  for (const e of events) actor.send(e);
  return actor.getSnapshot();
}

const single: QuestionInput = { prompt: "Pick", options: [{ label: "A" }, { label: "B" }] };
const multi: QuestionInput = {
  prompt: "Several",
  multiple: true,
  options: [{ label: "X" }, { label: "Y" }, { label: "Z" }],
};

describe("single question", () => {
  it("answers with the highlighted option and submits", () => {
    const s = run([single], [{ type: "MOVE", delta: 1 }, { type: "CONFIRM" }]);
    expect(s.status).toBe("done");
    expect(s.output).toEqual({
      cancelled: false,
      answers: [{ id: "q1", answered: true, options: [1], custom: [] }],
      skipped: [],
      waited: false,
      notes: [{}],
      additionalText: "",
    });
  });

  it("clamps the cursor at both ends", () => {
    const s = run(
      [single],
      [
        { type: "MOVE", delta: -4 },
        { type: "MOVE", delta: 40 },
      ],
    );
    expect(s.context.cursors[0]).toBe(2); // A, B, Type something.
  });

  it("a number key picks that row", () => {
    const s = run([single], [{ type: "SELECT", row: 1 }]);
    expect(s.output?.answers[0].options).toEqual([1]);
  });

  it("ignores a number beyond the rows", () => {
    const s = run([single], [{ type: "SELECT", row: 7 }]);
    expect(s.status).toBe("active");
    expect(s.context.cursors[0]).toBe(0);
  });

  it("opens the editor on the free-text row and keeps the draft when Esc backs out", () => {
    const s = run([single], [{ type: "SELECT", row: 2 }, { type: "TYPE", text: "my own" }, { type: "CANCEL" }]);
    expect(formPosition(s)).toEqual({ kind: "question", q: 0, mode: "choosing" });
    expect(s.context.drafts[0]).toBe("my own");
    expect(s.status).toBe("active");
  });

  it("refuses an empty typed answer and accepts a real one, trimmed", () => {
    const empty = run(
      [single],
      [
        { type: "SELECT", row: 2 },
        { type: "SUBMIT_TEXT", text: "   " },
      ],
    );
    expect(formPosition(empty)).toEqual({ kind: "question", q: 0, mode: "typing" });
    const typed = run(
      [single],
      [
        { type: "SELECT", row: 2 },
        { type: "SUBMIT_TEXT", text: "  mine " },
      ],
    );
    expect(typed.output?.answers[0]).toEqual({ id: "q1", answered: true, options: [], custom: ["mine"] });
  });

  it("Esc on the list cancels", () => {
    const s = run([single], [{ type: "CANCEL" }]);
    expect(s.value).toBe("cancelled");
    expect(s.output?.cancelled).toBe(true);
  });

  it("without allowOther there is no free-text row", () => {
    const s = run(
      [{ ...single, allowOther: false }],
      [{ type: "MOVE", delta: 5 }, { type: "TOGGLE" }, { type: "CONFIRM" }],
    );
    expect(s.output?.answers[0].options).toEqual([1]);
  });
});

describe("multi-select", () => {
  it("Space toggles, Enter confirms the sorted selection", () => {
    const s = run(
      [multi],
      [
        { type: "MOVE", delta: 2 },
        { type: "TOGGLE" },
        { type: "MOVE_TO", to: "first" },
        { type: "TOGGLE" },
        { type: "CONFIRM" },
      ],
    );
    expect(s.output?.answers[0].options).toEqual([0, 2]);
  });

  it("refuses to confirm nothing when required", () => {
    const s = run([multi], [{ type: "CONFIRM" }]);
    expect(s.status).toBe("active");
  });

  it("confirms an empty selection when optional", () => {
    const s = run([{ ...multi, required: false }], [{ type: "CONFIRM" }]);
    expect(s.output?.answers[0]).toEqual({ id: "q1", answered: true, options: [], custom: [] });
  });

  it("typed answers become extra choices that Space removes", () => {
    const s1 = run(
      [multi],
      [
        { type: "SELECT", row: 3 },
        { type: "SUBMIT_TEXT", text: "W" },
        { type: "SELECT", row: 3 },
      ],
    );
    // Row 3 became the typed chip "W"; SELECT toggles it off again.
    expect(s1.context.picks[0].custom).toEqual([]);
    const s2 = run([multi], [{ type: "SELECT", row: 3 }, { type: "SUBMIT_TEXT", text: "W" }, { type: "CONFIRM" }]);
    expect(s2.output?.answers[0]).toEqual({ id: "q1", answered: true, options: [], custom: ["W"] });
  });
});

describe("tabbed form", () => {
  const form = [single, multi];

  it("advances after an answer and lands on the Submit tab", () => {
    const s = run(form, [{ type: "CONFIRM" }, { type: "TOGGLE" }, { type: "CONFIRM" }]);
    expect(s.value).toBe("review");
  });

  it("refuses to submit while a question is unanswered", () => {
    const s = run(form, [{ type: "CONFIRM" }, { type: "PREV_TAB" }, { type: "CONFIRM" }]);
    // PREV_TAB from q2 goes back to q1; answering q1 again moves to q2, not submitted.
    expect(s.status).toBe("active");
    const r = run(form, [{ type: "PREV_TAB" }, { type: "CONFIRM" }]);
    expect(r.value).toBe("review");
    expect(r.status).toBe("active");
  });

  it("tabs wrap around in both directions", () => {
    expect(run(form, [{ type: "PREV_TAB" }]).value).toBe("review");
    expect(run(form, [{ type: "PREV_TAB" }, { type: "NEXT_TAB" }]).value).toEqual({ q1: "choosing" });
  });

  it("keeps answers given before a cancel", () => {
    const s = run(form, [{ type: "MOVE", delta: 1 }, { type: "CONFIRM" }, { type: "CANCEL" }]);
    expect(s.output).toEqual({
      cancelled: true,
      answers: [
        { id: "q1", answered: true, options: [1], custom: [] },
        { id: "q2", answered: false, options: [], custom: [] },
      ],
      skipped: [],
      waited: false,
      notes: [{}, {}],
      additionalText: "",
    });
  });

  it("an abort from any state cancels", () => {
    const s = run(form, [{ type: "SELECT", row: 2 }, { type: "ABORT" }]);
    expect(s.value).toBe("cancelled");
  });

  it("a multi-select question is answered while something is chosen", () => {
    const toggled = run(form, [{ type: "CONFIRM" }, { type: "TOGGLE" }]);
    expect(toggled.context.answered).toEqual([true, true]);
    const s = run(form, [
      { type: "CONFIRM" },
      { type: "TOGGLE" },
      { type: "CONFIRM" },
      { type: "PREV_TAB" },
      { type: "TOGGLE" },
    ]);
    expect(s.context.answered).toEqual([true, false]);
  });

  it("a number key on the Submit tab goes back to that question", () => {
    const s = run(form, [{ type: "PREV_TAB" }, { type: "SELECT", row: 1 }]);
    expect(s.value).toEqual({ q2: "choosing" });
    expect(run(form, [{ type: "PREV_TAB" }, { type: "SELECT", row: 5 }]).value).toBe("review");
  });

  it("with autoAdvance off an answer stays on its tab", () => {
    const s = run([{ ...single, autoAdvance: false }, multi], [{ type: "CONFIRM" }]);
    expect(s.value).toEqual({ q1: "choosing" });
    expect(s.context.answered[0]).toBe(true);
  });
});
