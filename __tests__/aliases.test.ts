/**
 * Other call shapes (the single-question shape, string options, a nested
 * `branch`, `prompt` for `question`) go through the way Pi runs a tool:
 * `prepareArguments`, Pi's own check of the lenient schema, `execute`. They
 * work, and an error in one names the field as the model wrote it.
 */

import { validateToolArguments } from "@earendil-works/pi-ai";
import { beforeAll, describe, expect, it } from "@jest/globals";
import { plainTheme } from "../renderers/theme.js";
import { writtenPaths } from "../schemas/aliases-check.js";
import { createFormchart } from "../tools/index.js";
import { KEY } from "./helpers/fake-host.js";
import { fakePi, fakeUiContext, type RegisteredTool } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

let tools: Map<string, RegisteredTool>;
beforeAll(() => {
  const pi = fakePi();
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  tools = pi.tools;
});

/** What Pi does with a tool call: prepare, check the declared schema (throwing Pi's own text), execute. */
async function throughPi(name: string, raw: unknown, keys: string[] = []) {
  const tool = tools.get(name)!;
  const prepared = tool.prepareArguments ? tool.prepareArguments(raw) : raw;
  const args = validateToolArguments(
    { name, description: "", parameters: tool.parameters as never },
    { type: "toolCall", id: "1", name, arguments: prepared as never },
  );
  const { ctx, opened } = fakeUiContext((c) =>
    keys.forEach((k) => {
      c.handleInput(k);
    }),
  );
  const result = await tool.execute("1", args, undefined, undefined, ctx);
  return { text: result.content[0].text, details: result.details, opened: opened() };
}

describe("every tool has prepareArguments, renderCall and renderResult", () => {
  it.each([
    "question",
    "questionnaire",
    "question_input",
    "question_throttle",
    "question_branch",
    "ask_rich_questions",
  ])("%s", (name) => {
    const tool = tools.get(name)!;
    expect(typeof tool.prepareArguments).toBe("function");
    expect(typeof tool.renderCall).toBe("function");
    expect(typeof tool.renderResult).toBe("function");
  });
});

describe("errors name the field as the model wrote it, through Pi's check", () => {
  it.each<[string, string, unknown, string, string]>([
    [
      "a single-question type that is not single or multi",
      "question",
      { question: "Which?", options: [{ label: "A" }, { label: "B" }], type: "many" },
      "invalid_arguments",
      'Error (invalid_arguments): Invalid arguments: type: must be one of "single", "multi"',
    ],
    [
      "a single-question call without options",
      "question",
      { question: "Which?" },
      "too_few_options",
      "Error (too_few_options): options: 0 options, a choice needs at least 1",
    ],
    [
      "a reserved label written as a string",
      "question",
      { question: "Which?", options: ["A", "Other"] },
      "reserved_label",
      'Error (reserved_label): options[1]: "Other" is reserved; the form adds its own free-text row (allowOther)',
    ],
    [
      "an empty string option in a question list",
      "question",
      { questions: [{ prompt: "Which?", options: ["A", ""] }] },
      "invalid_arguments",
      "Error (invalid_arguments): Invalid arguments: questions[0].options[1]: must not be empty",
    ],
    [
      "a repeated string option",
      "questionnaire",
      { questions: [{ id: "a", prompt: "Which?", options: ["A", "a"] }] },
      "duplicate_option",
      'Error (duplicate_option): questions[0].options[1]: "a" repeats options[0]',
    ],
    [
      "a nested branch condition with an unknown operator",
      "question_branch",
      {
        questions: [
          { id: "a", prompt: "First?", options: ["A", "B"] },
          { id: "b", prompt: "Second?", options: ["C", "D"], branch: { when: "a is A" } },
        ],
      },
      "invalid_condition",
      'Error (invalid_condition): questions[1].branch.when: unknown operator "is"',
    ],
    [
      "a nested branch condition of the wrong type",
      "question_branch",
      {
        questions: [
          { id: "a", prompt: "First?", options: ["A", "B"] },
          { id: "b", prompt: "Second?", options: ["C", "D"], branch: { when: 5 } },
        ],
      },
      "invalid_arguments",
      "Error (invalid_arguments): Invalid arguments: questions[1].branch.when: must be string,object,array",
    ],
    [
      "a nested branch switch of the wrong type",
      "question_branch",
      {
        questions: [
          { id: "a", prompt: "First?", options: ["A", "B"] },
          { id: "b", prompt: "Second?", options: ["C", "D"], branch: { on: "sometimes" } },
        ],
      },
      "invalid_arguments",
      "Error (invalid_arguments): Invalid arguments: questions[1].branch.on: must be boolean",
    ],
    [
      "a branch holding something else",
      "question_branch",
      {
        questions: [
          { id: "a", prompt: "First?", options: ["A", "B"] },
          { id: "b", prompt: "Second?", options: ["C", "D"], branch: { when: "a equals A", else: "skip" } },
        ],
      },
      "invalid_arguments",
      'Error (invalid_arguments): Invalid arguments: questions[1]: unknown property "branch"',
    ],
    [
      "an empty prompt in place of question",
      "question_input",
      { prompt: "" },
      "invalid_arguments",
      "Error (invalid_arguments): Invalid arguments: prompt: must not be empty",
    ],
    [
      "a reserved label in a throttled question written with prompt",
      "question_throttle",
      { prompt: "Still on track?", options: ["Yes", "Other"] },
      "reserved_label",
      'Error (reserved_label): options[1]: "Other" is reserved',
    ],
    [
      "repeated string options in a rich form",
      "ask_rich_questions",
      { questions: [{ id: "t", prompt: "Where?", options: ["Staging", "Staging"] }] },
      "duplicate_option",
      'Error (duplicate_option): questions[0].options[1]: "Staging" repeats options[0]',
    ],
  ])("%s", async (_name, tool, raw, category, text) => {
    const r = await throughPi(tool, raw);
    expect(r.text.startsWith(text)).toBe(true);
    expect(r.details).toMatchObject({ cancelled: true, error: category });
    expect(r.opened).toBe(0);
  });

  it("the single-question shape's refusal carries answer: null", async () => {
    const r = await throughPi("question", { question: "Which?", options: ["A", "B"], type: "many" });
    expect(r.details).toMatchObject({ answer: null, cancelled: true, error: "invalid_arguments" });
  });
});

