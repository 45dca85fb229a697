import { describe, expect, it } from "@jest/globals";
import { type Condition, holds } from "../machines/conditions.js";
import { type TextRule, textProblems } from "../machines/text-rules.js";
import { parseWhen } from "../schemas/conditions-check.js";

describe("every operator", () => {
  it.each<[string, Condition, string[] | undefined, boolean]>([
    ["equals exact", { field: "a", operator: "equals", value: "Yes" }, ["Yes"], true],
    ["equals is case-sensitive", { field: "a", operator: "equals", value: "yes" }, ["Yes"], false],
    ["equals on a multi-select value", { field: "a", operator: "equals", value: "B" }, ["A", "B"], true],
    ["not_equals", { field: "a", operator: "not_equals", value: "Yes" }, ["No"], true],
    ["not_equals fails when any value equals", { field: "a", operator: "not_equals", value: "B" }, ["A", "B"], false],
    ["contains ignores case", { field: "a", operator: "contains", value: "PROD" }, ["production"], true],
    ["contains misses", { field: "a", operator: "contains", value: "stage" }, ["production"], false],
    ["matches ignores case", { field: "a", operator: "matches", value: "^prod(uction)?$" }, ["PRODUCTION"], true],
    ["matches misses", { field: "a", operator: "matches", value: "^stag" }, ["production"], false],
    ["matches with an invalid expression is false", { field: "a", operator: "matches", value: "(a" }, ["(a"], false],
    ["in a list", { field: "a", operator: "in", value: ["red", "blue"] }, ["blue"], true],
    ["in a comma-separated string", { field: "a", operator: "in", value: "red, blue" }, ["blue"], true],
    ["in is exact per item", { field: "a", operator: "in", value: ["red", "blue"] }, ["Blue"], false],
    ["is_empty on an empty selection", { field: "a", operator: "is_empty" }, [], true],
    ["is_empty on (no response)", { field: "a", operator: "is_empty" }, ["(no response)"], true],
    ["is_empty on a value", { field: "a", operator: "is_empty" }, ["x"], false],
    ["is_not_empty on a value", { field: "a", operator: "is_not_empty" }, ["x"], true],
    ["is_not_empty on blank text", { field: "a", operator: "is_not_empty" }, ["  "], false],
    ["gt", { field: "a", operator: "gt", value: "3" }, ["4"], true],
    ["gt equal is false", { field: "a", operator: "gt", value: "4" }, ["4"], false],
    ["gte", { field: "a", operator: "gte", value: "4" }, ["4"], true],
    ["lt", { field: "a", operator: "lt", value: "10" }, ["9.5"], true],
    ["lte", { field: "a", operator: "lte", value: "2" }, ["3"], false],
    ["numeric comparison with a non-number answer", { field: "a", operator: "gt", value: "3" }, ["many"], false],
    ["numeric comparison with a non-number value", { field: "a", operator: "lt", value: "x" }, ["1"], false],
    ["numeric comparison with an empty answer", { field: "a", operator: "lte", value: "3" }, [""], false],
  ])("%s", (_name, condition, values, expected) => {
    expect(holds(condition, values)).toBe(expected);
  });

  it.each([
    "equals",
    "not_equals",
    "contains",
    "matches",
    "in",
    "is_empty",
    "is_not_empty",
    "gt",
    "lt",
    "gte",
    "lte",
  ] as const)("%s on an unanswered question is false", (operator) => {
    expect(holds({ field: "a", operator, value: "1" }, undefined)).toBe(false);
  });
});

