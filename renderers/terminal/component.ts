/**
 * The pi-tui `Component` of a form: a terminal screen (screen.ts) of a
 * session, on Pi's terminal. Beside what every terminal screen does, it has
 * the terminal's own: focus, the mouse (reported by the host in full-screen,
 * switched on by the form elsewhere, off on every way out), the person's own
 * editor, and the host's height.
 */
import {
  type Component,
  type Focusable,
  getKeybindings,
  type TuiMouseEvent,
  type TuiMouseEventResult,
} from "@earendil-works/pi-tui";
import type { FormSession } from "../../machines/session.js";
import { singleLine } from "../../machines/spec.js";
import { typedText } from "../text.js";
import type { FormTheme } from "../theme.js";
import { editorOf } from "./editor-input.js";
import type { KeyContext } from "./keymap.js";
import { type DrawnScreen, MouseReporting, parseMouse, ReportJoiner } from "./mouse.js";
import type { FormHost, TerminalOptions } from "./options.js";
import { editOutside, outsideCommand, outsideKeys } from "./outside-editor.js";
import { type QrCode, qrLines } from "./qr.js";
import { TerminalScreen } from "./screen.js";

export class FormComponent implements Component, Focusable {
  readonly screen: TerminalScreen;
  /** The person's own editor has the terminal: keys wait until it is closed. */
  private outside = false;
  private _focused = false;
  private readonly editorCommand: () => string | undefined;
  private readonly maxHeight: () => number;
  private readonly qr?: QrCode;
  private readonly mouseOn: boolean;
  /** Never where the host reports the mouse itself (full-screen): the form must not switch the host's reporting. */
  private readonly mouse?: MouseReporting;
  private readonly reports = new ReportJoiner();
  private readonly unwatch: () => void;

  constructor(
    readonly session: FormSession,
    private readonly host: FormHost,
    theme: FormTheme,
    options: TerminalOptions = {},
  ) {
    this.screen = new TerminalScreen(session, {
      theme,
      keybindings: options.keybindings ?? getKeybindings(),
      waiting: options.waiting,
      link: options.link,
      editorHost: host,
      redraw: (force) => host.requestRender(force),
      outside: { keys: outsideKeys(options.keybindings), write: (keys) => void this.writeOutside(keys) },
    });
    this.screen.focused = false;
    this.editorCommand = options.editorCommand ?? (() => outsideCommand());
    const write = host.terminal.write?.bind(host.terminal);
    this.mouseOn = options.mouse === true && (host.mode === "fullscreen" || write !== undefined);
    if (this.mouseOn && host.mode !== "fullscreen" && write) this.mouse = new MouseReporting(write);
    this.maxHeight = options.maxHeight ?? (() => Math.max(6, host.terminal.rows - 4));
    this.qr = options.qr;
    this.unwatch = session.watch(() => {
      // Whatever closed the form, the terminal stops reporting the mouse before anything else happens.
      if (session.closed) this.mouse?.set(false);
      host.requestRender();
    });
  }

  get focused(): boolean {
    return this._focused;
  }

  set focused(value: boolean) {
    this._focused = value;
    this.screen.focused = value;
    this.mouse?.set(value && !this.session.closed);
  }

  handleInput(data: string): void {
    if (this.session.closed || this.outside) return;
    try {
      const joined = this.reports.take(data);
      if (joined === "held") return;
      const report = parseMouse(joined ?? data);
      if (report) {
        if (this.mouse) this.screen.pointer(report, this.host as DrawnScreen);
        return;
      }
      this.screen.key(data);
    } catch (error) {
      this.session.fail(error);
    }
  }

  /**
   * The open editor's text, written in the person's own editor: the terminal
   * is theirs until it exits, then what was written is taken as if typed.
   * A form that closed meanwhile, or an editor that failed, changes nothing.
   */
  private async writeOutside(keys: KeyContext): Promise<void> {
    const { screen, session } = this;
    const command = this.editorCommand();
    if (!command) {
      screen.message = "Set $VISUAL or $EDITOR to write this in your own editor.";
      screen.redraw();
      return;
    }
    const open = editorOf(keys.position);
    const question = keys.position.kind === "question" ? session.spec.questions[keys.position.q] : undefined;
    this.outside = true;
    this.host.stop?.();
    const before = keys.editorText();
    let result: Awaited<ReturnType<typeof editOutside>>;
    try {
      result = await editOutside(command, before);
    } finally {
      this.outside = false;
      this.host.start?.();
    }
    try {
      if (session.closed || editorOf(session.position) !== open) return;
      if ("failed" in result) {
        screen.message = result.failed;
        return;
      }
      screen.typeText(typedText(result.text, question !== undefined && singleLine(question)));
    } catch (error) {
      session.fail(error);
    } finally {
      // The terminal was someone else's: everything is drawn again.
      screen.frames.clear();
      screen.redraw(true);
    }
  }

  /** The form, and under it the link's QR code where the whole of both fits: the form never gives rows up for it. */
  render(width: number): string[] {
    try {
      const height = this.maxHeight();
      const lines = this.screen.render(width, height, this.targets);
      const code = qrLines(this.qr, width);
      return code.length > 0 && lines.length + code.length <= height ? [...lines, ...code] : lines;
    } catch (error) {
      this.session.fail(error);
      return [];
    }
  }

  /** Whether the mouse reports now; click targets are worked out only then. */
  private get targets(): boolean {
    return this.mouseOn && (this.mouse?.reporting ?? true);
  }

  invalidate(): void {
    this.screen.invalidate();
  }

  /** The component is let go: the mouse is the terminal's again, and the session no longer draws here. */
  dispose(): void {
    this.mouse?.set(false);
    this.unwatch();
  }

  /**
   * A full-screen host's mouse event, in the form's coordinates. Events the
   * form has no use for, and all while the setting is off, are the host's
   * (its selection, its scrolling).
   */
  handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
    if (!this.mouseOn || this.session.closed) return undefined;
    try {
      if (event.type === "wheel" || event.type === "click") this.session.stopClock();
      if (event.type === "wheel") return this.screen.wheel(event.wheelDelta ?? 0) ? { handled: true } : undefined;
      if (event.button !== "left") return undefined;
      // Taking the press makes the host send the click here and start no selection.
      if (event.type === "press" || event.type === "release") return { handled: true, render: false };
      if (event.type === "click") {
        this.screen.clickAt(event.y, event.x);
        return { handled: true };
      }
    } catch (error) {
      this.session.fail(error);
    }
    return undefined;
  }
}