describe("the other shapes work", () => {
  it("a nested branch shows and hides like top-level when / on", async () => {
    const raw = {
      questions: [
        { id: "a", prompt: "First?", options: ["A", "B"] },
        { id: "b", prompt: "Second?", options: ["C", "D"], branch: { when: "a equals B" } },
        { id: "c", prompt: "Third?", options: ["E", "F"], branch: { on: false } },
      ],
    };
    const r = await throughPi("question_branch", raw, ["1", KEY.enter]);
    expect(r.details).toMatchObject({ cancelled: false, skipped: ["b", "c"] });
    expect(r.text).toBe("Q1: user selected: 1. A\nSkipped by conditions: b, c");
  });

  it("question_input takes prompt for question", async () => {
    const r = await throughPi("question_input", { prompt: "Your name?" }, [..."Ada", KEY.enter]);
    expect(r.details).toEqual({ question: "Your name?", answer: "Ada", cancelled: false, outcome: "answered" });
  });

  it("question_throttle takes prompt and string options", async () => {
    const r = await throughPi("question_throttle", { prompt: "On track?", options: ["Yes", "Blocked"], cooldown: 0 }, [
      "2",
    ]);
    expect(r.details).toMatchObject({ question: "On track?", options: ["Yes", "Blocked"], answer: "Blocked" });
  });
});

describe("renderCall shows every call shape as written", () => {
  const two = [{ label: "A" }, { label: "B" }];
  it.each<[string, unknown, string]>([
    ["question", { question: "Which database?", options: two, type: "multi" }, "question Which database? (2 options)"],
    ["question", { question: "Which database?", options: ["A", "B", "C"] }, "question Which database? (3 options)"],
    ["question", { question: "Which datab" }, "question Which datab"],
    ["question", { questions: [{ prompt: "Which database?", options: two }] }, "question Which database? (2 options)"],
    ["question", { questions: [{ prompt: "A?", label: "DB" }, { prompt: "B?" }] }, "question 2 questions (DB, Q2)"],
    [
      "questionnaire",
      { questions: [{ id: "ok", prompt: "Ship?", type: "yes_no", options: [] }] },
      "questionnaire Ship? (Yes/No)",
    ],
    [
      "questionnaire",
      { questions: [{ id: "s", prompt: "How good?", type: "rating" }] },
      "questionnaire How good? (rating 1-5)",
    ],
    ["question_input", { question: "Which day?", type: "date" }, "question_input Which day? (date)"],
    ["question_input", { question: "Your name?" }, "question_input Your name?"],
    ["question_input", { prompt: "Your name?" }, "question_input Your name?"],
    [
      "question_throttle",
      { question: "On track?", options: ["Yes", "No"], cooldown: 4 },
      "question_throttle On track? (2 options)",
    ],
    ["question_throttle", { prompt: "On track?", options: ["Yes", "No"] }, "question_throttle On track? (2 options)"],
    [
      "question_branch",
      {
        questions: [
          { id: "a", prompt: "A?" },
          { id: "b", label: "Why", prompt: "B?", branch: { when: "a equals x" } },
        ],
      },
      "question_branch 2 questions (a, Why)",
    ],
    [
      "ask_rich_questions",
      { title: "Deploy", questions: [{ prompt: "Where?", options: [{ label: "A" }] }] },
      "ask_rich_questions Deploy: Where? (1 option)",
    ],
    ["ask_rich_questions", { questions: [{ prompt: "Why?", type: "text" }] }, "ask_rich_questions Why?"],
    ["question", {}, "question"],
  ])("%s %j", (name, args, line) => {
    const rendered = tools.get(name)!.renderCall!(args, plainTheme, {}).render(200);
    expect(rendered.join("\n").trimEnd()).toBe(line);
  });
});

describe("rewriting field paths", () => {
  const single = [
    ["questions[0].prompt", "question"],
    ["questions[0]", ""],
  ] as const;
  const strings = [["questions[0].options[1].label", "questions[0].options[1]"]] as const;

  it("goes back through the folds, the last one first", () => {
    expect(writtenPaths('questions[0].options[1].label: "Other" is reserved', [[...single], [...strings]])).toBe(
      'options[1]: "Other" is reserved',
    );
  });

  it("rewrites every path of a list of problems, and only whole paths", () => {
    expect(
      writtenPaths(
        'Invalid arguments: questions[0].prompt: must not be empty; questions[0]: unknown property "x"; subquestions[0]: y',
        [[...single]],
      ),
    ).toBe('Invalid arguments: question: must not be empty; arguments: unknown property "x"; subquestions[0]: y');
  });
});
