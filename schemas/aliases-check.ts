/** Errors named as the model wrote the fields (the engine's; the folds are schemas/aliases.ts). */
import { type Alias, applyFolds, type Fold, takeAliases } from "./aliases.js";
import type { Checked } from "./validate.js";

/** A check that accepts the folded shapes and names every field of an error as it was written. */
export function checkAsWritten<T>(check: (raw: unknown) => Checked<T>, ...folds: Fold[]): (raw: unknown) => Checked<T> {
  return (raw) => {
    const carried = takeAliases(raw);
    const { args, layers } = applyFolds(carried.args, folds);
    const checked = check(args);
    if (checked.ok) return checked;
    const message = writtenPaths(checked.error.message, [...carried.layers, ...layers]);
    return { ok: false, error: { ...checked.error, message } };
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Rewrite the field paths in an error message through the layers of aliases, the last layer first. */
export function writtenPaths(message: string, layers: readonly Alias[][]): string {
  let out = message;
  for (const layer of [...layers].reverse()) {
    const written = new Map(layer);
    const alternatives = [...written.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    // A path starts a message, follows a space or a bracket, and ends at a separator or its own sub-path.
    const path = new RegExp(`(^|[\\s(])(${alternatives.join("|")})(?:(\\.)(?=[A-Za-z_])|(?=$|[.[:\\s,;)]))`, "g");
    out = out.replace(path, (_m, before: string, folded: string, dot: string | undefined) => {
      const to = written.get(folded) ?? folded;
      if (to === "") return before + (dot ? "" : "arguments");
      return before + to + (dot ?? "");
    });
  }
  return out;
}
