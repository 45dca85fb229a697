import { describe, expect, it } from "@jest/globals";
import { createActor } from "xstate";
import type { FormEvent } from "../machines/context.js";
import { createFormMachine } from "../machines/form.js";
import { formPosition } from "../machines/position.js";
import { normalizeForm, type QuestionInput } from "../machines/spec.js";

function run(questions: QuestionInput[], events: FormEvent[]) {
  const spec = normalizeForm({ questions });
  const actor = createActor(createFormMachine(spec), { input: { spec } }).start();
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
      hidden: [],
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

  it("a ticks every option (or none when all are ticked), i inverts; typed choices stay", () => {
    const all = run([multi], [{ type: "TOGGLE" }, { type: "TOGGLE_ALL" }]);
    expect(all.context.picks[0].options).toEqual([0, 1, 2]);
    expect(run([multi], [{ type: "TOGGLE_ALL" }, { type: "TOGGLE_ALL" }]).context.picks[0].options).toEqual([]);
    const inverted = run([multi], [{ type: "MOVE", delta: 1 }, { type: "TOGGLE" }, { type: "INVERT" }]);
    expect(inverted.context.picks[0].options).toEqual([0, 2]);
    const typed = run(
      [multi],
      [{ type: "SELECT", row: 3 }, { type: "SUBMIT_TEXT", text: "W" }, { type: "TOGGLE_ALL" }, { type: "INVERT" }],
    );
    expect(typed.context.picks[0]).toEqual({ options: [], custom: ["W"] });
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
    expect(s.value).toEqual({ review: "reviewing" });
  });

  it("refuses to submit while a question is unanswered", () => {
    const s = run(form, [{ type: "CONFIRM" }, { type: "PREV_TAB" }, { type: "CONFIRM" }]);
    // PREV_TAB from q2 goes back to q1; answering q1 again moves to q2, not submitted.
    expect(s.status).toBe("active");
    const r = run(form, [{ type: "PREV_TAB" }, { type: "CONFIRM" }]);
    expect(r.value).toEqual({ review: "reviewing" });
    expect(r.status).toBe("active");
  });

  it("tabs wrap around in both directions", () => {
    expect(run(form, [{ type: "PREV_TAB" }]).value).toEqual({ review: "reviewing" });
    expect(run(form, [{ type: "PREV_TAB" }, { type: "NEXT_TAB" }]).value).toEqual({ q1: "choosing" });
  });

  it("keeps answers given before a cancel (Esc asks first once something is answered)", () => {
    const asked = run(form, [{ type: "MOVE", delta: 1 }, { type: "CONFIRM" }, { type: "CANCEL" }]);
    expect(asked.status).toBe("active");
    expect(asked.value).toEqual({ q2: "discarding" });
    const s = run(form, [{ type: "MOVE", delta: 1 }, { type: "CONFIRM" }, { type: "CANCEL" }, { type: "CANCEL" }]);
    expect(s.output).toEqual({
      cancelled: true,
      answers: [
        { id: "q1", answered: true, options: [1], custom: [] },
        { id: "q2", answered: false, options: [], custom: [] },
      ],
      skipped: [],
      hidden: [],
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
    expect(run(form, [{ type: "PREV_TAB" }, { type: "SELECT", row: 5 }]).value).toEqual({ review: "reviewing" });
  });

  it("an answer given after going back from the Submit tab returns there, not to the next question", () => {
    const answered = [{ type: "CONFIRM" }, { type: "TOGGLE" }, { type: "CONFIRM" }] as FormEvent[];
    const back = run(form, [...answered, { type: "SELECT", row: 0 }, { type: "MOVE", delta: 1 }, { type: "CONFIRM" }]);
    expect(back.value).toEqual({ review: "reviewing" });
    expect(back.context.picks[0].options).toEqual([1]);
    // A tab move in between forgets where it came from.
    const moved = run(form, [
      ...answered,
      { type: "SELECT", row: 0 },
      { type: "NEXT_TAB" },
      { type: "PREV_TAB" },
      { type: "CONFIRM" },
    ]);
    expect(moved.value).toEqual({ q2: "choosing" });
  });

  it("Esc asks before discarding: a second Esc or Enter discards, any other key goes back", () => {
    const answered = [{ type: "CONFIRM" }] as FormEvent[];
    expect(run(form, [...answered, { type: "CANCEL" }, { type: "CONFIRM" }]).output?.cancelled).toBe(true);
    const resumed = run(form, [...answered, { type: "CANCEL" }, { type: "RESUME" }]);
    expect(resumed.value).toEqual({ q2: "choosing" });
    expect(resumed.context.answered).toEqual([true, false]);
    // Nothing entered yet: Esc cancels at once.
    expect(run(form, [{ type: "CANCEL" }]).value).toBe("cancelled");
    // The review screen asks too.
    expect(run(form, [...answered, { type: "NEXT_TAB" }, { type: "CANCEL" }]).value).toEqual({ review: "discarding" });
  });

  it("with autoAdvance off an answer stays on its tab", () => {
    const s = run([{ ...single, autoAdvance: false }, multi], [{ type: "CONFIRM" }]);
    expect(s.value).toEqual({ q1: "choosing" });
    expect(s.context.answered[0]).toBe(true);
  });
});

describe("typed answers and Tab", () => {
  const tabbed: QuestionInput[] = [single, { ...multi, allowOther: true }];

  it("Tab out of a typed answer keeps it as the answer (single) or one more choice (multi)", () => {
    const single1 = run(tabbed, [{ type: "SELECT", row: 2 }, { type: "TYPE", text: "Mongo" }, { type: "NEXT_TAB" }]);
    expect(single1.value).toEqual({ q2: "choosing" });
    expect(single1.context.picks[0]).toEqual({ options: [], custom: ["Mongo"] });
    expect(single1.context.answered[0]).toBe(true);
    const multi1 = run(tabbed, [
      { type: "NEXT_TAB" },
      { type: "SELECT", row: 3 },
      { type: "TYPE", text: "Vector" },
      { type: "PREV_TAB" },
    ]);
    expect(multi1.value).toEqual({ q1: "choosing" });
    expect(multi1.context.picks[1]).toEqual({ options: [], custom: ["Vector"] });
  });

  it("an optional typed answer left empty is no answer (skipped), not an empty one", () => {
    const notes: QuestionInput = { prompt: "Notes?", options: [], kind: "text", required: false };
    const s = run([single, notes], [{ type: "CONFIRM" }, { type: "SUBMIT_TEXT", text: "  " }]);
    expect(s.value).toEqual({ review: "reviewing" });
    expect(s.context.answered).toEqual([true, false]);
  });
});

describe("skipped and hidden questions", () => {
  const questions: QuestionInput[] = [
    { id: "go", prompt: "Go?", options: [{ label: "Yes" }, { label: "No" }], allowOther: false },
    {
      id: "where",
      prompt: "Where?",
      options: [{ label: "A" }, { label: "B" }],
      when: [{ field: "go", operator: "equals", value: "Yes" }],
    },
    { id: "when", prompt: "When?", options: [{ label: "Now" }, { label: "Later" }] },
  ];

  it("skipped lists the questions passed over while moving; hidden the ones hidden at the end", () => {
    const passed = run(questions, [
      { type: "MOVE", delta: 1 },
      { type: "CONFIRM" },
      { type: "CONFIRM" },
      { type: "CONFIRM" },
    ]);
    expect(passed.output).toMatchObject({ skipped: ["where"], hidden: ["where"], cancelled: false });
    // Going back from the first question to the Submit tab passes nothing; "where" is hidden all the same.
    const notPassed = run(questions, [{ type: "PREV_TAB" }, { type: "CANCEL" }]);
    expect(notPassed.output).toMatchObject({ skipped: [], hidden: ["where"] });
  });

  it("review numbers the questions shown, in order, and a digit goes to the question with that number", () => {
    const s = run(questions, [
      { type: "MOVE", delta: 1 },
      { type: "CONFIRM" },
      { type: "CONFIRM" },
      { type: "SELECT", row: 1 },
    ]);
    // "where" is hidden, so number 2 is "when".
    expect(s.value).toEqual({ q3: "choosing" });
  });
});
