/**
 * Other spellings of a tool's arguments, and errors named as the model wrote them.
 *
 * Contract: a call may use another accepted shape (the single-question shape
 * of `question`, options written as plain strings, a nested `branch`); a
 * fold rewrites it into the tool's own shape and says, for every field it
 * moved, where the model wrote it. An error the check then finds names the
 * field as written (`type`, `options[1]`, `questions[1].branch.when`), never
 * the folded one (`questions[0].multiple`).
 *
 * Pi checks arguments after `prepareArguments`, and hands `execute` a copy,
 * so the folds done there travel inside the arguments, under `ALIASES_KEY` (a
 * key no schema has: Pi's lenient copy lets it through, the check takes it
 * out before ajv sees it). The check (schemas/aliases-check.ts) runs the
 * folds again (folded arguments stay as they are), then rewrites each field
 * path of an error, the last fold first.
 */
import { isRecord } from "./fields.js";

/** A field path after a fold, and the path the model wrote (`""`: the arguments themselves). */
export type Alias = readonly [folded: string, written: string];

export interface Folded {
  args: unknown;
  /** Empty when the fold changed nothing. */
  aliases: Alias[];
}

export type Fold = (raw: unknown) => Folded;

/** Where the folds done before Pi's check travel with the arguments. */
export const ALIASES_KEY = "~aliases";

function isAliasLayer(value: unknown): value is Alias[] {
  return (
    Array.isArray(value) &&
    value.every((a) => Array.isArray(a) && a.length === 2 && typeof a[0] === "string" && typeof a[1] === "string")
  );
}

/** Apply folds in order; the aliases of each fold that changed something form one layer. */
export function applyFolds(raw: unknown, folds: readonly Fold[]): { args: unknown; layers: Alias[][] } {
  let args = raw;
  const layers: Alias[][] = [];
  for (const fold of folds) {
    const folded = fold(args);
    args = folded.args;
    if (folded.aliases.length) layers.push(folded.aliases);
  }
  return { args, layers };
}

/** Arguments with the aliases of earlier folds taken out. */
export function takeAliases(raw: unknown): { args: unknown; layers: Alias[][] } {
  if (!isRecord(raw) || !(ALIASES_KEY in raw)) return { args: raw, layers: [] };
  const { [ALIASES_KEY]: carried, ...args } = raw;
  const layers = Array.isArray(carried) ? carried.filter(isAliasLayer) : [];
  return { args, layers };
}

/**
 * `prepareArguments` from folds: the folded arguments, carrying their aliases
 * when a fold moved a field (a fold that only rewrites a value in place, such
 * as a schema sent as a JSON string, has none to carry).
 */
export function prepareWith(...folds: Fold[]): (raw: unknown) => unknown {
  return (raw) => {
    const before = takeAliases(raw);
    const { args, layers } = applyFolds(before.args, folds);
    if (args === before.args) return raw;
    const carried = [...before.layers, ...layers];
    return isRecord(args) && carried.length ? { ...args, [ALIASES_KEY]: carried } : args;
  };
}
