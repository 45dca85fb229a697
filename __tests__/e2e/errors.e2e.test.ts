/**
 * Refused arguments inside the real `pi` (print mode with JSON events):
 * Pi checks only the shape (the lenient schema), so a limit the model breaks
 * reaches the tool and comes back as `Error (<category>): …` with
 * `details.error` (and `answer: null` for the single-question shape). What
 * Pi still refuses itself, with its own text and no details: a missing
 * required field and a value of a type the field can never have.
 */
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { HOST } from "./pi-host.js";
import { runPrintPi } from "./rpc.js";

interface ToolEnd {
  toolName: string;
  isError: boolean;
  result: { content: Array<{ text: string }>; details: Record<string, unknown> };
}

const CALLS = [
  // empty options (a count)
  { name: "question", arguments: { question: "Which database?", options: [] } },
  // a wrong allowed value (enum), in the single-question shape
  { name: "question", arguments: { question: "Which database?", options: ["PostgreSQL", "SQLite"], type: "many" } },
  // a wrong allowed value (enum)
  { name: "question_input", arguments: { question: "When?", type: "phone" } },
  // a size limit
  { name: "question_input", arguments: { question: "x".repeat(10_001) } },
  // an unknown property
  {
    name: "questionnaire",
    arguments: { questions: [{ id: "a", prompt: "Ship?", type: "yes_no", options: [], colour: 1 }] },
  },
  // a limit the rules check
  { name: "question_throttle", arguments: { question: "On track?", options: [], cooldown: 5000 } },
  // other call shapes: a nested branch, string options
  {
    name: "question_branch",
    arguments: {
      questions: [
        { id: "a", prompt: "Deploy?", options: ["Yes", "No"] },
        { id: "b", prompt: "Where?", options: ["staging", "prod"], branch: { when: "a is Yes" } },
      ],
    },
  },
  { name: "question", arguments: { question: "Which?", options: ["A", "Other"] } },
  // still Pi's own: a missing required field, a value of an impossible type
  { name: "question_input", arguments: {} },
  { name: "questionnaire", arguments: { questions: "ship?" } },
];

describe("refused arguments in the real pi", () => {
  it("carry their category, details.error and answer: null; Pi keeps a missing field and an impossible type", async () => {
    const { model, output, code } = await runPrintPi([{ toolCalls: CALLS }, { text: "ok" }], "go", ["--mode", "json"]);
    expect(code).toBe(0);
    const ends = output
      .split("\n")
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as { type?: string } & ToolEnd];
        } catch {
          return [];
        }
      })
      .filter((event) => event.type === "tool_execution_end");
    expect(ends.map((e) => e.toolName)).toEqual(CALLS.map((c) => c.name));
    const texts = toolResults(model.requests[1]);
    expect(texts.slice(0, 8)).toEqual([
      "Error (too_few_options): options: 0 options, a choice needs at least 1",
      'Error (invalid_arguments): Invalid arguments: type: must be one of "single", "multi"',
      'Error (invalid_arguments): Invalid arguments: type: must be one of "text", "number", "email", "date"',
      "Error (invalid_arguments): Invalid arguments: question: must be at most 10000 characters",
      'Error (invalid_arguments): Invalid arguments: questions[0]: unknown property "colour"',
      "Error (invalid_arguments): Invalid arguments: cooldown: must be <= 3600",
      'Error (invalid_condition): questions[1].branch.when: unknown operator "is" (use one of equals, not_equals, contains, matches, in, is_empty, is_not_empty, gt, lt, gte, lte)',
      'Error (reserved_label): options[1]: "Other" is reserved; the form adds its own free-text row (allowOther)',
    ]);
    const categories = ends.slice(0, 8).map((end) => end.isError || end.result.details.error);
    expect(categories).toEqual([
      "too_few_options",
      ...Array(5).fill("invalid_arguments"),
      "invalid_condition",
      "reserved_label",
    ]);
    for (const single of ends.slice(0, 2))
      expect(single.result.details).toMatchObject({ answer: null, cancelled: true, outcome: "error" });
    expect(ends[2].result.details).toMatchObject({ answer: null, question: "When?" });

    // Pi's own words: 0.73 checks with ajv, 1.x with its own schema library.
    expect(texts[8]).toMatch(
      HOST.current
        ? /^Validation failed for tool "question_input":\n {2}- question: missing/
        : /^Validation failed for tool "question_input":\n {2}- question: must have required properties question/,
    );
    expect(texts[9]).toMatch(
      HOST.current
        ? /^Validation failed for tool "questionnaire":\n {2}- questions\.0: expected object, got string/
        : /^Validation failed for tool "questionnaire":\n {2}- questions: must be array/,
    );
    for (const end of ends.slice(8)) {
      expect(end.isError).toBe(true);
      expect(end.result.details).toEqual({});
    }
  });
});
