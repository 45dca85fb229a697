/**
 * The lines forms keep between frames, by what they show: each row of a
 * list (highlighted and not), the question's head, the help footer, the tab
 * bar, the title and the border. A key changes one or two of them; the rest
 * are not drawn again, nor garbage to collect. The lines are kept per spec
 * and per look (`linesOf`): what the theme draws, the key names and the
 * notice; Pi's theme is one object whose colours change in place, so its
 * identity says nothing about the colours, and a form the host invalidates
 * looks its lines up again by how the theme draws now.
 */
import type { FormSpec, QuestionSpec } from "../../machines/spec.js";
import type { FormColor, FormTheme } from "../theme.js";
import type { Block } from "./frame.js";
import type { RowModel } from "./presentation.js";

/** A row's block as last drawn, with what it was drawn from. */
export interface DrawnRow {
  row: RowModel;
  width: number;
  previewUnder: boolean;
  block: Block;
  /** The answers of its question it was last drawn or checked with (`QuestionRows.answers`). */
  answers: object;
}

/**
 * What a question's rows show beside the highlight: its selection, whether it
 * is answered, the person's notes and typed choices, the width and where the
 * preview goes. The form's context replaces each of these when it changes
 * them (never in place), so while all are the same objects every row drawn
 * with them is still what it shows.
 */
export interface RowInputs {
  picks: object;
  answered: boolean;
  notes: object;
  typed: object;
  width: number;
  previewUnder: boolean;
}

/** The drawn rows of one question, by slot (`rowSlot`), and the inputs they hold for. */
export class QuestionRows {
  readonly slots = new Map<number, DrawnRow>();
  /** A new object whenever the inputs change: a row checked or drawn under it needs no new look. */
  answers: object = {};
  private inputs?: RowInputs;

  /** Take these inputs as the current ones; a change starts a new `answers`. */
  follow(inputs: RowInputs): void {
    const was = this.inputs;
    if (
      was &&
      was.picks === inputs.picks &&
      was.answered === inputs.answered &&
      was.notes === inputs.notes &&
      was.typed === inputs.typed &&
      was.width === inputs.width &&
      was.previewUnder === inputs.previewUnder
    )
      return;
    this.inputs = inputs;
    this.answers = {};
  }

  /** The width and the preview's place the rows are drawn with now. */
  inputsNow(): { width: number; previewUnder: boolean } {
    return this.inputs ?? { width: 0, previewUnder: false };
  }

  /** The block in `slot`, when it was drawn or checked under the current inputs. */
  current(slot: number): Block | undefined {
    const drawn = this.slots.get(slot);
    return drawn && drawn.answers === this.answers ? drawn.block : undefined;
  }
}

/** Past this many lines kept by text key, the cache starts again (a form resized many times). */
const MAX_KEYED = 256;

export class LineCache {
  private readonly rows = new Map<QuestionSpec, QuestionRows>();
  private readonly keyed = new Map<string, unknown>();
  private readonly last = new Map<string, { parts: readonly unknown[]; value: unknown }>();

  /** The drawn rows of one question. */
  rowsOf(q: QuestionSpec): QuestionRows {
    let drawn = this.rows.get(q);
    if (!drawn) {
      drawn = new QuestionRows();
      this.rows.set(q, drawn);
    }
    return drawn;
  }

  /** What `draw()` gives for `key` (the whole of what it shows), drawn once until `clear()`. */
  lines<T>(key: string, draw: () => T): T {
    if (this.keyed.has(key)) return this.keyed.get(key) as T;
    if (this.keyed.size >= MAX_KEYED) this.keyed.clear();
    const drawn = draw();
    this.keyed.set(key, drawn);
    return drawn;
  }

  /**
   * What `draw()` gave the last time `name` was asked for with the same parts
   * (compared as objects: the context's parts are replaced, never changed in
   * place), else `draw()`'s, kept for the next time.
   */
  latest<T>(name: string, parts: readonly unknown[], draw: () => T): T {
    const last = this.last.get(name);
    if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i]))
      return last.value as T;
    const value = draw();
    this.last.set(name, { parts, value });
    return value;
  }

  clear(): void {
    this.rows.clear();
    this.keyed.clear();
    this.last.clear();
  }
}

/** What a theme draws, as a key: Pi's theme is one object whose colours change in place. */
export function themeLook(theme: FormTheme): string {
  let look = `${theme.bg("selectedBg", "·")}${theme.bold("·")}`;
  for (const color of COLORS) look += theme.fg(color, "·");
  return look;
}

const COLORS: readonly FormColor[] = ["accent", "muted", "dim", "text", "success", "warning", "error", "borderMuted"];

/** The lines kept for each spec, by how they look; held no longer than the spec. */
const shared = new WeakMap<FormSpec, Map<string, LineCache>>();
/** Looks kept per spec: a theme switched back and forth, or forms with other key names or notices. */
const LOOKS_PER_SPEC = 4;

/**
 * The lines of every form of `spec` drawn the same way (`look`: the theme's
 * colours, the key names and the notice at the top): a form asked again
 * draws nothing the one before it drew. Everything else a line shows is in
 * its own key, and specs are never changed.
 */
export function linesOf(spec: FormSpec, look: string): LineCache {
  let byLook = shared.get(spec);
  if (!byLook) {
    byLook = new Map();
    shared.set(spec, byLook);
  }
  let cache = byLook.get(look);
  if (!cache) {
    if (byLook.size >= LOOKS_PER_SPEC) byLook.clear();
    cache = new LineCache();
    byLook.set(look, cache);
  }
  return cache;
}

/** A row's slot: highlighted and not apart, so ↑/↓ moves between blocks drawn before. */
export const rowSlot = (row: number, highlighted: boolean) => 2 * row + (highlighted ? 1 : 0);
