/**
 * Regular expressions written by the model, made safe. RE2 (re2js) matches
 * in time of text length × program size, so both are bounded and no pattern
 * can freeze Pi: a pattern over `MAX_PATTERN` characters, `MAX_REPEAT` counts
 * or `MAX_PROGRAM` instructions is refused, and a text is run only while
 * length × size stays within `CHECK_BUDGET` (longer: "too long to check").
 */
import { createRequire } from "node:module";
import type { RE2JS as RE2JSType } from "re2js";

const require = createRequire(import.meta.url);
let engine: typeof RE2JSType | undefined;
const re2 = (): typeof RE2JSType => (engine ??= (require("re2js") as typeof import("re2js")).RE2JS);

export const MAX_PATTERN = 1000;
export const MAX_REPEAT = 100;
export const MAX_PROGRAM = 300;
/** A few tens of milliseconds where every instruction stays busy at every character. */
export const CHECK_BUDGET = 500_000;

export interface SafePattern {
  source: string;
  /** Undefined when `text` is too long to check. */
  test(text: string): boolean | undefined;
  /** In UTF-16 code units. */
  maxText(): number;
}

export type PatternResult = { ok: true; pattern: SafePattern } | { ok: false; reason: string };

const cache = new Map<string, PatternResult>();

/** A counted repetition over `MAX_REPEAT` as written (`{1000}`), read past escapes, `\Q…\E` and classes. */
function tooLargeRepeat(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") {
      const next = source[i + 1];
      if (next === "Q") {
        const end = source.indexOf("\\E", i + 2);
        i = end < 0 ? source.length : end + 1;
      } else if ((next === "x" || next === "p" || next === "P") && source[i + 2] === "{") {
        // \x{10FFFF}, \p{Greek}: braces that are no repetition.
        const end = source.indexOf("}", i + 3);
        i = end < 0 ? source.length : end;
      } else i++;
      continue;
    }
    if (inClass) {
      if (ch === "[" && source[i + 1] === ":") {
        const end = source.indexOf(":]", i + 2);
        if (end >= 0) i = end + 1;
      } else if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      // A "]" first in a class (after "[" or "[^") is a literal.
      if (source[i + 1] === "^") i++;
      if (source[i + 1] === "]") i++;
      continue;
    }
    if (ch !== "{") continue;
    const m = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i, i + 24));
    if (!m) continue;
    const largest = Math.max(Number(m[1]), m[2] ? Number(m[2]) : 0);
    if (largest > MAX_REPEAT) return m[0];
    i += m[0].length - 1;
  }
  return undefined;
}

export function compilePattern(source: string, caseInsensitive = false): PatternResult {
  const key = `${caseInsensitive ? "i" : "-"}${source}`;
  const known = cache.get(key);
  if (known) return known;
  const result = compileUncached(source, caseInsensitive);
  if (cache.size > 500) cache.clear();
  cache.set(key, result);
  return result;
}

function compileUncached(source: string, caseInsensitive: boolean): PatternResult {
  if (source.length > MAX_PATTERN) return { ok: false, reason: `pattern is longer than ${MAX_PATTERN} characters` };
  const repeat = tooLargeRepeat(source);
  if (repeat !== undefined)
    return {
      ok: false,
      reason: `the counted repetition ${repeat} repeats more than ${MAX_REPEAT} times (minLength and maxLength bound a length)`,
    };
  let re: RE2JSType;
  try {
    const RE2JS = re2();
    re = RE2JS.compile(source, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const message = (error as Error).message.replace(/^error parsing regexp: /, "");
    return { ok: false, reason: `unsupported or invalid regular expression (${message})` };
  }
  const size = re.programSize();
  if (size > MAX_PROGRAM)
    return {
      ok: false,
      reason: `pattern compiles to ${size} RE2 instructions, more than the ${MAX_PROGRAM} a check may take (fewer or smaller counted repetitions)`,
    };
  return { ok: true, pattern: safePattern(source, re, size) };
}

/** The texts one keystroke checks again (the view, the guards, the result) run once. */
const KEPT_RESULTS = 4;
let runs = 0;

/** Runs not answered from kept results: for benchmarks and tests. */
export function patternRuns(): number {
  return runs;
}

function safePattern(source: string, re: RE2JSType, size: number): SafePattern {
  const longest = Math.floor(CHECK_BUDGET / Math.max(1, size));
  const results = new Map<string, boolean>();
  return {
    source,
    maxText: () => longest,
    test(text) {
      if (text.length > longest) return undefined;
      const known = results.get(text);
      if (known !== undefined) return known;
      // The matcher's engines (one-pass, bounded backtracking, NFA) take time bounded by text × program;
      // the DFA `test` uses is faster on most patterns but several times slower where its states run out.
      const found = re.matcher(text).find();
      runs++;
      if (results.size >= KEPT_RESULTS) results.delete(results.keys().next().value as string);
      results.set(text, found);
      return found;
    },
  };
}
