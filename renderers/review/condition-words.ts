/**
 * Conditions in the form's words, from the spec (`Size is 4 or more (4 or
 * 5)`), never the machine's guard names. A condition on a question with
 * options names the options that satisfy it when only some do; a guard the
 * key already says (a row exists, a number picks a question) is no words.
 * Plain text: the page escapes it.
 */

import { holds } from "../../machines/conditions.js";
import type { FormSpec, QuestionSpec, Visibility } from "../../machines/spec.js";
import type { Condition } from "../../schemas/conditions.js";
import type { GuardRef } from "../inspect/diagram.js";

/** A question as a reviewer knows it: its tab label, or its id when the label is only the default `Q1`. */
export function questionName(spec: FormSpec, index: number): string {
  const q = spec.questions[index];
  if (!q) return `question ${index + 1}`;
  return q.label !== `Q${index + 1}` ? q.label : q.id;
}

const short = (text: string, max = 32) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

function valueText(value: Condition["value"]): string {
  return Array.isArray(value) ? orList(value.map((v) => short(v))) : short(value ?? "");
}

function predicate(c: Condition, negated: boolean): string {
  const v = valueText(c.value);
  switch (c.operator) {
    case "equals":
      return negated ? `is not ${v}` : `is ${v}`;
    case "not_equals":
      return negated ? `is ${v}` : `is not ${v}`;
    case "contains":
      return negated ? `does not contain "${v}"` : `contains "${v}"`;
    case "matches":
      return negated ? `does not match /${v}/` : `matches /${v}/`;
    case "in": {
      const list = Array.isArray(c.value) ? c.value : (c.value ?? "").split(",").map((x) => x.trim());
      const words = orList(list.filter(Boolean).map((x) => short(x)));
      return negated ? `is not ${words}` : `is ${words}`;
    }
    case "is_empty":
      return negated ? "is answered" : "is not answered";
    case "is_not_empty":
      return negated ? "is not answered" : "is answered";
    case "gt":
      return negated ? `is ${v} or less` : `is more than ${v}`;
    case "lt":
      return negated ? `is ${v} or more` : `is less than ${v}`;
    case "gte":
      return negated ? `is less than ${v}` : `is ${v} or more`;
    case "lte":
      return negated ? `is more than ${v}` : `is ${v} or less`;
  }
}

/** The options of the referenced question that satisfy the condition (or its negation), when only some do. */
function satisfying(question: QuestionSpec | undefined, c: Condition, negated: boolean): string[] | undefined {
  if (!question || question.kind === "text" || question.options.length === 0) return undefined;
  const matching = question.options.filter((o) => holds(c, [o.value]) !== negated);
  if (matching.length === 0 || matching.length === question.options.length) return undefined;
  const labels = matching.map((o) => short(o.label, 24));
  // `Team is Platform or Payments` needs no `(Platform or Payments)`.
  const named = Array.isArray(c.value) ? c.value : (c.value ?? "").split(",").map((x) => x.trim());
  if (!negated && (c.operator === "equals" || c.operator === "in") && labels.every((l) => named.includes(l)))
    return undefined;
  return labels;
}

export function conditionWords(spec: FormSpec, c: Condition, negated = false): string {
  const index = spec.questions.findIndex((q) => q.id === c.field);
  const name = index >= 0 ? questionName(spec, index) : c.field;
  const options = satisfying(spec.questions[index], c, negated);
  // For an unanswered question every condition is false: its negation holds too.
  const unanswered = negated && c.operator !== "is_not_empty" && c.operator !== "is_empty" ? " or not answered" : "";
  return `${name} ${predicate(c, negated)}${options ? ` (${orList(options)})` : ""}${unanswered}`;
}

/** When a question is shown (all its conditions hold), or, negated, when it is hidden. */
export function conditionText(spec: FormSpec, visibility: Visibility, negated = false): string {
  if (visibility.kind === "always") return negated ? "never" : "";
  if (visibility.kind === "never") return negated ? "" : "never";
  const parts = visibility.conditions.map((c) => conditionWords(spec, c, negated));
  return negated ? parts.join(" or ") : parts.join(" and ");
}

