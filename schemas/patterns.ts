/**
 * Regular expressions written by the model, made safe.
 *
 * Contract: patterns run on RE2 (re2js), whose matching time is linear in the
 * input, so no pattern can freeze Pi; syntax RE2 does not support
 * (backreferences, lookaround) and patterns longer than `MAX_PATTERN` are
 * rejected with a reason instead of being run.
 */
import { createRequire } from "node:module";
import type { RE2JS as RE2JSType } from "re2js";

// Loaded on the first pattern, not when the extension loads.
const require = createRequire(import.meta.url);
let engine: typeof RE2JSType | undefined;
const re2 = (): typeof RE2JSType => (engine ??= (require("re2js") as typeof import("re2js")).RE2JS);

export const MAX_PATTERN = 1000;

export interface SafePattern {
  source: string;
  test(text: string): boolean;
}

export type PatternResult = { ok: true; pattern: SafePattern } | { ok: false; reason: string };

const cache = new Map<string, PatternResult>();

/** Compile a pattern; `caseInsensitive` for `matches` conditions. */
export function compilePattern(source: string, caseInsensitive = false): PatternResult {
  const key = `${caseInsensitive ? "i" : "-"}${source}`;
  const known = cache.get(key);
  if (known) return known;
  let result: PatternResult;
  if (source.length > MAX_PATTERN) {
    result = { ok: false, reason: `pattern is longer than ${MAX_PATTERN} characters` };
  } else {
    try {
      const RE2JS = re2();
      const re = RE2JS.compile(source, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
      result = { ok: true, pattern: { source, test: (text) => re.matcher(text).find() } };
    } catch (error) {
      const message = (error as Error).message.replace(/^error parsing regexp: /, "");
      result = { ok: false, reason: `unsupported or invalid regular expression (${message})` };
    }
  }
  if (cache.size > 500) cache.clear();
  cache.set(key, result);
  return result;
}
