/**
 * The pi-tui `Component` of a form: keys go through the keymap to the machine
 * (or to the editor while text is typed), mouse events to what they land
 * on, and every render is the frame of the snapshot, kept until what it
 * shows changes. The actor's side is `FormDriver`'s (driver.ts).
 */
import {
  type Component,
  type Focusable,
  getKeybindings,
  type KeyId,
  type TuiMouseEvent,
  type TuiMouseEventResult,
} from "@earendil-works/pi-tui";
import { discarding } from "../../machines/position.js";
import { singleLine } from "../../machines/spec.js";
import { typedText } from "../text.js";
import { FormDriver } from "./driver.js";
import { editorOf, fillEditor, typeInto } from "./editor-input.js";
import { FormFrames, type FrameSource } from "./frame-cache.js";
import { hintsFrom, type KeyContext, type KeyMatcher, keyIs, keyName, keyToEvent, unboundKey } from "./keymap.js";
import { type DrawnScreen, type MouseReport, MouseReporting, parseMouse, ReportJoiner } from "./mouse.js";
import type { FormComponentOptions, WaitingKeys } from "./options.js";
import { editOutside, outsideCommand, outsideKeys } from "./outside-editor.js";
import { clickEventsAt, reportAction } from "./pointer.js";
import { refusal } from "./presentation.js";

/** A screen of the form other than the host's (see `FormComponent.screen`). */
export interface FormScreen {
  render(width: number, height: number): string[];
  pointer(report: MouseReport): void;
  close(): void;
}

export class FormComponent extends FormDriver implements Component, Focusable {
  private readonly kb: KeyMatcher;
  private readonly outsideKeys: KeyId[];
  /** The person's own editor has the terminal: keys wait until it is closed. */
  private outside = false;
  private readonly editorCommand: () => string | undefined;
  private readonly maxHeight: () => number;
  private readonly mouseOn: boolean;
  private readonly waiting?: WaitingKeys;
  /** Never where the host reports the mouse itself (full-screen): the form must not switch the host's reporting. */
  private readonly mouse?: MouseReporting;
  private readonly frames: FormFrames;
  private readonly frameSource: FrameSource;
  /** The frames of the other screens, cleared with the host's on a clock's tick. */
  private readonly screens = new Set<FormFrames>();
  private readonly reports = new ReportJoiner();
  /** Why the last key did nothing, shown until the next key. */
  private message?: string;
  // One function for every frame: a new one would draw the frame again.
  private readonly renderEditor = (width: number) => this.editor.render(width);

  constructor(options: FormComponentOptions) {
    super(options);
    this.kb = options.keybindings ?? getKeybindings();
    this.outsideKeys = outsideKeys(options.keybindings);
    const external = this.outsideKeys[0];
    this.waiting = options.waiting;
    const hints = {
      ...hintsFrom(this.kb),
      ...(external ? { external: keyName(external) } : {}),
      ...(this.waiting ? { fold: "put back", cancelAs: "put back", refuse: keyName(this.waiting.refuse) } : {}),
      ...(options.link ? { web: options.link } : {}),
    };
    this.frameSource = { spec: this.spec, theme: this.theme, hints, notice: options.notice, clocks: this.clocks };
    this.frames = new FormFrames(this.frameSource);
    this.editorCommand = options.editorCommand ?? (() => outsideCommand());
    const write = this.host.terminal.write?.bind(this.host.terminal);
    this.mouseOn = options.mouse === true && (this.host.mode === "fullscreen" || write !== undefined);
    if (this.mouseOn && this.host.mode !== "fullscreen" && write) this.mouse = new MouseReporting(write);
    this.maxHeight = options.maxHeight ?? (() => Math.max(6, this.host.terminal.rows - 4));
    this.actor.start();
  }

  get focused(): boolean {
    return this._focused;
  }

  set focused(value: boolean) {
    this._focused = value;
    if (this.editorInstance) this.editorInstance.focused = value;
    this.mouse?.set(value && !this.finished);
  }

