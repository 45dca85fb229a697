/**
 * Checks on an answer: a typed answer (`question_input`, text questions,
 * form fields) and the size of a multi-select.
 *
 * Contract: checks apply to the trimmed answer; an empty answer is refused
 * when required and accepted (with no further checks) when optional;
 * `number` needs a finite number that holds exactly the value typed (no
 * digits lost past 2^53 or the 17th significant digit), within `minimum`…`maximum` (inclusive)
 * and whole when `integer`; `email` a basic `name@domain.tld` shape,
 * `date` a real ISO calendar date `YYYY-MM-DD`; a `format` is judged as
 * ajv-formats judges it; `pattern` runs on RE2. A multi-select with a count
 * accepts Enter only with `min`…`max` choices (none at all when the question
 * is optional); without one, at least one choice unless optional.
 */
import { FORMAT_PROBLEMS, hasFormat, type TextFormat } from "../schemas/formats.js";
import { compilePattern } from "../schemas/patterns.js";
import type { Picks } from "./picks.js";

export type TextType = "text" | "number" | "email" | "date";
export type { TextFormat } from "../schemas/formats.js";

export interface TextRule {
  type: TextType;
  required: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /**
   * What `pattern` asks for, in words (a schema field's description or
   * title): an answer that does not match is told this, not the expression.
   */
  patternText?: string;
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
// Each part starts with a character the part before it cannot take (".", "e"), so a backtracking
// engine gives a digit back at most once: linear in the length, however many digits are pasted.
const NUMBER = /^([-+]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([-+]?\d+))?$/;

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

/**
 * A number written in decimal, as its exact value: sign, significant digits
 * and the power of ten after them (`1.50e1` and `15` are both `15e0`), or
 * undefined when the text is not a number.
 */
function exactDecimal(text: string): string | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const whole = m[2] ?? "";
  const fraction = m[3] ?? m[4] ?? "";
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  const significant = digits.replace(/0+$/, "");
  if (significant === "") return "0";
  // An exponent too long to add to exactly leaves the value infinite or zero: never the digits typed.
  const exponent = Number(m[5] ?? "0") - fraction.length + (digits.length - significant.length);
  return `${m[1] === "-" ? "-" : ""}${significant}e${exponent}`;
}

type Reading = { ok: true; value: number } | { ok: false; problem: string };

/**
 * What a `number` answer reads as: the number, when it holds exactly the
 * value typed (`1e1` is 10; `9007199254740993` or `0.1000000000000000000001`
 * would come back as another number, so they are refused).
 */
function readNumber(raw: string): Reading {
  const text = raw.trim();
  const typed = exactDecimal(text);
  if (typed === undefined) return { ok: false, problem: "Must be a number." };
  const value = Number(text);
  if (!Number.isFinite(value)) return { ok: false, problem: "Must be a number." };
  // The value as JSON (and the model) will write it, read back the same way.
  if (exactDecimal(String(value)) !== typed)
    return { ok: false, problem: `Too many digits to keep exactly: it would be read as ${value}.` };
  return { ok: true, value };
}

/** The number a `number` answer stands for, or undefined when it is not one this form accepts. */
export function numberOf(raw: string): number | undefined {
  const reading = readNumber(raw);
  return reading.ok ? reading.value : undefined;
}

/**
 * How an accepted `number` answer reads when it is written another way than
 * the number itself (`1e1` reads as `10`, `+5` as `5`); undefined otherwise.
 */
export function numberReading(rule: TextRule, raw: string): string | undefined {
  if (rule.type !== "number") return undefined;
  const reading = readNumber(raw);
  if (!reading.ok) return undefined;
  const shown = String(reading.value);
  return shown === raw.trim() ? undefined : shown;
}

function numberProblems(rule: TextRule, text: string): string[] {
  const reading = readNumber(text);
  if (!reading.ok) return [reading.problem];
  const n = reading.value;
  const problems: string[] = [];
  if (rule.integer && !Number.isInteger(n)) problems.push("Must be a whole number.");
  if (rule.minimum !== undefined && n < rule.minimum) problems.push(`Must be at least ${rule.minimum}.`);
  if (rule.maximum !== undefined && n > rule.maximum) problems.push(`Must be at most ${rule.maximum}.`);
  return problems;
}

/** An answer the pattern refuses, told in the words the author gave for it where there are some. */
function patternProblem(rule: TextRule): string {
  const words = rule.patternText?.replace(/\s+/g, " ").trim().slice(0, 300);
  if (words) return `Not in the form asked for: ${/[.!?]$/.test(words) ? words : `${words}.`}`;
  return `Not in the form asked for (the pattern ${rule.pattern}).`;
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
    else {
      const matched = compiled.pattern.test(text);
      if (matched === undefined)
        problems.push(`Too long to check against the pattern: at most ${compiled.pattern.maxText()} characters.`);
      else if (!matched) problems.push(patternProblem(rule));
    }
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
