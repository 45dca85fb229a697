/**
 * The frames of one open form: a frame is drawn again only when what it
 * shows changed; a click reads the frame last drawn, with the snapshot it shows.
 */

import { memoizeOne } from "../../machines/memo.js";
import { type FormSnapshot, formPosition } from "../../machines/position.js";
import type { FormSession } from "../../machines/session.js";
import type { FormTheme } from "../theme.js";
import { type LineCache, linesOf, themeLook } from "./line-cache.js";
import type { EditorRender } from "./question-blocks.js";
import { type KeyHints, type Screen, screen } from "./view.js";

export interface FrameSource {
  session: FormSession;
  theme: FormTheme;
  hints: KeyHints;
}

const wholeSeconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000)) * 1000;

export class FormFrames {
  /** The frame last drawn, and the snapshot it shows. */
  last?: { snapshot: FormSnapshot; screen: Screen };
  private lines: LineCache;
  /** What the lines depend on beside the theme. */
  private readonly look: string;

  constructor(private readonly form: FrameSource) {
    this.look = `${JSON.stringify(form.hints)}\0${form.session.notice ?? ""}`;
    this.lines = linesOf(form.session.spec, `${themeLook(form.theme)}\0${this.look}`);
  }

  /** The frame at this size now: drawn again when what it shows changed, a countdown's second included. */
  frame(
    snapshot: FormSnapshot,
    width: number,
    height: number,
    message: string | undefined,
    editor: EditorRender | undefined,
    editorState: string,
    targets: boolean,
  ): Screen {
    const { session } = this.form;
    const waiting = formPosition(snapshot).kind === "waiting";
    const answerLeft = session.answerLeftMs();
    // The clocks are drawn in whole seconds: a tick within the same second finds the frame kept.
    const remainingMs = waiting ? wholeSeconds(session.waitLeftMs()) : undefined;
    const timeoutMs = answerLeft === undefined ? undefined : wholeSeconds(answerLeft);
    return this.draw(snapshot, width, height, message, editor, editorState, targets, remainingMs, timeoutMs);
  }

  /**
   * The frame, drawn again only when an argument changed: `editorState`
   * stands for the open editor's text, cursor and focus.
   */
  private readonly draw = memoizeOne(
    (
      snapshot: FormSnapshot,
      width: number,
      height: number,
      message: string | undefined,
      editor: EditorRender | undefined,
      _editorState: string,
      targets: boolean,
      remainingMs: number | undefined,
      timeoutMs: number | undefined,
    ): Screen => {
      const { session } = this.form;
      const drawn = screen({
        spec: session.spec,
        snapshot,
        theme: this.form.theme,
        width,
        height,
        editor,
        notice: session.notice,
        message,
        remainingMs,
        timeoutMs,
        hints: this.form.hints,
        cache: this.lines,
        targets,
      });
      this.last = { snapshot, screen: drawn };
      return drawn;
    },
  );

  clear(): void {
    this.draw.clear();
    this.last = undefined;
  }

  /** The host's theme may have changed in place: the lines are looked up by how it draws now. */
  invalidate(): void {
    this.clear();
    this.lines = linesOf(this.form.session.spec, `${themeLook(this.form.theme)}\0${this.look}`);
  }
}
