/**
 * The branch-condition vocabulary: what a `when` may say. A string condition
 * is `field_id operator value`, an object `{field, operator = "equals",
 * value}`, an array means all must hold. The parser is
 * schemas/conditions-check.ts, evaluation machines/conditions.ts.
 */
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

export interface Condition {
  /** Id of an earlier question. */
  field: string;
  operator: Operator;
  /** Absent for `is_empty` / `is_not_empty`; a list for `in`. */
  value?: string | string[];
}

/** A condition as the model may write it. */
export type RawCondition = string | { field: string; operator?: string; value?: unknown };
export type RawWhen = RawCondition | RawCondition[];

/** `a, b, c` → `["a", "b", "c"]` */
export function splitList(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
