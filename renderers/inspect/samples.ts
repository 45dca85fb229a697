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
import { compilePattern } from "../../schemas/patterns.js";

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

/** Characters of many scripts and kinds, standing for a Unicode class (`\\p{Greek}`) in what randexp reads. */
const POOL = "aZéÉßøΩωЖжԱաאعहกაあア中한0٣५_-., !?$€£+×©\u0301";

/** POSIX classes as the members of a JavaScript class. */
const POSIX: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  word: "\\w",
  space: " \\t",
  blank: " \\t",
  xdigit: "0-9A-Fa-f",
  punct: "!-/:-@\\[-`{-~",
  graph: "!-~",
  print: " -~",
};

/** A character as itself in a pattern, in a class or out of one (randexp reads no `\\u` escapes). */
const literal = (c: string) => (/[\\[\]^$.*+?(){}|/-]/.test(c) ? `\\${c}` : c);

/** The pool's characters a Unicode class (`\\p{Greek}`, `\\PL`, `\\p{^Lu}`) holds, as RE2 judges them, as class members. */
function members(unicodeClass: string): string | undefined {
  const compiled = compilePattern(`^${unicodeClass}$`);
  if (!compiled.ok) return undefined;
  const chars = [...POOL].filter((c) => compiled.pattern.test(c));
  return chars.length > 0 ? chars.map(literal).join("") : undefined;
}

/**
 * An RE2 pattern as a JavaScript one randexp reads, or undefined when it cannot be read: `(?P<n>`,
 * `\\A`, `\\z`, flags (`(?i)`, `(?i:…)`: the text drawn in the case written matches), `\\Q…\\E`,
 * `\\x{…}`, POSIX classes (`[[:alpha:]]`) and Unicode classes (`\\p{Greek}`: the characters of
 * `POOL` it holds). Whatever is drawn is judged by RE2 after, so a class read narrower loses no truth.
 */
function asJavaScript(source: string): RegExp | undefined {
  let body = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const rest = source.slice(i);
    const ch = source[i];
    if (ch === "\\") {
      const quoted = /^\\Q([\s\S]*?)(?:\\E|$)/.exec(rest);
      const unicode = /^\\[pP](?:\{\^?\w+\}|\w)/.exec(rest);
      const code = /^\\x\{([0-9a-fA-F]{1,4})\}/.exec(rest);
      const anchor = { A: "^", z: "$" }[source[i + 1] as "A" | "z"];
      const part = quoted
        ? [...quoted[1]].map(literal).join("")
        : unicode
          ? members(unicode[0])
          : code
            ? literal(String.fromCharCode(Number.parseInt(code[1], 16)))
            : (anchor ?? rest.slice(0, 2));
      if (part === undefined) return undefined;
      const length = (quoted ?? unicode ?? code)?.[0].length ?? 2;
      body += unicode && !inClass ? `[${part}]` : part;
      i += length - 1;
      continue;
    }
    if (inClass) {
      const posix = /^\[:(\w+):\]/.exec(rest);
      if (posix && !POSIX[posix[1]]) return undefined;
      if (ch === "]") inClass = false;
      body += posix ? POSIX[posix[1]] : ch;
      i += posix ? posix[0].length - 1 : 0;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      // A "]" first in a class (after "[" or "[^") is a literal.
      const opening = /^\[\^?\]?/.exec(rest)?.[0] ?? ch;
      body += opening.endsWith("]") ? `${opening.slice(0, -1)}\\]` : opening;
      i += opening.length - 1;
      continue;
    }
    const flags = /^\(\?[imsU-]+([:)])/.exec(rest);
    const named = rest.startsWith("(?P<");
    body += flags ? (flags[1] === ":" ? "(?:" : "") : named ? "(?<" : ch;
    i += flags ? flags[0].length - 1 : named ? 3 : 0;
  }
  try {
    return new RegExp(body, source.startsWith("(?i)") ? "i" : "");
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
  // randexp draws a class's characters only from its printable ASCII range: add those the pattern names past it.
  for (const c of new Set(pattern.source)) if (c > "~") maker.defaultRange.add(c.charCodeAt(0));
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
