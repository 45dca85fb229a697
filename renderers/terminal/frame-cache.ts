/**
 * The terminal view's frame cache: a frame is drawn again only when what it
 * shows changed (the snapshot, the size, the editor, the message about the
 * last key); a click reads the frame last drawn, with the snapshot it shows.
 */
import type { Screen } from "./view.js";

/** What a frame shows, as far as drawing it again goes. */
export interface FrameKey {
  snapshot: unknown;
  width: number;
  height: number;
  /** A refused key changes the message, not the snapshot. */
  message: string | undefined;
  /** The editor's text, cursor and focus while one is open, else "". */
  editor: string;
  /** The frame has click targets (only while the mouse reports). */
  targets: boolean;
}

export class FrameCache {
  /** The frame last drawn, and what it shows. */
  last?: FrameKey & { screen: Screen };

  /** The last frame while its key is the same, else `draw()`'s (kept for the next call). */
  frame(key: FrameKey, draw: () => Screen): Screen {
    const c = this.last;
    if (
      c &&
      c.snapshot === key.snapshot &&
      c.width === key.width &&
      c.height === key.height &&
      c.editor === key.editor &&
      c.targets === key.targets &&
      c.message === key.message
    )
      return c.screen;
    const screen = draw();
    this.last = { ...key, screen };
    return screen;
  }

  clear(): void {
    this.last = undefined;
  }
}
