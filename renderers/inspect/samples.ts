/**
 * What the route search types into an editor: an answer the field's rule
 * accepts and one it refuses, drawn from the rule itself (a number inside its
 * bounds, a string of an allowed length in the shape its format or pattern
 * asks for), so every rule-bound field is both satisfied and broken. The
 * guards read only whether an answer passes, so one of each is enough.
 */
import { type TextRule, textProblems } from "../../machines/text-rules.js";

/** Shapes the formats and common patterns ask for; lengths are fitted to the rule below. */
const SHAPES = [
  "Blue",
  "blue",
  "42",
  "AB-1",
  "ada@example.org",
  "2024-02-29",
  "https://example.com/page",
  "2025-11-25T14:30:00Z",
];

/** Numbers inside the bounds (a whole one when asked for), and either side of them. */
function numbers(rule: TextRule): number[] {
  const { minimum: min, maximum: max } = rule;
  const low = min ?? (max !== undefined ? Math.min(max, 0) : 42);
  const inside = rule.integer ? Math.ceil(low) : low;
  return [inside, inside + 0.5, ...(min !== undefined ? [min - 1] : []), ...(max !== undefined ? [max + 1] : [])];
}

/** The text padded with its last character to the shortest length allowed, or cut to the longest. */
function fitted(rule: TextRule, text: string): string {
  const chars = [...text];
  while (rule.minLength !== undefined && chars.length < rule.minLength) chars.push(chars.at(-1) ?? "a");
  return chars.slice(0, rule.maxLength ?? chars.length).join("");
}

export function typedSamples(rule: TextRule | undefined, placeholder?: string): string[] {
  if (!rule) return ["Blue"];
  const candidates = [...SHAPES, ...numbers(rule).map(String), ...(placeholder ? [placeholder] : [])];
  const all = [...new Set(candidates.flatMap((c) => [c, fitted(rule, c)]))].filter((c) => c.trim() !== "");
  const accepted = all.find((c) => textProblems(rule, c).length === 0);
  const refused = all.find((c) => textProblems(rule, c).length > 0);
  return [...new Set([accepted ?? "Blue", ...(refused ? [refused] : [])])];
}
