/**
 * Forms as another author writes them, each hand-shrunk from a real form: the routes the search
 * finds take every state, transition and condition outcome (the generated-forms test's check,
 * `missedBy` over `routesCoverage`), and every route replays on the real component with the key
 * bytes a person presses. Each fell short before: a condition met only past the ninth option,
 * and a typed answer a condition's pattern or the answer's own rule wants in a shape no fixed
 * sample has.
 */
import { describe, expect, it } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { createFormMachine } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";
import { type TextRule, textProblems } from "../machines/text-rules.js";
import { undecided } from "../renderers/inspect/boundaries.js";
import { missedBy, newCoverage } from "../renderers/inspect/coverage.js";
import { generatePaths } from "../renderers/inspect/paths.js";
import { patternTexts, typedSamples } from "../renderers/inspect/samples.js";
import { coverageTables } from "../renderers/review/coverage.js";
import { reviewModel } from "../renderers/review/page.js";
import { escapeHtml } from "../renderers/text.js";
import { compilePattern } from "../schemas/patterns.js";
import { prepareFormFile } from "../tools/engine/catalog.js";
import type { ToolCall } from "./helpers/form-arbitraries.js";
import { replaySharedSteps, routesCoverage } from "./helpers/paths.js";

function fromTool(call: ToolCall): FormSpec {
  const result = prepareFormFile(call);
  if (!result.ok) throw new Error(result.message);
  return result.form.spec;
}

const MONTHS = "January February March April May June July August September October November December".split(" ");

const cases: Array<[string, FormSpec]> = [
  [
    "a condition met only by the tenth of ten options",
    fromTool({
      tool: "question_branch",
      arguments: {
        questions: [
          { id: "a", prompt: "How many?", options: Array.from({ length: 10 }, (_, i) => String(i + 1)) },
          { id: "b", prompt: "Why ten?", options: ["Because", "Just so"], when: "a equals 10" },
        ],
      },
    }),
  ],
  [
    "twelve months, a question only for December",
    fromTool({
      tool: "question_branch",
      arguments: {
        questions: [
          { id: "month", prompt: "Which month?", options: MONTHS, allowOther: false },
          { id: "gifts", prompt: "Gifts?", options: ["Yes", "No"], when: "month equals December" },
        ],
      },
    }),
  ],
  [
    "a region typed to match ^eu-north",
    fromTool({
      tool: "question_branch",
      arguments: {
        questions: [
          { id: "region", prompt: "Which region?", options: ["us-east-1", "ap-south-1"], allowOther: true },
          { id: "north", prompt: "Which zone up north?", options: ["a", "b"], when: "region matches ^eu-north" },
        ],
      },
    }),
  ],
  [
    "a required commit hash",
    fromTool({ tool: "question_input", arguments: { question: "Which commit?", pattern: "^[0-9a-f]{7,40}$" } }),
  ],
  [
    "a required semantic version",
    fromTool({
      tool: "question_input",
      arguments: { question: "Which version?", pattern: "^\\d+\\.\\d+\\.\\d+$", maxLength: 20 },
    }),
  ],
  [
    "a required date in 2027",
    fromTool({ tool: "question_input", arguments: { question: "Which day?", type: "date", pattern: "^2027-" } }),
  ],
];

describe("routes reach what forms written by others ask", () => {
  it.each(cases)("%s: every state, transition and condition outcome, replayed with real keys", (_, spec) => {
    const machine = createFormMachine(spec) as unknown as AnyStateMachine;
    const routes = generatePaths(spec, machine);
    const missed = missedBy(machine, routesCoverage(spec, routes), spec);
    expect({ states: missed.states, transitions: missed.transitions, conditions: missed.conditions }).toEqual({
      states: [],
      transitions: [],
      conditions: [],
    });
    replaySharedSteps(spec, routes, newCoverage(), () => 60);
    expect(undecided(spec)).toEqual([]);
  });
});

describe("what the search cannot decide", () => {
  it("is said as unknown on the review page, with why, apart from what the routes cover", async () => {
    // No text of three small letters is five long; no text matches `^x[^\\s\\S]` (a character that is neither space nor not).
    const spec = fromTool({
      tool: "question_branch",
      arguments: {
        questions: [
          { id: "code", prompt: "Which code?", options: ["abc", "xyz"], allowOther: true },
          { id: "why", prompt: "Why that one?", options: ["a", "b"], when: "code matches ^x[^\\s\\S]" },
        ],
      },
    });
    const unknown = ['no answer tried for "code" meets "code matches ^x[^\\s\\S]" (on "why")'];
    expect(undecided(spec)).toEqual(unknown);
    const page = coverageTables(spec, await reviewModel({ spec }));
    expect(page).toContain(`<p class="unknown">unknown: ${escapeHtml(unknown[0])}</p>`);
    // Its question, never shown on a route, is named apart from the unknown.
    expect(page).toMatch(/<p class="missed">Not covered: <span title="form.q2">why<\/span>/);
    const input = fromTool({
      tool: "question_input",
      arguments: { question: "Code?", pattern: "^[a-z]{3}$", minLength: 5 },
    });
    expect(undecided(input)).toEqual(['no text drawn for "q1" passes its rule, so its answer is never given']);
  });
});

describe("what the search types", () => {
  it.each<[string, TextRule, string[]]>([
    [
      "a whole number from 1 to 10",
      { type: "number", minimum: 1, maximum: 10, integer: true, required: true },
      ["Must be a number.", "Must be at most 10.", "Must be a whole number.", "Must be at least 1."],
    ],
    [
      "3 to 8 small letters",
      { type: "text", minLength: 3, maxLength: 8, pattern: "^[a-z]+$", required: true },
      ["Not in the form asked for (the pattern ^[a-z]+$).", "At least 3 characters.", "At most 8 characters."],
    ],
    [
      "a date in 2027",
      { type: "date", pattern: "^2027-", required: false },
      ["Not in the form asked for (the pattern ^2027-).", "Must be a calendar date as YYYY-MM-DD."],
    ],
  ])("%s: a text the rule accepts, and for each part one only it refuses", (_, rule, parts) => {
    const [accepted, ...refused] = typedSamples(rule);
    expect(textProblems(rule, accepted)).toEqual([]);
    const problems = refused.map((text) => textProblems(rule, text));
    expect(problems.every((p) => p.length === 1)).toBe(true);
    expect(problems.map(([p]) => p.replace(/ \(now .*\)/, ""))).toEqual(parts);
  });
});

describe("what the search draws from a pattern in RE2's own syntax", () => {
  it.each([
    ["a Unicode script", "^\\p{Greek}+$"],
    ["a Unicode category, in a class and out", "^\\p{Lu}[\\p{Ll}\\d]+$"],
    ["a one-letter category", "^\\pN{2}$"],
    ["a code point range", "^[\\x{0400}-\\x{04FF}]+$"],
    ["POSIX classes", "^[[:upper:]]{2}[[:digit:]]{3}$"],
    ["a quoted literal", "^\\Qv1.2.\\E\\d+$"],
    ["flags on a group", "^(?i:ops)-\\d{2}$"],
  ])("%s (%s): a text RE2 matches", (_, source) => {
    const compiled = compilePattern(source);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(patternTexts(source).filter((text) => compiled.pattern.test(text))).not.toEqual([]);
  });
});
