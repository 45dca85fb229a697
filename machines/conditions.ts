/**
 * Branch conditions judged on earlier answers, as qwizard's operator table
 * says. A condition on an unanswered question is false; a list means AND; a
 * multi-select satisfies one when one of its values does (`not_equals`: none).
 */
import { type Condition, splitList } from "../schemas/conditions.js";
import { compilePattern } from "../schemas/patterns.js";

export type { Condition } from "../schemas/conditions.js";

function asNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function isEmptyValue(v: string): boolean {
  return v.trim() === "" || v.trim() === "(no response)";
}

/** `values`: the chosen values and typed texts, `undefined` when unanswered. */
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
      // An answer too long to check does not match.
      return compiled.ok && values.some((v) => compiled.pattern.test(v) === true);
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
