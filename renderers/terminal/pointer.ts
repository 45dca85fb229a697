/** What the mouse asks of an open form, worked out from the frame last drawn. */
import type { FormEvent } from "../../machines/context.js";
import { shownQuestions } from "../../machines/context.js";
import { discarding, type FormSnapshot } from "../../machines/position.js";
import type { FormSpec } from "../../machines/spec.js";
import type { KeyContext } from "./keymap.js";
import { clickEvents, type DrawnScreen, locate, type MouseReport, targetAt } from "./mouse.js";
import type { Screen } from "./view.js";

/** A wheel turn (up is -1), or a left click at a line and column of the frame (-1, -1: off it). */
export type PointerAction = { kind: "wheel"; delta: number } | { kind: "click"; line: number; col: number };

/** A pressed report's action; on the discard question the wheel goes back like any click. */
export function reportAction(
  report: MouseReport,
  onDiscard: boolean,
  drawn: Screen | undefined,
  host: DrawnScreen,
): PointerAction | undefined {
  if (report.button === 64 || report.button === 65) {
    if (onDiscard) return { kind: "click", line: -1, col: -1 };
    return { kind: "wheel", delta: report.button === 64 ? -1 : 1 };
  }
  if (report.button !== 0) return undefined;
  const where = drawn && locate(host, drawn.lines);
  // Off the form's lines a click still answers the discard question (it goes back).
  if (where) return { kind: "click", line: report.y - 1 - where.row, col: report.x - 1 - where.col };
  return { kind: "click", line: -1, col: -1 };
}

export function clickEventsAt(
  spec: FormSpec,
  keys: KeyContext,
  snapshot: FormSnapshot,
  drawn: { snapshot: unknown; screen: Screen } | undefined,
  line: number,
  col: number,
): FormEvent[] {
  const { position } = keys;
  if (discarding(position)) return [{ type: "RESUME" }];
  // A click after a key changed the form, before it is drawn again, landed on what is gone.
  if (!drawn || drawn.snapshot !== snapshot) return [];
  const target = targetAt(drawn.screen, line, col);
  if (!target) return [];
  return clickEvents(target, position, { shown: shownQuestions(spec, keys.context) });
}