describe("parsing when", () => {
  const ids = ["size", "color", "me", "later"];

  it.each([
    ["size equals Large", [{ field: "size", operator: "equals", value: "Large" }]],
    ["size == Extra large", [{ field: "size", operator: "equals", value: "Extra large" }]],
    ["  size   is_empty  ", [{ field: "size", operator: "is_empty" }]],
    ["color in red, green ,blue", [{ field: "color", operator: "in", value: ["red", "green", "blue"] }]],
    ["size >= 3", [{ field: "size", operator: "gte", value: "3" }]],
    ["size MATCHES ^L", [{ field: "size", operator: "matches", value: "^L" }]],
  ])("string %j", (when, expected) => {
    expect(parseWhen(when, 2, ids)).toEqual(expected);
  });

  it("objects default to equals and stringify values; arrays mean AND", () => {
    expect(parseWhen([{ field: "size", value: 3 }, "color not_equals red"], 2, ids)).toEqual([
      { field: "size", operator: "equals", value: "3" },
      { field: "color", operator: "not_equals", value: "red" },
    ]);
  });

  it.each([
    ["size", "invalid_condition", 'questions[2].when: "size" is not "field_id operator value"'],
    ["size is Large", "invalid_condition", 'questions[2].when: unknown operator "is"'],
    ["nope equals x", "invalid_condition", '"nope" is not the id of a question in this form'],
    ["me equals x", "invalid_condition", '"me" refers to the question itself'],
    ["later equals x", "invalid_condition", '"later" refers to questions[3], which comes later'],
    ["size equals", "invalid_condition", 'operator "equals" needs a value'],
    ["size gt big", "invalid_condition", 'operator "gt" compares numbers, "big" is not one'],
    ["size matches (a", "invalid_pattern", "questions[2].when: unsupported or invalid regular expression"],
    ["size matches (a)\\1", "invalid_pattern", "invalid escape sequence"],
    ["size in ,,,", "invalid_condition", 'questions[2].when: operator "in" needs at least one value in its list'],
    ["size in  , ,", "invalid_condition", 'operator "in" needs at least one value in its list'],
  ])("rejects %j", (when, category, message) => {
    const parsed = parseWhen(when, 2, ids);
    expect(parsed).toMatchObject({ category });
    expect((parsed as { message: string }).message).toContain(message);
  });
});

describe("conditions that could never hold are refused", () => {
  const ids = ["size", "color", "me"];
  it.each<[string, unknown, string]>([
    ["matches an empty list", { field: "size", operator: "matches", value: [] }, 'operator "matches" needs a value'],
    ["in an empty list", { field: "size", operator: "in", value: [] }, 'operator "in" needs a value'],
    ["in a list of blanks", { field: "size", operator: "in", value: ["", " "] }, 'operator "in" needs a value'],
    ["equals an empty list", { field: "size", value: [] }, 'operator "equals" needs a value'],
    ["equals a blank value", { field: "size", value: "   " }, 'operator "equals" needs a value'],
    ["contains nothing", { field: "size", operator: "contains", value: "" }, 'operator "contains" needs a value'],
  ])("%s", (_name, when, message) => {
    const parsed = parseWhen(when as never, 2, ids);
    expect(parsed).toEqual({ category: "invalid_condition", message: `questions[2].when: ${message}` });
  });

  it("a list with a value in it still works", () => {
    expect(parseWhen({ field: "size", operator: "in", value: ["", "L"] }, 2, ids)).toEqual([
      { field: "size", operator: "in", value: ["", "L"] },
    ]);
  });
});

describe("typed answers", () => {
  const rule = (r: Partial<TextRule>): TextRule => ({ type: "text", required: true, ...r });
  it.each<[string, Partial<TextRule>, string, string[]]>([
    ["required and empty", {}, "   ", ["An answer is required."]],
    ["optional and empty", { required: false, type: "email" }, "", []],
    ["trimmed before checks", { minLength: 3, maxLength: 3 }, "  abc  ", []],
    ["too short", { minLength: 3 }, "ab", ["At least 3 characters (now 2)."]],
    ["too long counts characters, not bytes", { maxLength: 2 }, "日本語", ["At most 2 characters (now 3)."]],
    ["number", { type: "number" }, "-12.5e3", []],
    ["not a number", { type: "number" }, "12a", ["Must be a number."]],
    ["email", { type: "email" }, "ada@example.org", []],
    ["not an email", { type: "email" }, "ada@example", ["Must be an email address like name@example.com."]],
    ["date", { type: "date" }, "2024-02-29", []],
    ["no 29 February in 2023", { type: "date" }, "2023-02-29", ["Must be a calendar date as YYYY-MM-DD."]],
    ["no month 13", { type: "date" }, "2024-13-01", ["Must be a calendar date as YYYY-MM-DD."]],
    ["not ISO", { type: "date" }, "01/02/2024", ["Must be a calendar date as YYYY-MM-DD."]],
    ["pattern", { pattern: "^[A-Z]{3}-\\d+$" }, "ABC-12", []],
    ["pattern miss", { pattern: "^[A-Z]{3}$" }, "abcd", ["Not in the form asked for (the pattern ^[A-Z]{3}$)."]],
    [
      "catastrophic pattern runs in linear time",
      { pattern: "^(a+)+$" },
      `${"a".repeat(50000)}b`,
      ["Not in the form asked for (the pattern ^(a+)+$)."],
    ],
  ])("%s", (_name, r, text, problems) => {
    expect(textProblems(rule(r), text)).toEqual(problems);
  });
});
