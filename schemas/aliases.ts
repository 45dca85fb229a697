/**
 * Folds: other accepted shapes of a call rewritten into the tool's own, each
 * saying where the model wrote every field it moved, so an error names the
 * field as written (schemas/aliases-check.ts).
 *
 * Pi checks arguments after `prepareArguments` and hands `execute` a copy, so
 * the folds done there travel inside the arguments under `ALIASES_KEY` (a key
 * no schema has: Pi's lenient copy lets it through, the check takes it out).
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

/** The aliases of each fold that changed something form one layer. */
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

export function takeAliases(raw: unknown): { args: unknown; layers: Alias[][] } {
  if (!isRecord(raw) || !(ALIASES_KEY in raw)) return { args: raw, layers: [] };
  const { [ALIASES_KEY]: carried, ...args } = raw;
  const layers = Array.isArray(carried) ? carried.filter(isAliasLayer) : [];
  return { args, layers };
}

/** `prepareArguments` from folds: the folded arguments, carrying their aliases when a fold moved a field. */
export function prepareWith(...folds: Fold[]): (raw: unknown) => unknown {
  return (raw) => {
    const before = takeAliases(raw);
    const { args, layers } = applyFolds(before.args, folds);
    if (args === before.args) return raw;
    const carried = [...before.layers, ...layers];
    return isRecord(args) && carried.length ? { ...args, [ALIASES_KEY]: carried } : args;
  };
}
