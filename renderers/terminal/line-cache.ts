/**
 * The lines forms keep between frames, per spec and per look (`linesOf`): a
 * key changes one or two lines, and the rest are neither drawn again nor
 * garbage. Pi's theme is one object whose colours change in place, so the
 * look is what the theme draws, never its identity.
 */
import { memoizeOne } from "../../machines/memo.js";
import type { FormSpec, QuestionSpec } from "../../machines/spec.js";
import { keep } from "../text.js";
import type { FormColor, FormTheme } from "../theme.js";
import type { Block, Hit } from "./frame.js";
import type { RowModel } from "./presentation.js";

export interface DrawnRow {
  row: RowModel;
  width: number;
  previewUnder: boolean;
  block: Block;
  /** The `QuestionRows.answers` it was drawn or checked under. */
  answers: object;
}

export class QuestionRows {
  readonly slots = new Map<number, DrawnRow>();
  /** A new object whenever the inputs change: a row drawn or checked under it is still what it shows. */
  answers: object = {};
  width = 0;
  previewUnder = false;

  // The context replaces its parts when it changes them (never in place), so identity is enough.
  private readonly token = memoizeOne(
    (
      _picks: object,
      _answered: boolean,
      _notes: object,
      _typed: object,
      _unsaved: string,
      _width: number,
      _under: boolean,
    ) => ({}),
  );

  follow(
    picks: object,
    answered: boolean,
    notes: object,
    typed: object,
    unsaved: string,
    width: number,
    previewUnder: boolean,
  ): void {
    this.answers = this.token(picks, answered, notes, typed, unsaved, width, previewUnder);
    this.width = width;
    this.previewUnder = previewUnder;
  }

  current(slot: number): Block | undefined {
    const drawn = this.slots.get(slot);
    return drawn && drawn.answers === this.answers ? drawn.block : undefined;
  }
}

export interface TabBar {
  lines: string[];
  hits: Hit[];
}

/** Past this many lines kept by text key, the cache starts again (a form resized many times). */
const MAX_KEYED = 256;

export class LineCache {
  private readonly rows = new Map<QuestionSpec, QuestionRows>();
  private readonly keyed = new Map<string, unknown>();

  /** The tab bar, while the answers, the selections, the active tab and the width are the same objects. */
  readonly tabs = memoizeOne(
    (_answered: object, _picks: object, _active: number, _width: number, draw: () => TabBar) => draw(),
    (next, last) => next[0] === last[0] && next[1] === last[1] && next[2] === last[2] && next[3] === last[3],
  );

  rowsOf(q: QuestionSpec): QuestionRows {
    return keep(this.rows, q, () => new QuestionRows());
  }

  /** What `draw()` gives for `key` (the whole of what it shows), drawn once until `clear()`. */
  lines<T>(key: string, draw: () => T): T {
    return keep(this.keyed, key, draw, MAX_KEYED) as T;
  }

  clear(): void {
    this.rows.clear();
    this.keyed.clear();
    this.tabs.clear();
  }
}

export function themeLook(theme: FormTheme): string {
  let look = `${theme.bg("selectedBg", "·")}${theme.bold("·")}`;
  for (const color of COLORS) look += theme.fg(color, "·");
  return look;
}

const COLORS: readonly FormColor[] = ["accent", "muted", "dim", "text", "success", "warning", "error", "borderMuted"];

const shared = new WeakMap<FormSpec, Map<string, LineCache>>();
/** A theme switched back and forth, or forms with other key names or notices. */
const LOOKS_PER_SPEC = 4;

/**
 * The lines of every form of `spec` drawn the same way (`look`: the theme,
 * the key names, the notice): a form asked again draws nothing the one
 * before drew. Everything else a line shows is in its own key; specs never change.
 */
export function linesOf(spec: FormSpec, look: string): LineCache {
  const byLook = shared.get(spec) ?? new Map<string, LineCache>();
  shared.set(spec, byLook);
  return keep(byLook, look, () => new LineCache(), LOOKS_PER_SPEC);
}

/** A row's slot: highlighted and not apart, so ↑/↓ moves between blocks drawn before. */
export const rowSlot = (row: number, highlighted: boolean) => 2 * row + (highlighted ? 1 : 0);
