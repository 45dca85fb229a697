/**
 * Branch conditions: when a question is shown, judged on earlier answers.
 *
 * Contract (qwizard's operator table): `equals` / `not_equals` exact,
 * `contains` case-insensitive substring, `matches` case-insensitive regular
 * expression (RE2), `in` membership in a comma-separated list, `is_empty` /
 * `is_not_empty` on empty or "(no response)" values, `gt` `lt` `gte` `lte`
 * numeric (false when either side is not a number). A condition on an
 * unanswered question is false. A list of conditions means AND. A
 * multi-select answer satisfies a condition when one of its values does
 * (`not_equals`: when none equals).
 */
import { compilePattern } from "./patterns.js";

export const OPERATORS = [
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
] as const;

export type Operator = (typeof OPERATORS)[number];

/** Symbols accepted as spellings of operators in string conditions. */
export const OPERATOR_ALIASES: Record<string, Operator> = {
  "=": "equals",
  "==": "equals",
  "!=": "not_equals",
  ">": "gt",
  "<": "lt",
  ">=": "gte",
  "<=": "lte",
};

const UNARY: ReadonlySet<Operator> = new Set(["is_empty", "is_not_empty"]);
const NUMERIC: ReadonlySet<Operator> = new Set(["gt", "lt", "gte", "lte"]);

export interface Condition {
  /** Id of an earlier question. */
  field: string;
  operator: Operator;
  /** Absent for `is_empty` / `is_not_empty`; a list for `in`. */
  value?: string | string[];
}

export function isOperator(word: string): word is Operator {
  return (OPERATORS as readonly string[]).includes(word);
}

export function isUnary(op: Operator): boolean {
  return UNARY.has(op);
}

export function isNumeric(op: Operator): boolean {
  return NUMERIC.has(op);
}

/** `a, b, c` → `["a", "b", "c"]` */
export function splitList(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function asNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function isEmptyValue(v: string): boolean {
  return v.trim() === "" || v.trim() === "(no response)";
}

/**
 * Judge one condition. `values` is the referenced question's answer (its
 * chosen values and typed texts), or `undefined` when it is unanswered.
 */
export function holds(condition: Condition, values: readonly string[] | undefined): boolean {
  if (values === undefined) return false;
  const { operator } = condition;
  const expected = condition.value;
  const scalar = Array.isArray(expected) ? expected.join(", ") : (expected ?? "");
  switch (operator) {
    case "equals":
      return values.some((v) => v === scalar);
    case "not_equals":
      return values.every((v) => v !== scalar);
    case "contains":
      return values.some((v) => v.toLowerCase().includes(scalar.toLowerCase()));
    case "matches": {
      const compiled = compilePattern(scalar, true);
      return compiled.ok && values.some((v) => compiled.pattern.test(v));
    }
    case "in": {
      const list = Array.isArray(expected) ? expected : splitList(scalar);
      return values.some((v) => list.includes(v));
    }
    case "is_empty":
      return values.length === 0 || values.every(isEmptyValue);
    case "is_not_empty":
      return values.length > 0 && !values.every(isEmptyValue);
    default: {
      const right = asNumber(scalar);
      if (right === undefined) return false;
      return values.some((v) => {
        const left = asNumber(v);
        if (left === undefined) return false;
        if (operator === "gt") return left > right;
        if (operator === "lt") return left < right;
        if (operator === "gte") return left >= right;
        return left <= right;
      });
    }
  }
}

export function allHold(
  conditions: readonly Condition[],
  lookup: (field: string) => readonly string[] | undefined,
): boolean {
  return conditions.every((c) => holds(c, lookup(c.field)));
}
