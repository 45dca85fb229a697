/**
 * A session shown as a terminal's lines and answered with a terminal's key
 * bytes, apart from any pi-tui host: the terminal's `FormComponent` is one,
 * and so are a review page's replays and the warm-up.
 * Keys go through the keymap to the session (or to the editor while text is
 * typed, its text then sent as `TYPE`); a frame is drawn again only when what
 * it shows changed. What the chart refused, the session says why; the screen
 * shows it until the next key.
 */
import { Editor, type KeyId, type TUI } from "@earendil-works/pi-tui";
import type { FormEvent } from "../../machines/context.js";
import { discarding, type FormPosition } from "../../machines/position.js";
import type { FormSession } from "../../machines/session.js";
import { singleLine } from "../../machines/spec.js";
import { displayText } from "../text.js";
import { editorTheme, type FormTheme } from "../theme.js";
import { editorOf, fillEditor, typeInto } from "./editor-input.js";
import { FormFrames } from "./frame-cache.js";
import { hintsFrom, type KeyContext, type KeyMatcher, keyIs, keyName, keyToEvent, unboundKey } from "./keymap.js";
import type { DrawnScreen, MouseReport } from "./mouse.js";
import { pressWaiting, sendToForm, type WaitingKeys } from "./options.js";
import { clickEventsAt, reportAction } from "./pointer.js";

/** What pi-tui's editor reads of its terminal: the rows bound the lines it shows, and it asks to be drawn. */
export interface EditorHost {
  requestRender(force?: boolean): void;
  terminal: { rows: number };
}

export interface TerminalScreenOptions {
  theme: FormTheme;
  /** The person's key bindings; pi-tui's own where none are given. */
  keybindings: KeyMatcher;
  /** A question that waits: Esc and the fold key put it back; its own keys work in it. */
  waiting?: WaitingKeys;
  /** A link that answers this form in a browser tab, named in the help line. */
  link?: string;
  /** The terminal the editor is drawn in; a screen of no terminal of its own gives its editor 24 rows. */
  editorHost?: EditorHost;
  /** The screen's own text changed (why a key did nothing): it is to be drawn again. */
  redraw?: (force?: boolean) => void;
  /** The keys that write the open editor's text in the person's own editor, and what they do; none where unset. */
  outside?: { keys: KeyId[]; write(keys: KeyContext): void };
}

const NO_TERMINAL: EditorHost = { requestRender() {}, terminal: { rows: 24 } };

export class TerminalScreen {
  readonly keybindings: KeyMatcher;
  readonly frames: FormFrames;
  /** Why the last key did nothing, shown until the next key. */
  message?: string;
  private editorInstance?: Editor;
  private readonly outsideKeys: KeyId[];
  private readonly waiting?: WaitingKeys;
  private focusedEditor = true;
  private lastEditor?: string;
  // One function for every frame: a new one would draw the frame again.
  private readonly renderEditor = (width: number) => this.editor.render(width);

  constructor(
    readonly session: FormSession,
    private readonly options: TerminalScreenOptions,
  ) {
    this.keybindings = options.keybindings;
    this.waiting = options.waiting;
    this.outsideKeys = options.outside?.keys ?? [];
    const external = this.outsideKeys[0];
    const hints = {
      ...hintsFrom(this.keybindings),
      ...(external ? { external: keyName(external) } : {}),
      ...(this.waiting ? { fold: "put back", cancelAs: "put back", refuse: keyName(this.waiting.refuse) } : {}),
      ...(options.link ? { web: options.link } : {}),
    };
    this.frames = new FormFrames({ session, theme: options.theme, hints });
  }

  get spec() {
    return this.session.spec;
  }

  /** Whether the editor draws its cursor. */
  set focused(value: boolean) {
    this.focusedEditor = value;
    if (this.editorInstance) this.editorInstance.focused = value;
  }

  /** pi-tui's editor, made when the form first opens one (most forms never do). */
  get editor(): Editor {
    if (!this.editorInstance) {
      const host = this.options.editorHost ?? NO_TERMINAL;
      this.editorInstance = new Editor(host as TUI, editorTheme(this.options.theme), { paddingX: 0 });
      // Enter is the keymap's (SUBMIT_TEXT), never the editor's.
      this.editorInstance.disableSubmit = true;
      this.editorInstance.focused = this.focusedEditor;
    }
    return this.editorInstance;
  }

  keyContext(position: FormPosition = this.session.position): KeyContext {
    return {
      spec: this.spec,
      position,
      context: this.session.snapshot.context,
      editorText: () => this.session.editorText,
    };
  }

