/**
 * What the route search types into an editor: an answer the field's rule
 * accepts and one it refuses, drawn from the rule itself (a number inside its
 * bounds, a string of an allowed length in the shape its format or pattern
 * asks for), so every rule-bound field is both satisfied and broken: one text
 * it accepts, and for each part of the rule (a length, the range, whole
 * numbers, the format, the pattern) one only that part refuses, so the
 * review page shows each refusal. Each is judged by the chart's own check.
 */
import { createRequire } from "node:module";
import { type TextRule, textProblems } from "../../machines/text-rules.js";

const require = createRequire(import.meta.url);
// The package sets `module.exports` to the class, which its typings call the default export.
type RandExpClass = typeof import("randexp").default;

/** Shapes the formats and common patterns ask for; lengths are fitted to the rule below. */
const SHAPES = [
  "Blue",
  "blue",
  "42",
  "AB-1",
  "ada@example.org",
  "2024-02-29",
  "2024-03-14",
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

/** An RE2 pattern as a JavaScript one (`(?P<n>`, `\\A`, `\\z`, a leading `(?i)`), or undefined when JavaScript cannot read it. */
function asJavaScript(source: string): RegExp | undefined {
  const ignoreCase = source.startsWith("(?i)");
  const body = (ignoreCase ? source.slice(4) : source)
    .replaceAll("(?P<", "(?<")
    .replace(/\\A/g, "^")
    .replace(/\\z/g, "$");
  try {
    return new RegExp(body, ignoreCase ? "i" : "");
  } catch {
    return undefined;
  }
}

/**
 * Texts in a pattern's own shape, drawn by randexp from a fixed seed (the same on every run), each
 * also laid over the shapes (`^2027-` over a date: `2027-03-14`) for a rule the pattern is one part of.
 */
export function patternTexts(source: string, draws = 6): string[] {
  const pattern = asJavaScript(source);
  if (!pattern) return [];
  let seed = 0x9e3779b9;
  const RandExp = require("randexp") as RandExpClass;
  const maker = new RandExp(pattern);
  maker.max = 3;
  // mulberry32: a small seeded generator.
  maker.randInt = (from: number, to: number) => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return from + (((t ^ (t >>> 14)) >>> 0) % (to - from + 1));
  };
  const out: string[] = [];
  try {
    for (let i = 0; i < draws; i++) out.push(maker.gen());
  } catch {
    return [];
  }
  return [...new Set([...out, ...out.flatMap((text) => SHAPES.map((shape) => text + shape.slice(text.length)))])];
}

export function typedSamples(rule: TextRule | undefined, placeholder?: string): string[] {
  if (!rule) return ["Blue"];
  const candidates = [
    ...SHAPES,
    ...numbers(rule).map(String),
    ...(placeholder ? [placeholder] : []),
    ...(rule.pattern ? patternTexts(rule.pattern) : []),
  ];
  const all = [...new Set(candidates.flatMap((c) => [c, fitted(rule, c)]))].filter((c) => c.trim() !== "");
  const accepted = all.find((c) => textProblems(rule, c).length === 0);
  // The accepted text a character short of the shortest length, and one past the longest.
  const lengths = accepted
    ? [
        accepted.slice(0, Math.max(1, (rule.minLength ?? 0) - 1)),
        accepted.padEnd((rule.maxLength ?? 0) + 1, accepted.at(-1)),
      ]
    : [];
  // For each part of the rule, a text only it refuses (its problem's words, the count left out).
  const refused = new Map<string, string>();
  for (const text of [...all, ...lengths]) {
    const problems = textProblems(rule, text);
    const part = problems[0]?.replace(/ \(now .*\)/, "");
    if (problems.length === 1 && !refused.has(part)) refused.set(part, text);
  }
  const any = refused.size > 0 ? [] : all.filter((c) => textProblems(rule, c).length > 0).slice(0, 1);
  return [...new Set([accepted ?? "Blue", ...refused.values(), ...any])];
}
