import { describe, expect, it } from "@jest/globals";
import { Ajv } from "ajv";
import type { FormResult } from "../machines/context.js";
import type { RichArgs } from "../schemas/rich.js";
import { checkRichArgs } from "../schemas/rich-check.js";
import { richResultSchema } from "../schemas/rich-result.js";
import { formatRichAnswers, normalizeRich, richDetails } from "../tools/engine/rich.js";
import { createFormchart } from "../tools/index.js";
import type { RichFormResult } from "../tools/rich.js";
import { deploy, SEED_EXCERPT } from "./fixtures/deploy.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, noUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

const validateResult = new Ajv({ allErrors: true, strict: false }).compile(richResultSchema);
function expectValidResult(details: unknown) {
  const ok = validateResult(details);
  expect(validateResult.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

function result(answers: Partial<FormResult["answers"][number]>[], extra: Partial<FormResult> = {}): FormResult {
  return {
    cancelled: false,
    answers: answers.map((a, i) => ({ id: `q${i + 1}`, answered: true, options: [], custom: [], ...a })),
    skipped: [],
    hidden: [],
    waited: false,
    notes: answers.map(() => ({})),
    additionalText: "",
    ...extra,
  };
}

function rich(args: RichArgs) {
  const checked = checkRichArgs(args);
  if (!checked.ok) throw new Error(checked.error.message);
  return normalizeRich(checked.value);
}

describe("model-facing text", () => {
  it("reproduces the contract's deploy excerpt byte for byte", () => {
    const details = richDetails(rich(deploy), result([{ options: [1] }], { notes: [{ 1: "After smoke tests" }] }));
    expect(formatRichAnswers(details)).toBe(SEED_EXCERPT);
    expectValidResult(details);
  });

  it("includes title, context, every optional block, the custom entry, multi-line values and additional notes", () => {
    const form = rich({
      title: "Release plan",
      description: "We ship on Friday.",
      questions: [
        {
          id: "checks",
          type: "checkbox",
          prompt: "Which checks must pass?",
          body: "Pick all that apply.",
          context: "CI takes 12 minutes.",
          recommendation: "Unit and lint.",
          caveats: ["E2E is flaky", "Lint is slow"],
          allowOther: true,
          options: [
            {
              label: "Unit",
              value: "unit",
              recommended: true,
              description: "Fast",
              details: "Runs in 40 s",
              note: "Always on",
            },
            { label: "E2E", value: "e2e" },
            { label: "Lint", value: "lint", recommended: true },
          ],
        },
        { id: "notes", type: "text", prompt: "Anything else?", required: false },
      ],
    });
    const details = richDetails(
      form,
      result([{ options: [2, 0], custom: ["Smoke"] }, { answered: false }], {
        notes: [{ 0: "First line\nsecond line", 1: "   " }, {}],
        additionalText: "Ping me\nbefore merging",
      }),
    );
    expect(formatRichAnswers(details)).toBe(`User submitted the form with some questions left open.
Form: Release plan
Context: We ship on Friday.

Question 1 (checks)
Type: checkbox
Q: Which checks must pass?
Details: Pick all that apply.
Context: CI takes 12 minutes.
Recommendation: Unit and lint.
Caveats: E2E is flaky
  Lint is slow
Presented options:
  1. Unit
     Value: unit
     Selected: yes
     Recommended: yes
     Description: Fast
     Details: Runs in 40 s
     Presenter note: Always on
     User note: First line
       second line
  2. E2E
     Value: e2e
     Selected: no
     Recommended: no
  3. Lint
     Value: lint
     Selected: yes
     Recommended: yes
  4. Other / custom answer
     Selected: yes
     Custom value: Smoke
Selected answer:
  - Label: Unit
    Value: unit
    User note: First line
      second line
  - Label: Lint
    Value: lint
  - Custom answer: Smoke

Question 2 (notes)
Type: text
Q: Anything else?
Answer:
  (empty)

Additional notes:
  Ping me
  before merging`);
    expect(details.answers).toEqual([
      {
        id: "checks",
        type: "checkbox",
        value: ["unit", "lint", "Smoke"],
        wasCustom: true,
        selectedOptionIndexes: [0, 2],
        customValue: "Smoke",
        optionNotes: [{ optionIndex: 0, value: "unit", label: "Unit", note: "First line\nsecond line" }],
      },
      { id: "notes", type: "text", value: "", wasCustom: true },
    ]);
    expectValidResult(details);
  });

  it("a radio custom answer selects no predefined index; an unanswered radio has none either", () => {
    const form = rich({
      questions: [
        { id: "a", prompt: "A?", allowOther: true, options: [{ label: "X" }] },
        { id: "b", prompt: "B?", required: false, options: [{ label: "Y", value: "y" }] },
      ],
    });
    const details = richDetails(
      form,
      result([{ custom: ["Mine"] }, { answered: false }], { notes: [{ 7: "not an option" }, {}] }),
    );
    expect(details.answers).toEqual([
      { id: "a", type: "radio", value: "Mine", wasCustom: true, selectedOptionIndexes: [], customValue: "Mine" },
      { id: "b", type: "radio", value: "", wasCustom: false, selectedOptionIndexes: [] },
    ]);
    expect(formatRichAnswers(details)).toContain("Selected answer:\n  - Custom answer: Mine");
    expect(formatRichAnswers(details)).toContain("Selected answer:\n  (none)");
    expectValidResult(details);
  });

  it("normalizes: ids, labels, radio default, values falling back to labels, allowOther off, required on, authoring content kept", () => {
    const form = rich({ questions: [{ prompt: "P?", details: "More", options: [{ label: "L", note: "n" }] }] });
    expect(form.questions[0]).toEqual({
      id: "q1",
      type: "radio",
      label: "Q1",
      prompt: "P?",
      details: "More",
      required: true,
      allowOther: false,
      options: [{ label: "L", note: "n", value: "L" }],
    });
  });
});

describe("ask_rich_questions tool", () => {
  function setup() {
    const pi = fakePi();
    createFormchart({ agentDir: tempAgentDir() })(pi.api);
    return pi.tools.get("ask_rich_questions")!;
  }

  it("a person answers the deploy example with a note and the model gets the contract's text", async () => {
    const tool = setup();
    const { ctx } = fakeUiContext((c) =>
      ["\x1b[B", "n", ..."After smoke tests", KEY.enter, KEY.enter, KEY.enter].forEach((k) => {
        c.handleInput(k);
      }),
    );
    const r = await tool.execute("c1", deploy, undefined, undefined, ctx);
    expect(r.content[0].text).toBe(SEED_EXCERPT);
    expectValidResult(r.details);
  });

  it("review refuses submit while a required question is open, number keys go back, additional notes are kept", async () => {
    const tool = setup();
    const args: RichArgs = {
      questions: [
        { id: "a", prompt: "A?", options: [{ label: "One" }, { label: "Two" }] },
        { id: "b", type: "text", prompt: "Why?" },
      ],
    };
    const keys = [KEY.enter, KEY.tab, KEY.enter, "n", ..."Thanks", KEY.esc, "2", ..."Because", KEY.enter, KEY.enter];
    const { ctx } = fakeUiContext((c) =>
      keys.forEach((k) => {
        c.handleInput(k);
      }),
    );
    const r = await tool.execute("c1", args, undefined, undefined, ctx);
    const details = r.details as RichFormResult;
    expect(details.cancelled).toBe(false);
    expect(details.answers.map((a) => a.value)).toEqual(["One", "Because"]);
    expect(details.additionalText).toBe("Thanks");
    expect(r.content[0].text).toMatch(/Additional notes:\n {2}Thanks$/);
    expectValidResult(details);
  });

  it("cancel returns the full result with cancelled: true", async () => {
    const tool = setup();
    const { ctx } = fakeUiContext((c) =>
      ["\x1b[B", "n", ..."hm", KEY.enter, KEY.esc, KEY.esc].forEach((k) => {
        c.handleInput(k);
      }),
    );
    const r = await tool.execute("c1", deploy, undefined, undefined, ctx);
    expect(r.details).toMatchObject({ cancelled: true, answers: [{ id: "target", optionNotes: [{ note: "hm" }] }] });
    expectValidResult(r.details);
  });

  it("no UI or no questions give the minimal {cancelled: true}", async () => {
    const tool = setup();
    const noUi = await tool.execute("c1", deploy, undefined, undefined, noUiContext);
    expect(noUi.details).toEqual({ cancelled: true, outcome: "no_ui" });
    const empty = await tool.execute("c1", { questions: [] }, undefined, undefined, noUiContext);
    expect(empty.details).toEqual({ cancelled: true, outcome: "error" });
    expect(empty.content[0].text).toBe("Error (empty_questionnaire): questions: there are no questions to ask");
    expectValidResult(noUi.details);
  });

  it.each([
    [{ questions: [{ prompt: "A?", options: [] }] }, "too_few_options"],
    [
      {
        questions: [
          {
            prompt: "A?",
            options: [
              { label: "X", value: "v" },
              { label: "Y", value: "v" },
            ],
          },
        ],
      },
      "duplicate_option",
    ],
    [{ questions: [{ prompt: "A?", type: "text", options: [{ label: "X" }] }] }, "invalid_arguments"],
    [{ questions: [{ prompt: "A?", type: "dropdown" }] }, "invalid_arguments"],
  ])("rejects %j as %s before opening", async (args, category) => {
    const tool = setup();
    const { ctx, opened } = fakeUiContext(() => {});
    const r = await tool.execute("c1", args, undefined, undefined, ctx);
    expect(r.details).toEqual({ cancelled: true, outcome: "error", error: category });
    expect(opened()).toBe(0);
  });
});