  protected override tick(): void {
    this.frames.clear();
    for (const frames of this.screens) frames.clear();
    super.tick();
  }

  protected override closing(): void {
    // Whatever closed the form, the terminal stops reporting the mouse before anything else happens.
    this.mouse?.set(false);
  }

  get keybindings(): KeyMatcher {
    return this.kb;
  }

  handleInput(data: string): void {
    if (this.finished || this.outside) return;
    try {
      const joined = this.reports.take(data);
      if (joined === "held") return;
      const report = parseMouse(joined ?? data);
      if (report) {
        if (this.mouse) this.report(report);
        return;
      }
      this.dispatch(data);
    } catch (error) {
      this.fail(error);
    }
  }

  private dispatch(data: string): void {
    this.stopClock();
    if (this.waiting && this.waitingKey(data, this.waiting)) return;
    const keys = this.keyContext();
    const event = keyToEvent(data, keys, this.kb);
    const hadMessage = this.message !== undefined;
    this.message = undefined;
    if (event === "editor") {
      if (this.outsideKeys.some((id) => keyIs(data, id))) void this.writeOutside(keys);
      else this.type(data, keys);
      return;
    }
    if (!event) {
      this.message = unboundKey(data);
      if (hadMessage || this.message) this.redraw();
      return;
    }
    if (event.type === "FOLD" && this.waiting) {
      this.abort();
      return;
    }
    const before = this.snapshot;
    this.actor.send(event);
    // A question that waits loses nothing when put back: Esc does not ask whether to discard.
    if (this.waiting && discarding(this.position)) {
      this.abort();
      return;
    }
    // An event the form did not take leaves the snapshot as it was: say why.
    if (this.snapshot === before) this.message = refusal(this.spec, keys.position, before.context, event);
    if (hadMessage || this.message) this.redraw();
  }

  /** The open key and the refuse key of a question that waits; the editor never takes them. */
  private waitingKey(data: string, waiting: WaitingKeys): boolean {
    const key = keyIs(data, waiting.next) ? "next" : keyIs(data, waiting.refuse) ? "refuse" : undefined;
    if (!key) return false;
    const refused = waiting.press(key);
    if (refused === undefined) this.abort();
    else {
      this.message = refused;
      this.host.requestRender();
    }
    return true;
  }

  private type(data: string, keys: KeyContext): void {
    const position = keys.position;
    const question = position.kind === "question" ? this.spec.questions[position.q] : undefined;
    const typed = typeInto(this.editor, data, question !== undefined && singleLine(question));
    if ("refused" in typed) this.message = typed.refused;
    else if (typed.after !== typed.before) this.actor.send({ type: "TYPE", text: typed.after });
    this.redraw();
  }

  /**
   * The open editor's text, written in the person's own editor: the terminal
   * is theirs until it exits, then what was written is taken as if typed.
   * A form that closed meanwhile, or an editor that failed, changes nothing.
   */
  private async writeOutside(keys: KeyContext): Promise<void> {
    const command = this.editorCommand();
    if (!command) {
      this.message = "Set $VISUAL or $EDITOR to write this in your own editor.";
      this.redraw();
      return;
    }
    const open = editorOf(keys.position);
    const question = keys.position.kind === "question" ? this.spec.questions[keys.position.q] : undefined;
    this.outside = true;
    this.host.stop?.();
    const before = this.editor.getExpandedText();
    let result: Awaited<ReturnType<typeof editOutside>>;
    try {
      result = await editOutside(command, before);
    } finally {
      this.outside = false;
      this.host.start?.();
    }
    try {
      if (this.finished || editorOf(this.position) !== open) return;
      if ("failed" in result) {
        this.message = result.failed;
        return;
      }
      fillEditor(this.editor, typedText(result.text, question !== undefined && singleLine(question)));
      const text = this.editor.getExpandedText();
      if (text !== before) this.actor.send({ type: "TYPE", text });
    } catch (error) {
      this.fail(error);
    } finally {
      // The terminal was someone else's: everything is drawn again.
      this.frames.clear();
      this.redraw(true);
    }
  }

