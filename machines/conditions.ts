/**
 * Branch conditions judged on earlier answers, as qwizard's operator table
 * says. A condition on an unanswered question is false; a list means AND; a
 * multi-select satisfies one when one of its values does (`not_equals`: none).
 */
import { type Condition, splitList } from "../schemas/conditions.js";
import { compilePattern } from "../schemas/patterns.js";
import type { FormSpec, QuestionSpec } from "./spec.js";

export type { Condition } from "../schemas/conditions.js";

function asNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** A typed answer that counts as none: a person may type it where nothing is to be said. */
export const NO_RESPONSE = "(no response)";

function isEmptyValue(v: string): boolean {
  return v.trim() === "" || v.trim() === NO_RESPONSE;
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

/** Operators a multi-select meets with every value it holds (the others, with one). */
const EVERY_VALUE: ReadonlySet<Condition["operator"]> = new Set(["not_equals", "is_empty"]);

/** A condition as the model wrote it, in one line: `b2 lt -1`. */
export function conditionText(c: Condition): string {
  const value = Array.isArray(c.value) ? c.value.join(", ") : c.value;
  return [c.field, c.operator, value].filter((part) => part !== undefined).join(" ");
}

/** Operators that name the only values they hold for (`equals x`: x). */
const NAMING: ReadonlySet<Condition["operator"]> = new Set(["equals", "in"]);
const NUMERIC: ReadonlySet<Condition["operator"]> = new Set(["gt", "lt", "gte", "lte"]);
/** Operators a typed answer meets by being empty or by being anything else. */
const EMPTY_OR_OTHER: ReadonlySet<Condition["operator"]> = new Set(["not_equals", "is_empty", "is_not_empty"]);

/**
 * The answers worth trying for one typed answer, or undefined when it cannot be told: where a
 * condition names values (`equals`, `in`) only those can meet it; where every condition is
 * `not_equals` or emptiness, one no condition names and `(no response)` (an empty one is no answer); where every one is
 * a number's range, the numbers at and between their bounds; otherwise (`contains`, `matches`)
 * some text may meet anything.
 */
function typedCandidates(conditions: readonly Condition[]): string[] | undefined {
  const named = conditions.filter((c) => NAMING.has(c.operator));
  const values = (c: Condition) =>
    Array.isArray(c.value) ? c.value : c.operator === "in" ? splitList(c.value ?? "") : [c.value ?? ""];
  if (named.length > 0) return named.flatMap(values);
  // An empty typed answer leaves the question unanswered, which meets no condition; a typed `(no response)` is empty.
  if (conditions.every((c) => EMPTY_OR_OTHER.has(c.operator)))
    return [["\u0000", ...conditions.flatMap(values)].join("|"), NO_RESPONSE];
  // Ranges alone: each bound, a step either side of it, and the middle of each two (`gt 3`, `lt 4`: 3.5).
  if (conditions.every((c) => NUMERIC.has(c.operator))) {
    const bounds = conditions.map((c) => Number(c.value));
    return [...bounds.flatMap((b) => [b - 1, b, b + 1]), ...bounds.flatMap((a) => bounds.map((b) => (a + b) / 2))].map(
      String,
    );
  }
  return undefined;
}

/** Whether some answer of the question meets every condition on it. */
function meetable(question: QuestionSpec, conditions: readonly Condition[]): boolean {
  const values = question.options.map((o) => o.value);
  const typeable = question.kind === "text" || question.allowOther;
  if (question.kind !== "multi") {
    const typed = typeable ? typedCandidates(conditions) : [];
    if (typed === undefined) return true;
    return [...values, ...typed].some((v) => conditions.every((c) => holds(c, [v])));
  }
  if (typeable) return true;
  // A multi-select holds the values none of which breaks an every-value condition; each other
  // condition wants one of them.
  const kept = values.filter((v) => conditions.every((c) => !EVERY_VALUE.has(c.operator) || holds(c, [v])));
  const some = conditions.filter((c) => !EVERY_VALUE.has(c.operator));
  return some.length === 0 || some.every((c) => kept.some((v) => holds(c, [v])));
}

/**
 * The first question whose conditions no answer can meet together, so that it could never be shown:
 * a condition on a choice that takes no typed answer holds only for its options' values (`lt -1`
 * over "choice a" and "choice b", `equals true` over "Yes" and "No"). A condition reads an answer
 * only once its question is shown (a hidden one loses its answer), so that question's conditions
 * must hold too (`origin` says whose they are). A typed answer is judged as `typedCandidates` says;
 * a condition on a question switched off (`on: false`) never holds (`off`).
 */
export function unmeetableCondition(
  spec: FormSpec,
):
  | { question: number; field: QuestionSpec; conditions: Array<Condition & { origin: number }>; off?: true }
  | undefined {
  const index = (id: string) => spec.questions.findIndex((o) => o.id === id);
  for (const [k, q] of spec.questions.entries()) {
    if (q.visibility.kind !== "when") continue;
    const all: Array<Condition & { origin: number }> = [];
    const read = new Set<number>();
    const gather = (j: number) => {
      const v = spec.questions[j].visibility;
      if (v.kind !== "when") return;
      for (const c of v.conditions) {
        all.push({ ...c, origin: j });
        const field = index(c.field);
        if (field >= 0 && !read.has(field)) {
          read.add(field);
          gather(field);
        }
      }
    };
    gather(k);
    for (const j of read) {
      const field = spec.questions[j];
      const on = all.filter((c) => c.field === field.id);
      // A question switched off (`on: false`) is never shown, so never answered.
      if (field.visibility.kind === "never") return { question: k, field, conditions: on, off: true };
      if (!meetable(field, on)) return { question: k, field, conditions: on };
    }
  }
  return undefined;
}
