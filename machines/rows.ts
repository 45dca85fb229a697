/**
 * The rows of a question's list: options, then (multi-select) each typed
 * choice, ticked or not, then "Type something.". The chart, the view and the
 * keymap all read rows here.
 */
import type { Picks } from "./picks.js";
import type { QuestionSpec } from "./spec.js";

export type { Picks } from "./picks.js";

export type Row = { kind: "option"; index: number } | { kind: "chip"; index: number } | { kind: "other" };

export const PAGE = 5;

export const NO_PICKS: Picks = { options: [], custom: [] };

export function rowCount(q: QuestionSpec, typed: readonly string[]): number {
  const chips = q.kind === "multi" ? typed.length : 0;
  return q.options.length + chips + (q.allowOther ? 1 : 0);
}

export function rowAt(q: QuestionSpec, typed: readonly string[], row: number): Row | undefined {
  if (row < 0) return undefined;
  if (row < q.options.length) return { kind: "option", index: row };
  const chips = q.kind === "multi" ? typed.length : 0;
  if (row < q.options.length + chips) return { kind: "chip", index: row - q.options.length };
  if (q.allowOther && row === q.options.length + chips) return { kind: "other" };
  return undefined;
}

export function isEmptyPicks(picks: Picks): boolean {
  return picks.options.length === 0 && picks.custom.length === 0;
}

export function inTypedOrder(typed: readonly string[], custom: readonly string[]): string[] {
  return typed.filter((t) => custom.includes(t));
}

export function withTyped(typed: readonly string[], text: string): string[] {
  return typed.includes(text) ? [...typed] : [...typed, text];
}
