/**
 * Checks on a typed answer (`question_input`, text questions).
 *
 * Contract: checks apply to the trimmed answer; an empty answer is refused
 * when required and accepted (with no further checks) when optional;
 * `number` needs a finite number, `email` a basic `name@domain.tld` shape,
 * `date` a real ISO calendar date `YYYY-MM-DD`; `pattern` runs on RE2.
 */
import { compilePattern } from "../schemas/patterns.js";

export type TextType = "text" | "number" | "email" | "date";

export interface TextRule {
  type: TextType;
  required: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export const DEFAULT_TEXT_RULE: TextRule = { type: "text", required: true };

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

/** Every problem with `raw`, in a fixed order; empty when the answer is acceptable. */
export function textProblems(rule: TextRule, raw: string): string[] {
  const text = raw.trim();
  if (text === "") return rule.required ? ["An answer is required."] : [];
  const problems: string[] = [];
  const length = [...text].length;
  if (rule.minLength !== undefined && length < rule.minLength)
    problems.push(`At least ${rule.minLength} characters (now ${length}).`);
  if (rule.maxLength !== undefined && length > rule.maxLength)
    problems.push(`At most ${rule.maxLength} characters (now ${length}).`);
  if (rule.type === "number" && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
    problems.push("Must be a number.");
  if (rule.type === "email" && !EMAIL.test(text)) problems.push("Must be an email address like name@example.com.");
  if (rule.type === "date" && !isIsoDate(text)) problems.push("Must be a calendar date as YYYY-MM-DD.");
  if (rule.pattern !== undefined) {
    const compiled = compilePattern(rule.pattern);
    if (!compiled.ok) problems.push(`The pattern cannot be used: ${compiled.reason}.`);
    else if (!compiled.pattern.test(text)) problems.push(`Must match the pattern ${rule.pattern}.`);
  }
  return problems;
}
