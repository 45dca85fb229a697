/**
 * Checks on a typed answer and on the size of a multi-select. Checks apply to
 * the trimmed answer; an empty one is refused when required and accepted
 * unchecked when optional; a `number` must hold exactly the value typed (no
 * digits lost past 2^53 or the 17th significant digit); `pattern` runs on RE2.
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
  /** What `pattern` asks for, in words: an answer that does not match is told this, not the expression. */
  patternText?: string;
  minimum?: number;
  maximum?: number;
  integer?: boolean;
  format?: TextFormat;
  /** Lengths count code points, as JSON Schema does (schema forms); otherwise grapheme clusters. */
  codePoints?: boolean;
}

export const DEFAULT_TEXT_RULE: TextRule = { type: "text", required: true };

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
// Each part starts with a character the part before it cannot take (".", "e"), so a backtracking
// engine gives a digit back at most once: linear in the length, however many digits are pasted.
const NUMBER = /^([-+]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([-+]?\d+))?$/;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]);
}

let graphemes: Intl.Segmenter | undefined;

/** Counting stops past `limit`: a pasted megabyte is not counted to the end to learn it is too long. */
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

/** A decimal's exact value: `1.50e1` and `15` are both `15e0`; undefined when not a number. */
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

/** `9007199254740993` or `0.1000000000000000000001` would come back as another number: refused. */
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

export function numberOf(raw: string): number | undefined {
  const reading = readNumber(raw);
  return reading.ok ? reading.value : undefined;
}

/** `1e1` reads as `10`, `+5` as `5`; undefined where the answer is the number as written. */
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

function patternProblem(rule: TextRule): string {
  const words = rule.patternText?.replace(/\s+/g, " ").trim().slice(0, 300);
  if (words) return `Not in the form asked for: ${/[.!?]$/.test(words) ? words : `${words}.`}`;
  return `Not in the form asked for (the pattern ${rule.pattern}).`;
}

/** In a fixed order; empty when the answer is acceptable. */
export function textProblems(rule: TextRule, raw: string): string[] {
  const text = raw.trim();
  if (text === "") return rule.required ? ["An answer is required."] : [];
  const problems: string[] = [];
  const bound = 2 * Math.max(rule.minLength ?? 0, rule.maxLength ?? 0) + 100;
  const length = rule.minLength !== undefined || rule.maxLength !== undefined ? answerLength(rule, text, bound) : 0;
  const now = length > bound ? `over ${bound}` : String(length);
  if (rule.minLength !== undefined && length < rule.minLength)
    problems.push(`At least ${rule.minLength} characters (now ${now}).`);
  if (rule.maxLength !== undefined && length > rule.maxLength)
    problems.push(`At most ${rule.maxLength} characters (now ${now}).`);
  if (rule.type === "number") problems.push(...numberProblems(rule, text));
  if (rule.type === "email" && !EMAIL.test(text)) problems.push(FORMAT_PROBLEMS.email);
  if (rule.type === "date" && !isIsoDate(text)) problems.push(FORMAT_PROBLEMS.date);
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

export interface CountRule {
  min: number;
  max?: number;
}

export interface SelectionQuestion {
  required: boolean;
  count?: CountRule;
}

export function selectionAccepted(q: SelectionQuestion, picks: Picks): boolean {
  const n = picks.options.length + picks.custom.length;
  if (n === 0) return !q.required || q.count?.min === 0;
  const min = q.count?.min ?? 1;
  const max = q.count?.max ?? Number.POSITIVE_INFINITY;
  return n >= min && n <= max;
}

/** Every option picked, or none when all are; typed choices stay. */
export function allOrNone(q: { options: readonly unknown[] }, picks: Picks): Picks {
  return { options: picks.options.length === q.options.length ? [] : q.options.map((_, i) => i), custom: picks.custom };
}

/** The options not picked picked; typed choices stay. */
export function inverted(q: { options: readonly unknown[] }, picks: Picks): Picks {
  return { options: q.options.map((_, i) => i).filter((i) => !picks.options.includes(i)), custom: picks.custom };
}

/** Typed choices count towards the largest count too. */
export function withinMax(q: SelectionQuestion, picks: Picks): boolean {
  return picks.options.length + picks.custom.length <= (q.count?.max ?? Number.POSITIVE_INFINITY);
}

export function selectionAnswers(q: SelectionQuestion, picks: Picks): boolean {
  return picks.options.length + picks.custom.length > 0 && selectionAccepted(q, picks);
}

/** `at least one`, `2 to 4`, `up to 3`; empty when any number will do. */
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

export function countHint(q: SelectionQuestion): string {
  const phrase = countPhrase(q);
  return phrase ? ` (${phrase})` : "";
}
