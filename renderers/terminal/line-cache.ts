/**
 * The lines an open form keeps between frames, by what they show: each row
 * of a list (highlighted and not), the question's head, the help footer and
 * the tab bar. A key changes one or two of them; the rest are not drawn
 * again, nor garbage to collect. One cache per form, so per spec and theme
 * object; `clear()` empties it when the host invalidates the form, as Pi
 * does when its theme changes (Pi's theme is one object whose colours change
 * in place, so its identity says nothing about the colours).
 */
import type { QuestionSpec } from "../../machines/spec.js";
import type { Block } from "./frame.js";
import type { RowModel } from "./presentation.js";

/** A row's block as last drawn, with what it was drawn from. */
export interface DrawnRow {
  row: RowModel;
  width: number;
  previewUnder: boolean;
  block: Block;
}

/** Past this many lines kept by text key, the cache starts again (a form resized many times). */
const MAX_KEYED = 256;

export class LineCache {
  private readonly rows = new Map<QuestionSpec, Map<number, DrawnRow>>();
  private readonly keyed = new Map<string, unknown>();

  /** The drawn rows of one question, by slot (`rowSlot`). */
  rowsOf(q: QuestionSpec): Map<number, DrawnRow> {
    let drawn = this.rows.get(q);
    if (!drawn) {
      drawn = new Map();
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

  clear(): void {
    this.rows.clear();
    this.keyed.clear();
  }
}

/** A row's slot: highlighted and not apart, so ↑/↓ moves between blocks drawn before. */
export const rowSlot = (row: RowModel) => 2 * row.row + (row.highlighted ? 1 : 0);