/** "never shown" or "shown when …" for the state of a question not always shown (`q3`). */
export function shownNote(spec: FormSpec, stateId: string): string | undefined {
  const q = /^q(\d+)$/.exec(stateId);
  const question = q ? spec.questions[Number(q[1]) - 1] : undefined;
  if (!question || question.visibility.kind === "always") return undefined;
  const shown = conditionText(spec, question.visibility);
  return shown === "never" ? "never shown" : `shown when ${shown}`;
}

/** The words of the guard that sends a question's Enter back to the review. */
export const RETURNING = "coming back from the review";

/** A guard of the statechart in words, or "" when the key that sends the event says it all. */
function guardText(spec: FormSpec, guard: GuardRef, negated = false): string {
  const q = typeof guard.params?.q === "number" ? guard.params.q : -1;
  const name = q >= 0 ? questionName(spec, q) : "";
  const say = (yes: string, no: string) => (negated ? no : yes);
  switch (guard.type) {
    case "hiddenGoing":
      // Said as "skips <question>" by stepCondition; the question's own conditions say why.
      return "";
    case "returningToReview":
      // Its negation is what every other move does: it would only lengthen their conditions.
      return negated ? "" : RETURNING;
    case "canSubmit":
      if (!spec.questions.some((x) => x.required)) return "";
      return say("every required question is answered", "a required question is open");
    case "hasInput":
      return say("something was entered", "nothing was entered");
    case "hasText":
      return say("the text is not blank", "the text is blank");
    case "textAccepted":
      return say(`the answer passes ${name}'s checks`, `the answer fails ${name}'s checks`);
    case "selectionAccepted":
      return say(`${name}'s choices are within its count`, `${name}'s choices are not within its count`);
    case "draftKept":
      return say("the editor holds text", "the editor is empty");
    case "onOtherRow":
      // Not on it is on an option row, which the next guard says when it matters.
      return negated ? "" : "on the typed-answer row";
    case "reviewCursorOn":
      // The cursor on another entry is what every other line of the review does.
      return negated ? "" : `the cursor is on ${name}`;
    case "onOptionRow":
      return say("on an option row", "not on an option row");
    case "invertedFits":
      return say("inverting stays within the count", "inverting would pass the count");
    default:
      return "";
  }
}

/** A transition taken along a step: its guard and the guards before it that failed. */
export interface GuardedEdge {
  guard?: GuardRef;
  otherwise?: GuardRef[];
}

/**
 * When a step's key leads from `from` to `to`: the destination's show
 * conditions, the guards taken (and failed before them), the questions it
 * skips (`Size is less than 4 (1, 2 or 3) · skips Split`); "" when always.
 */
export function stepCondition(
  spec: FormSpec,
  taken: readonly GuardedEdge[],
  from: string,
  to: string,
  event = "",
): string {
  const phrases: string[] = [];
  const skipped: string[] = [];
  const add = (text: string) => {
    if (text && !phrases.includes(text)) phrases.push(text);
  };
  const into = /^q(\d+)\./.exec(to);
  if (into && !from.startsWith(`q${into[1]}.`)) {
    const q = spec.questions[Number(into[1]) - 1];
    if (q) add(conditionText(spec, q.visibility));
  }
  for (const edge of taken) {
    for (const g of edge.otherwise ?? []) add(guardText(spec, g, true));
    if (!edge.guard) continue;
    // A number key puts the review's cursor on its entry itself: that needs no saying.
    if (edge.guard.type === "reviewCursorOn" && event === "SELECT") continue;
    if (edge.guard.type === "hiddenGoing") {
      const q = edge.guard.params?.q;
      const name = typeof q === "number" ? questionName(spec, q) : "";
      if (name && !skipped.includes(name)) skipped.push(name);
    } else add(guardText(spec, edge.guard));
  }
  const text = phrases.length ? `when ${phrases.join("; ")}` : "";
  if (!skipped.length) return text;
  const names =
    skipped.length > 3 ? `${skipped.slice(0, 2).join(", ")} and ${skipped.length - 2} more` : skipped.join(", ");
  return `${text}${text ? " · " : ""}skips ${names}`;
}
