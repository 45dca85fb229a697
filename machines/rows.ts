/**
 * The rows of a question's list, in display order.
 *
 * Contract: predefined options first, then (multi-select only) the answers the
 * person typed, each a row of its own that Space unticks and ticks again
 * (`typed`: every typed choice, ticked or not, in the order it was added), then the "Type something." row
 * when free text is allowed. The cursor is a row index into this list; the
 * statechart, the view and the keymap all read rows through this one function.
 */
import type { Picks } from "./picks.js";
import type { QuestionSpec } from "./spec.js";

export type { Picks } from "./picks.js";

export type Row = { kind: "option"; index: number } | { kind: "chip"; index: number } | { kind: "other" };

/** The rows PageUp and PageDown move: in a question's list, and over the review screen's lines. */
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

/** The typed choices `custom` holds, in the order of `typed` (where a chip keeps its row). */
export function inTypedOrder(typed: readonly string[], custom: readonly string[]): string[] {
  return typed.filter((t) => custom.includes(t));
}

/** `typed` with `text` added at the end when it is not there yet. */
export function withTyped(typed: readonly string[], text: string): string[] {
  return typed.includes(text) ? [...typed] : [...typed, text];
}