  /** A key's bytes. */
  key(data: string): void {
    const session = this.session;
    if (session.closed) return;
    session.stopClock();
    if (this.waiting && this.waitingKey(data, this.waiting)) return;
    const keys = this.keyContext();
    const event = keyToEvent(data, keys, this.keybindings);
    const hadMessage = this.message !== undefined;
    this.message = undefined;
    if (event === "editor") {
      if (this.outsideKeys.some((id) => keyIs(data, id))) this.options.outside?.write(keys);
      else this.type(data, keys);
      return;
    }
    if (!event) {
      this.message = unboundKey(data);
      if (hadMessage || this.message) this.redraw();
      return;
    }
    // A question that waits loses nothing when put back: Esc does not ask whether to discard.
    if (event.type === "FOLD" && this.waiting) {
      session.abort();
      return;
    }
    const step = sendToForm(session, event, this.waiting);
    if (session.closed) return;
    if (!step.taken && step.why !== undefined) this.message = displayText(step.why);
    if (hadMessage || this.message) this.redraw();
  }

  /** The events a person's step sends, as they are, without keys (a click's, a replayed route's). */
  send(events: readonly FormEvent[]): void {
    for (const event of events) this.session.send(event);
  }

  /** Before the open editor is drawn or typed in: it holds what the session holds (another screen may have typed). */
  syncEditor(position: FormPosition = this.session.position): void {
    const open = editorOf(position);
    if (!open) {
      this.lastEditor = undefined;
      return;
    }
    const text = this.session.editorText;
    if (open !== this.lastEditor || (this.editorInstance && this.editorInstance.getExpandedText() !== text))
      fillEditor(this.editor, text);
    this.lastEditor = open;
  }

  /** The open key and the refuse key of a question that waits; the editor never takes them. */
  private waitingKey(data: string, waiting: WaitingKeys): boolean {
    const key = keyIs(data, waiting.next) ? "next" : keyIs(data, waiting.refuse) ? "refuse" : undefined;
    if (!key) return false;
    const refused = pressWaiting(this.session, waiting, key);
    if (refused !== undefined) {
      this.message = refused;
      this.redraw();
    }
    return true;
  }

  private type(data: string, keys: KeyContext): void {
    const position = keys.position;
    const question = position.kind === "question" ? this.spec.questions[position.q] : undefined;
    this.syncEditor(position);
    const typed = typeInto(this.editor, data, question !== undefined && singleLine(question));
    if ("refused" in typed) this.message = typed.refused;
    else if (typed.after !== typed.before) this.session.send({ type: "TYPE", text: typed.after });
    this.redraw();
  }

  /** The open editor's text as given (from the person's own editor), as if typed. */
  typeText(text: string): void {
    this.syncEditor();
    fillEditor(this.editor, text);
    const after = this.editor.getExpandedText();
    if (after !== this.session.editorText) this.session.send({ type: "TYPE", text: after });
  }

  redraw(force?: boolean): void {
    this.options.redraw?.(force);
  }

  /**
   * The lines at this size, in an array of the caller's own: a host or
   * container that edits its children's arrays must not change the kept frame.
   */
  render(width: number, height: number, targets: boolean, frames = this.frames): string[] {
    const position = this.session.position;
    this.syncEditor(position);
    const open = editorOf(position) !== undefined;
    const editorState = open
      ? `${this.editor.getText()}|${JSON.stringify(this.editor.getCursor())}|${this.focusedEditor}`
      : "";
    const frame = frames.frame(
      this.session.snapshot,
      width,
      height,
      this.message,
      open ? this.renderEditor : undefined,
      editorState,
      targets,
    );
    return frame.lines.slice();
  }

  /** A mouse report (SGR), located among the lines `host` drew: a wheel turn or a click becomes the events it means. */
  pointer(report: MouseReport, host: DrawnScreen, frames = this.frames): void {
    if (this.session.closed || !report.press) return;
    this.session.stopClock();
    const action = reportAction(report, discarding(this.session.position), frames.last?.screen, host);
    if (action?.kind === "wheel") this.wheel(action.delta);
    else if (action) this.clickAt(action.line, action.col, frames);
  }

  /** A wheel turn on a list moves its highlight; elsewhere it is not the form's. */
  wheel(delta: number): boolean {
    const position = this.session.position;
    if (delta === 0 || position.kind !== "question" || position.mode !== "choosing") return false;
    this.session.send({ type: "MOVE", delta: delta < 0 ? -1 : 1 });
    return true;
  }

  clickAt(line: number, col: number, frames = this.frames): void {
    const session = this.session;
    this.send(clickEventsAt(this.spec, this.keyContext(), session.snapshot, frames.last, line, col));
  }

  invalidate(): void {
    this.frames.invalidate();
    this.editorInstance?.invalidate();
  }
}
