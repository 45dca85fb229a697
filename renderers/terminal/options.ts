/**
 * What a form component is given: the host it draws on (the part of pi-tui's
 * `TUI` it uses), the spec, the theme, where its outcome goes, and the
 * options of a form (a restored draft, a notice, the mouse).
 */
import type { InspectionEvent } from "xstate";
import type { FormContext, FormOutcome } from "../../machines/context.js";
import type { FormSnapshot } from "../../machines/position.js";
import type { FormSpec } from "../../machines/spec.js";
import type { FormTheme } from "../theme.js";
import type { KeyMatcher } from "./keymap.js";

/** The part of pi-tui's `TUI` a form uses. */
export interface FormHost {
  requestRender(force?: boolean): void;
  /** Give the terminal up (to the person's own editor) and take it back. */
  stop?(): void;
  start?(): void;
  terminal: { rows: number; columns: number; write?(data: string): void };
  /**
   * pi-tui 1.x: `fullscreen` when the host owns mouse reporting and routes
   * mouse events to components (`handleMouse`); `regular` (or absent, before
   * 1.x) when the terminal keeps the mouse unless a component asks for it.
   */
  readonly mode?: string;
}

export interface FormComponentOptions {
  spec: FormSpec;
  host: FormHost;
  theme: FormTheme;
  /** Called once, when the form closes, with everything it leaves. */
  done: (outcome: FormOutcome) => void;
  keybindings?: KeyMatcher;
  /** Context to start from instead of a blank form (a restored draft). */
  restore?: FormContext;
  /**
   * A snapshot of this form's machine to go on from instead of opening it
   * (the review page replays a route from where an earlier one left off).
   */
  snapshot?: FormSnapshot;
  /** Rows the form may use; defaults to the terminal height less Pi's status lines. */
  maxHeight?: () => number;
  /** XState inspection hook (tests use it to record the transitions taken). */
  inspect?: (event: InspectionEvent) => void;
  /** A line shown at the top of the form. */
  notice?: string;
  /**
   * The fold key closes the form as put back (cancelled, with what was
   * entered, which the caller keeps as a draft) instead of folding it: a
   * question that waits beside the editor goes back to waiting.
   */
  foldPutsBack?: boolean;
  /** Report the mouse while the form has focus (clicks and the wheel answer the form). */
  mouse?: boolean;
  /**
   * The command the external-editor key runs, asked when the key is pressed
   * (the host's choice, tools/pi-editor.ts); `$VISUAL` or `$EDITOR` without it.
   */
  editorCommand?: () => string | undefined;
}
