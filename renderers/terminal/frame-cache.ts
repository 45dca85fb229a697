/**
 * The frames of one open form: a frame is drawn again only when what it
 * shows changed; a click reads the frame last drawn, with the snapshot it shows.
 */

import { memoizeOne } from "../../machines/memo.js";
import { type FormSnapshot, formPosition } from "../../machines/position.js";
import type { FormSpec } from "../../machines/spec.js";
import type { FormTheme } from "../theme.js";
import type { FormClocks } from "./clocks.js";
import { type LineCache, linesOf, themeLook } from "./line-cache.js";
import type { EditorRender } from "./question-blocks.js";
import { type KeyHints, type Screen, screen } from "./view.js";

export interface FrameSource {
  spec: FormSpec;
  theme: FormTheme;
  hints: KeyHints;
  notice?: string;
  clocks: FormClocks;
}

export class FormFrames {
  /** The frame last drawn, and the snapshot it shows. */
  last?: { snapshot: FormSnapshot; screen: Screen };
  private lines: LineCache;
  /** What the lines depend on beside the theme. */
  private readonly look: string;

  constructor(private readonly form: FrameSource) {
    this.look = `${JSON.stringify(form.hints)}\0${form.notice ?? ""}`;
    this.lines = linesOf(form.spec, `${themeLook(form.theme)}\0${this.look}`);
  }

  /**
   * The frame, drawn again only when an argument changed: `editorState`
   * stands for the open editor's text, cursor and focus; a clock's tick clears.
   */
  readonly frame = memoizeOne(
    (
      snapshot: FormSnapshot,
      width: number,
      height: number,
      message: string | undefined,
      editor: EditorRender | undefined,
      _editorState: string,
      targets: boolean,
    ): Screen => {
      const { spec, clocks } = this.form;
      const drawn = screen({
        spec,
        snapshot,
        theme: this.form.theme,
        width,
        height,
        editor,
        notice: this.form.notice,
        message,
        remainingMs: formPosition(snapshot).kind === "waiting" ? clocks.waitLeftMs(spec) : undefined,
        timeoutMs: clocks.answerLeftMs(spec),
        hints: this.form.hints,
        cache: this.lines,
        targets,
      });
      this.last = { snapshot, screen: drawn };
      return drawn;
    },
  );

  clear(): void {
    this.frame.clear();
    this.last = undefined;
  }

  /** The host's theme may have changed in place: the lines are looked up by how it draws now. */
  invalidate(): void {
    this.clear();
    this.lines = linesOf(this.form.spec, `${themeLook(this.form.theme)}\0${this.look}`);
  }
}
