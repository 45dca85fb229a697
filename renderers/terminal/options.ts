import type { KeyId } from "@earendil-works/pi-tui";
import type { KeyMatcher } from "./keymap.js";
import type { QrCode } from "./qr.js";

/** The part of pi-tui's `TUI` a form uses. */
export interface FormHost {
  requestRender(force?: boolean): void;
  /** Give the terminal up (to the person's own editor), and take it back. */
  stop?(): void;
  start?(): void;
  terminal: { rows: number; columns: number; write?(data: string): void };
  /** pi-tui 1.x: `fullscreen` when the host reports the mouse and hands events to `handleMouse`. */
  readonly mode?: string;
}

/** What the terminal's screen of a form is given beside its session, host and theme. */
export interface TerminalOptions {
  keybindings?: KeyMatcher;
  /** Rows the form may use; defaults to the terminal height less Pi's status lines. */
  maxHeight?: () => number;
  /**
   * A question that waits: Esc and the fold key close the form as put back
   * (cancelled, what was entered kept as a draft) without asking, and these keys work in it.
   */
  waiting?: WaitingKeys;
  mouse?: boolean;
  /** A link that answers this form in a browser tab, named in the help line. */
  link?: string;
  /** That link as a QR code (qr.ts), drawn under the form while the rows and columns leave room for all of it. */
  qr?: QrCode;
  /** The external-editor key's command, asked when pressed; `$VISUAL` or `$EDITOR` without it. */
  editorCommand?: () => string | undefined;
}

/** The keys of a question asked without waiting, beside Esc and the fold key. */
export interface WaitingKeys {
  /** Puts this question back and opens the next that waits. */
  next: KeyId;
  /** Refuses the question: the model is told the person will not answer it. */
  refuse: KeyId;
  /** Undefined: the form closes (put back, or refused); else why the key does nothing now. */
  press(key: "next" | "refuse"): string | undefined;
}
