import type { KeyId } from "@earendil-works/pi-tui";
import type { FormEvent } from "../../machines/context.js";
import { discarding } from "../../machines/position.js";
import type { FormSession, Step } from "../../machines/session.js";
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

/** A key of a question that waits, on any screen: the form closes (put back, or refused) unless it says why not. */
export function pressWaiting(session: FormSession, waiting: WaitingKeys, key: "next" | "refuse"): string | undefined {
  const refused = waiting.press(key);
  if (refused === undefined) session.abort();
  return refused;
}

/**
 * An event to a form, on any screen: a question that waits loses nothing when put back, so where a form would
 * ask whether to discard what was entered, it is put back instead.
 */
export function sendToForm(session: FormSession, event: FormEvent, waiting: WaitingKeys | undefined): Step {
  const step = session.send(event);
  if (waiting && !session.closed && discarding(session.position)) session.abort();
  return step;
}
