import { type JsonObject, validateToolArguments } from "@earendil-works/pi-ai";
import { describe, expect, it } from "@jest/globals";
import { normalizeForm } from "../machines/spec.js";
import { foldSingleQuestion, QuestionParameters } from "../schemas/question.js";
import { checkQuestionArgs } from "../schemas/question-check.js";

const two = [{ label: "A" }, { label: "B" }];

describe("question arguments: errors name the field and the problem", () => {
  it.each([
    ["not an object", "nope", "invalid_arguments", "arguments: must be object"],
    ["no questions key", {}, "invalid_arguments", 'arguments: missing required property "questions"'],
    ["empty questions", { questions: [] }, "empty_questionnaire", "questions: there are no questions to ask"],
    ["questions not an array", { questions: "a" }, "invalid_arguments", "questions: must be array"],
    [
      "missing prompt",
      { questions: [{ options: two }] },
      "invalid_arguments",
      'questions[0]: missing required property "prompt"',
    ],
    [
      "empty prompt",
      { questions: [{ prompt: "", options: two }] },
      "invalid_arguments",
      "questions[0].prompt: must not be empty",
    ],
    [
      "empty options",
      { questions: [{ prompt: "p", options: [] }] },
      "too_few_options",
      "questions[0].options: 0 options, a choice needs at least 1",
    ],
    [
      "option without label",
      { questions: [{ prompt: "p", options: [{ description: "d" }] }] },
      "invalid_arguments",
      'questions[0].options[0]: missing required property "label"',
    ],
    [
      "wrong type of flag",
      { questions: [{ prompt: "p", options: two, multiple: "yes" }] },
      "invalid_arguments",
      "questions[0].multiple: must be boolean",
    ],
    [
      "unknown property",
      { questions: [{ prompt: "p", options: two, colour: "red" }] },
      "invalid_arguments",
      'questions[0]: unknown property "colour"',
    ],
    [
      "duplicate ids",
      {
        questions: [
          { id: "a", prompt: "p", options: two },
          { id: "a", prompt: "q", options: two },
        ],
      },
      "duplicate_id",
      'questions[1].id: "a" is already used by questions[0]',
    ],
    [
      "default id clash",
      {
        questions: [
          { prompt: "p", options: two },
          { id: "q1", prompt: "q", options: two },
        ],
      },
      "duplicate_id",
      'questions[1].id: "q1"',
    ],
    [
      "duplicate option labels",
      { questions: [{ prompt: "p", options: [{ label: "Yes" }, { label: " yes " }] }] },
      "duplicate_option",
      'questions[0].options[1].label: " yes " repeats options[0]',
    ],
    [
      "reserved label",
      { questions: [{ prompt: "p", options: [{ label: "A" }, { label: "Other" }] }] },
      "reserved_label",
      'questions[0].options[1].label: "Other" is reserved',
    ],
    [
      "single shape with bad type",
      { question: "p", options: two, type: "many" },
      "invalid_arguments",
      'Invalid arguments: type: must be one of "single", "multi"',
    ],
    [
      "single shape with a type that is not a string",
      { question: "p", options: two, type: true },
      "invalid_arguments",
      'Invalid arguments: type: must be one of "single", "multi"',
    ],
    [
      "single shape with an empty question",
      { question: "", options: two },
      "invalid_arguments",
      "question: must not be empty",
    ],
    [
      "single shape without options",
      { question: "p" },
      "too_few_options",
      "options: 0 options, a choice needs at least 1",
    ],
    [
      "single shape with a reserved label",
      { question: "p", options: [{ label: "A" }, { label: "Other" }] },
      "reserved_label",
      'options[1].label: "Other" is reserved',
    ],
    [
      "single shape with an unknown property",
      { question: "p", options: two, colour: "red" },
      "invalid_arguments",
      'Invalid arguments: arguments: unknown property "colour"',
    ],
    [
      "single shape with a flag of the wrong type",
      { question: "p", options: two, allowOther: "no" },
      "invalid_arguments",
      "Invalid arguments: allowOther: must be boolean",
    ],
  ])("%s", (_name, args, category, message) => {
    const checked = checkQuestionArgs(args);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.error.category).toBe(category);
    expect(checked.error.message).toContain(message);
    // A field of the single-question shape is never named by where it was folded to.
    if (typeof args === "object" && "question" in args)
      expect(checked.error.message).not.toMatch(/questions|multiple|prompt/);
  });

  it("reports several problems at once", () => {
    const checked = checkQuestionArgs({ questions: [{ prompt: 1, options: "x" }] });
    expect(!checked.ok && checked.error.message).toMatch(
      /questions\[0\]\.prompt: must be string; questions\[0\]\.options: must be array/,
    );
  });
});

describe("normalization", () => {
  it("applies defaults: ids, labels, allowOther on, single-select, required", () => {
    const checked = checkQuestionArgs({
      questions: [
        { prompt: "a\r\nb", options: [{ label: "x\ry" }] },
        { id: "size", label: "Size", prompt: "c", options: two, allowOther: false, multiple: true },
      ],
    });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const spec = normalizeForm(checked.value);
    expect(spec.questions.map((q) => [q.id, q.label, q.kind, q.allowOther, q.required])).toEqual([
      ["q1", "Q1", "single", true, true],
      ["size", "Size", "multi", false, true],
    ]);
    expect(spec.questions[0].prompt).toBe("a\nb");
    expect(spec.questions[0].options[0]).toEqual({ label: "x\ny", value: "x\ny" });
  });

  it("folds the single-question shape", () => {
    expect(foldSingleQuestion({ question: "Which?", options: two, allowOther: false, type: "multi" }).args).toEqual({
      questions: [{ prompt: "Which?", options: two, allowOther: false, multiple: true }],
      compat: "single-question",
    });
    expect(foldSingleQuestion({ questions: [] })).toEqual({ args: { questions: [] }, aliases: [] });
  });
});

describe("Pi's own tool-argument validation accepts the schema", () => {
  const tool = { name: "question", description: "", parameters: QuestionParameters as never };
  const call = (args: unknown) => ({
    type: "toolCall" as const,
    id: "1",
    name: "question",
    arguments: args as JsonObject,
  });

  it("passes valid arguments, including a folded single-question call", () => {
    const args = { questions: [{ prompt: "p", options: two, multiple: true }] };
    expect(validateToolArguments(tool, call(args))).toEqual(args);
    expect(validateToolArguments(tool, call(foldSingleQuestion({ question: "p", options: two }).args))).toEqual({
      questions: [{ prompt: "p", options: two }],
      compat: "single-question",
    });
  });

  it("rejects what ajv rejects", () => {
    for (const bad of [
      {},
      { questions: [{ prompt: "", options: two }] },
      { questions: [{ prompt: "p" }] },
      { questions: [{ prompt: "p", options: two, extra: 1 }] },
    ]) {
      expect(() => validateToolArguments(tool, call(bad))).toThrow(/Validation failed for tool "question"/);
      expect(checkQuestionArgs(bad).ok).toBe(false);
    }
  });
});