  /**
   * The lines at this width, in an array of the caller's own: a host or
   * container that edits its children's arrays must not change the kept frame.
   */
  render(width: number): string[] {
    return this.draw(this.frames, width, this.maxHeight(), this.targets);
  }

  /**
   * Another screen of this form (a browser tab): frames of its own at its own
   * size, so a click lands on what that screen drew. Its keys go to `handleInput`;
   * its mouse reports (SGR, the screen's own coordinates) to `pointer`, whatever the mouse setting.
   */
  screen(): FormScreen {
    const frames = new FormFrames(this.frameSource);
    this.screens.add(frames);
    return {
      close: () => this.screens.delete(frames),
      render: (width, height) => this.draw(frames, width, height, true),
      pointer: (report) => {
        if (this.finished || !report.press) return;
        try {
          this.stopClock();
          const drawn = frames.last?.screen;
          const action = reportAction(report, discarding(this.position), drawn, { previousLines: drawn?.lines });
          if (action?.kind === "wheel") this.wheel(action.delta);
          else if (action) this.clickAt(action.line, action.col, frames);
        } catch (error) {
          this.fail(error);
        }
      },
    };
  }

  private draw(frames: FormFrames, width: number, height: number, targets: boolean): string[] {
    try {
      const open = editorOf(this.position) !== undefined;
      const editorState = open
        ? `${this.editor.getText()}|${JSON.stringify(this.editor.getCursor())}|${this._focused}`
        : "";
      const frame = frames.frame(
        this.snapshot,
        width,
        height,
        this.message,
        open ? this.renderEditor : undefined,
        editorState,
        targets,
      );
      return frame.lines.slice();
    } catch (error) {
      this.fail(error);
      return [];
    }
  }

  /** Whether the mouse reports now; click targets are worked out only then. */
  private get targets(): boolean {
    return this.mouseOn && (this.mouse?.reporting ?? true);
  }

  invalidate(): void {
    this.frames.invalidate();
    for (const frames of this.screens) frames.invalidate();
    this.editorInstance?.invalidate();
  }

  override dispose(): void {
    this.mouse?.set(false);
    super.dispose();
  }

  /**
   * A full-screen host's mouse event, in the form's coordinates. Events the
   * form has no use for, and all while the setting is off, are the host's
   * (its selection, its scrolling).
   */
  handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
    if (!this.mouseOn || this.finished) return undefined;
    try {
      if (event.type === "wheel" || event.type === "click") this.stopClock();
      if (event.type === "wheel") return this.wheel(event.wheelDelta ?? 0) ? { handled: true } : undefined;
      if (event.button !== "left") return undefined;
      // Taking the press makes the host send the click here and start no selection.
      if (event.type === "press" || event.type === "release") return { handled: true, render: false };
      if (event.type === "click") {
        this.clickAt(event.y, event.x);
        return { handled: true };
      }
    } catch (error) {
      this.fail(error);
    }
    return undefined;
  }

  private report(report: MouseReport): void {
    if (!report.press) return;
    this.stopClock();
    const action = reportAction(report, discarding(this.position), this.frames.last?.screen, this.host as DrawnScreen);
    if (action?.kind === "wheel") this.wheel(action.delta);
    else if (action) this.clickAt(action.line, action.col);
  }

  private wheel(delta: number): boolean {
    const position = this.position;
    if (delta === 0 || position.kind !== "question" || position.mode !== "choosing") return false;
    this.actor.send({ type: "MOVE", delta: delta < 0 ? -1 : 1 });
    return true;
  }

  private clickAt(line: number, col: number, frames = this.frames): void {
    for (const event of clickEventsAt(this.spec, this.keyContext(), this.snapshot, frames.last, line, col))
      this.actor.send(event);
  }
}
