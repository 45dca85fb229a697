/**
 * Checks on an answer: a typed answer (`question_input`, text questions,
 * form fields) and the size of a multi-select.
 *
 * Contract: checks apply to the trimmed answer; an empty answer is refused
 * when required and accepted (with no further checks) when optional;
 * `number` needs a finite number, within `minimum`…`maximum` (inclusive)
 * and whole when `integer`; `email` a basic `name@domain.tld` shape,
 * `date` a real ISO calendar date `YYYY-MM-DD`; a `format` is judged as
 * ajv-formats judges it; `pattern` runs on RE2. A multi-select with a count
 * accepts Enter only with `min`…`max` choices (none at all when the question
 * is optional); without one, at least one choice unless optional.
 */
import { FORMAT_PROBLEMS, hasFormat, type TextFormat } from "../schemas/formats.js";
import { compilePattern } from "../schemas/patterns.js";
import type { Picks } from "./rows.js";

export type TextType = "text" | "number" | "email" | "date";
export type { TextFormat } from "../schemas/formats.js";

export interface TextRule {
  type: TextType;
  required: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** Smallest number accepted (`number` answers). */
  minimum?: number;
  /** Largest number accepted (`number` answers). */
  maximum?: number;
  /** Only whole numbers (`number` answers). */
  integer?: boolean;
  /** A JSON Schema string format the answer must have. */
  format?: TextFormat;
  /**
   * Lengths count Unicode code points, as JSON Schema's `minLength`/`maxLength`
   * do (schema forms, whose answers are checked against the schema). Otherwise
   * they count what a person sees as one character (grapheme clusters: a flag,
   * an accented letter written as two code points).
   */
  codePoints?: boolean;
}

export const DEFAULT_TEXT_RULE: TextRule = { type: "text", required: true };

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real date of the proleptic Gregorian calendar, years 0000–9999 as ISO 8601 writes them. */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]);
}

let graphemes: Intl.Segmenter | undefined;

/**
 * How long an answer is: in characters as a person sees them, or in code
 * points where the rule says so. Counting stops past `limit` (a pasted
 * megabyte is not counted to the end to learn it is too long).
 */
function answerLength(rule: TextRule, text: string, limit = Number.POSITIVE_INFINITY): number {
  if (rule.codePoints) {
    let n = 0;
    for (const _char of text) if (++n > limit) break;
    return n;
  }
  // Only text with combining marks, joiners or regional indicators can differ from its code points.
  if (/^[\u0000-\u02ff]*$/.test(text)) return text.length;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  let n = 0;
  for (const _cluster of graphemes.segment(text)) if (++n > limit) break;
  return n;
}

/** The number a `number` answer stands for, or undefined when it is not a finite number. */
export function numberOf(raw: string): number | undefined {
  const text = raw.trim();
  if (!NUMBER.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function numberProblems(rule: TextRule, text: string): string[] {
  const n = numberOf(text);
  if (n === undefined) return ["Must be a number."];
  const problems: string[] = [];
  if (rule.integer && !Number.isInteger(n)) problems.push("Must be a whole number.");
  if (rule.minimum !== undefined && n < rule.minimum) problems.push(`Must be at least ${rule.minimum}.`);
  if (rule.maximum !== undefined && n > rule.maximum) problems.push(`Must be at most ${rule.maximum}.`);
  return problems;
}

/** Every problem with `raw`, in a fixed order; empty when the answer is acceptable. */
export function textProblems(rule: TextRule, raw: string): string[] {
  const text = raw.trim();
  if (text === "") return rule.required ? ["An answer is required."] : [];
  const problems: string[] = [];
  // Counted far enough to say how long it is, not to the end of a pasted megabyte.
  const bound = 2 * Math.max(rule.minLength ?? 0, rule.maxLength ?? 0) + 100;
  const length = rule.minLength !== undefined || rule.maxLength !== undefined ? answerLength(rule, text, bound) : 0;
  const now = length > bound ? `over ${bound}` : String(length);
  if (rule.minLength !== undefined && length < rule.minLength)
    problems.push(`At least ${rule.minLength} characters (now ${now}).`);
  if (rule.maxLength !== undefined && length > rule.maxLength)
    problems.push(`At most ${rule.maxLength} characters (now ${now}).`);
  if (rule.type === "number") problems.push(...numberProblems(rule, text));
  if (rule.type === "email" && !EMAIL.test(text)) problems.push("Must be an email address like name@example.com.");
  if (rule.type === "date" && !isIsoDate(text)) problems.push("Must be a calendar date as YYYY-MM-DD.");
  if (rule.format !== undefined && !hasFormat(rule.format, text)) problems.push(FORMAT_PROBLEMS[rule.format]);
  if (rule.pattern !== undefined) {
    const compiled = compilePattern(rule.pattern);
    if (!compiled.ok) problems.push(`The pattern cannot be used: ${compiled.reason}.`);
    else if (!compiled.pattern.test(text)) problems.push(`Must match the pattern ${rule.pattern}.`);
  }
  return problems;
}

/** How many choices a multi-select takes: `min`…`max`, inclusive. */
export interface CountRule {
  min: number;
  max?: number;
}

/** What a selection rule reads of a question. */
export interface SelectionQuestion {
  required: boolean;
  count?: CountRule;
}

/** Whether a multi-select may be confirmed with these choices. */
export function selectionAccepted(q: SelectionQuestion, picks: Picks): boolean {
  const n = picks.options.length + picks.custom.length;
  if (n === 0) return !q.required || q.count?.min === 0;
  const min = q.count?.min ?? 1;
  const max = q.count?.max ?? Number.POSITIVE_INFINITY;
  return n >= min && n <= max;
}

/** Whether a selection counts as an answer: something chosen, and as many as the rule allows. */
export function selectionAnswers(q: SelectionQuestion, picks: Picks): boolean {
  return picks.options.length + picks.custom.length > 0 && selectionAccepted(q, picks);
}

/** `at least one`, `2 to 4`, `up to 3`: how many choices a multi-select takes, in words; empty when any number will do. */
export function countPhrase(q: SelectionQuestion): string {
  const count = q.count;
  if (!count) return q.required ? "at least one" : "";
  const min = count.min;
  const max = count.max;
  if (max !== undefined && min === max) return `exactly ${min}`;
  if (max !== undefined && min > 0) return `${min} to ${max}`;
  if (max !== undefined) return `up to ${max}`;
  return min > 0 ? `at least ${min}` : "";
}

/** ` (at least one)`, ` (2 to 4)`: what Enter asks of a multi-select, for the help line. */
export function countHint(q: SelectionQuestion): string {
  const phrase = countPhrase(q);
  return phrase ? ` (${phrase})` : "";
}
