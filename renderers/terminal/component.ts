/**
 * The pi-tui `Component` that owns a form's actor.
 *
 * Contract: keys go through the keymap to the machine (or to the editor while
 * a free-text answer is typed); every render is `view(snapshot)` cached until
 * the snapshot, the width or the editor changes; `done` is called exactly
 * once, when the machine reaches a final state or the form fails, with the
 * one `FormOutcome` the form leaves by: the machine's output, its last
 * context (to keep as a draft) and, when the form closed on an error of its
 * own, that error.
 * `abort()` closes the form as cancelled, keeping the answers given so far.
 *
 * renderers/terminal/ is the form's live front ends: this component and the
 * view, frame, keymap, help and mouse it draws and reads keys with, and the
 * dialog front end (dialogs.ts), which shares their presentation model. The
 * review page (renderers/review/) draws their screens; they never import it,
 * and in tools/ only the engine loads them (scripts/layers.ts holds both).
 */
import {
  type Component,
  Editor,
  type Focusable,
  getKeybindings,
  type KeyId,
  type TUI,
  type TuiMouseEvent,
  type TuiMouseEventResult,
} from "@earendil-works/pi-tui";
import { type Actor, createActor } from "xstate";

import { cancelledResult, type FormOutcome, type FormResult, formState } from "../../machines/context.js";
import { type FormMachine, formMachine } from "../../machines/form.js";
import { discarding, editorText, type FormPosition, type FormSnapshot, formPosition } from "../../machines/position.js";
import { type FormSpec, singleLine } from "../../machines/spec.js";
import { typedText } from "../text.js";
import { editorTheme, type FormTheme } from "../theme.js";
import { FormClocks } from "./clocks.js";
import { editorOf, fillEditor, typeInto } from "./editor-input.js";
import { FrameCache } from "./frame-cache.js";
import { hintsFrom, type KeyContext, type KeyMatcher, keyIs, keyName, keyToEvent, unboundKey } from "./keymap.js";
import { type LineCache, linesOf, themeLook } from "./line-cache.js";
import { type DrawnScreen, type MouseReport, MouseReporting, parseMouse, ReportJoiner } from "./mouse.js";
import type { FormComponentOptions, FormHost } from "./options.js";
import { editOutside, outsideCommand, outsideKeys } from "./outside-editor.js";
import { clickEventsAt, reportAction } from "./pointer.js";
import { refusal } from "./presentation.js";
import { type KeyHints, type Screen, screen } from "./view.js";

export class FormComponent implements Component, Focusable {
  readonly spec: FormSpec;
  readonly actor: Actor<FormMachine>;
  private readonly host: FormHost;
  private readonly theme: FormTheme;
  private readonly kb: KeyMatcher;
  /** The keys that hand the open editor's text to the person's own editor (Pi's `app.editor.external`). */
  private readonly outsideKeys: KeyId[];
  /** The person's own editor has the terminal: keys wait until it is closed. */
  private outside = false;
  private editorInstance?: Editor;
  private readonly onDone: (outcome: FormOutcome) => void;
  private readonly editorCommand: () => string | undefined;
  private readonly maxHeight: () => number;
  private readonly hints: KeyHints;
  /** The mouse answers the form (the setting is on). */
  private readonly mouseOn: boolean;
  /** The fold key puts the form back (closes it, what was entered kept) instead of folding it. */
  private readonly foldPutsBack: boolean;
  /**
   * Mouse reporting of the form's own, when the setting asks for it and the
   * host leaves the mouse to the terminal; a full-screen host reports the
   * mouse itself and hands events to `handleMouse`, so the form never
   * switches the host's reporting on or off.
   */
  private readonly mouse?: MouseReporting;
  private finished = false;
  /** The last frame; its click targets only while the mouse reports (an open form then holds less). */
  private readonly frames = new FrameCache();
  /** The lines of earlier frames a new one reuses (rows, head, footer, tab bar), shared by forms of the spec. */
  private lineCache: LineCache;
  /** What the lines depend on beside the theme: the key names and the notice. */
  private readonly look: string;
  private _focused = false;
  /** The pieces of a mouse report split across reads, put back together (never typed into an answer). */
  private readonly reports = new ReportJoiner();
  private readonly notice?: string;
  /** Why the last key did nothing, shown until the next key. */
  private message?: string;
  /** Set when the form closed because of an error of its own; the result is then a cancel. */
  private failure?: string;
  private readonly clocks = new FormClocks(() => {
    this.frames.clear();
    this.host.requestRender();
  });

  constructor(options: FormComponentOptions) {
    this.spec = options.spec;
    this.host = options.host;
    this.theme = options.theme;
    this.kb = options.keybindings ?? getKeybindings();
    this.outsideKeys = outsideKeys(options.keybindings);
    const external = this.outsideKeys[0];
    this.foldPutsBack = options.foldPutsBack === true;
    this.hints = {
      ...hintsFrom(this.kb),
      ...(external ? { external: keyName(external) } : {}),
      ...(this.foldPutsBack ? { fold: "put back" } : {}),
    };
    this.look = `${JSON.stringify(this.hints)}\0${options.notice ?? ""}`;
    this.lineCache = linesOf(this.spec, `${themeLook(this.theme)}\0${this.look}`);
    this.onDone = options.done;
    this.editorCommand = options.editorCommand ?? (() => outsideCommand());
    this.notice = options.notice;
    const write = this.host.terminal.write?.bind(this.host.terminal);
    this.mouseOn = options.mouse === true && (this.host.mode === "fullscreen" || write !== undefined);
    if (this.mouseOn && this.host.mode !== "fullscreen" && write) this.mouse = new MouseReporting(write);
    this.maxHeight = options.maxHeight ?? (() => Math.max(6, this.host.terminal.rows - 4));
    this.actor = createActor(formMachine(this.spec), {
      input: { spec: this.spec, restore: options.restore },
      inspect: options.inspect,
      ...(options.snapshot ? { snapshot: options.snapshot } : {}),
    });
    let previous: FormPosition | undefined;
    this.actor.subscribe({
      next: (snapshot) => {
        if (snapshot.status === "error") return;
        const position = formPosition(snapshot);
        // Opening an editor fills it with what was written there before.
        const editor = editorOf(position);
        if (editor && editor !== editorOf(previous)) fillEditor(this.editor, editorText(position, snapshot.context));
        // The answer clock runs from when the form is shown until a key stops it.
        const ticking =
          snapshot.status === "active" && position.kind !== "waiting" && snapshot.context.clock === "running";
        this.clocks.follow(position.kind === "waiting", previous?.kind === "waiting", ticking);
        previous = position;
        this.host.requestRender();
        if (snapshot.status === "done") this.finish(snapshot.output as FormResult);
      },
      // An error inside the statechart (an action or a guard that threw, even from a
      // timer) closes the form here instead of being rethrown into Pi's process.
      error: (error) => this.fail(error),
    });
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

  /** pi-tui's editor, made when the form first opens one (most forms never do). */
  private get editor(): Editor {
    if (!this.editorInstance) {
      this.editorInstance = new Editor(this.host as TUI, editorTheme(this.theme), { paddingX: 0 });
      // Enter is read by the keymap (SUBMIT_TEXT), never by the editor itself.
      this.editorInstance.disableSubmit = true;
      this.editorInstance.focused = this._focused;
    }
    return this.editorInstance;
  }

  get snapshot(): FormSnapshot {
    return this.actor.getSnapshot();
  }

  get position(): FormPosition {
    return formPosition(this.snapshot);
  }

  keyContext(): KeyContext {
    const snapshot = this.snapshot;
    return {
      spec: this.spec,
      position: formPosition(snapshot),
      context: snapshot.context,
      editorText: () => this.editorInstance?.getExpandedText() ?? "",
    };
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

  /** The person's first key or click: the answer clock stops for good. */
  private stopClock(): void {
    if (this.snapshot.context.clock === "running" && this.position.kind !== "waiting")
      this.actor.send({ type: "STOP_CLOCK" });
  }

  private dispatch(data: string): void {
    this.stopClock();
    const keys = this.keyContext();
    const event = keyToEvent(data, keys, this.kb);
    // A message about the last key lasts until the next one.
    const hadMessage = this.message !== undefined;
    this.message = undefined;
    if (event === "editor") {
      if (this.outsideKeys.some((id) => keyIs(data, id))) void this.writeOutside(keys);
      else this.type(data, keys);
      return;
    }
    if (!event) {
      this.message = unboundKey(data);
      if (hadMessage || this.message) this.host.requestRender();
      return;
    }
    // A form that can be put back closes on the fold key, keeping what was entered.
    if (event.type === "FOLD" && this.foldPutsBack) {
      this.abort();
      return;
    }
    const before = this.snapshot;
    this.actor.send(event);
    // An event the form did not take leaves the snapshot as it was: say why.
    if (this.snapshot === before) this.message = refusal(this.spec, keys.position, before.context, event);
    if (hadMessage || this.message) this.host.requestRender();
  }

  /** A key for the open editor (`typeInto` says what reaches the answer). */
  private type(data: string, keys: KeyContext): void {
    const position = keys.position;
    const question = position.kind === "question" ? this.spec.questions[position.q] : undefined;
    const typed = typeInto(this.editor, data, question !== undefined && singleLine(question));
    if ("refused" in typed) this.message = typed.refused;
    else if (typed.after !== typed.before) this.actor.send({ type: "TYPE", text: typed.after });
    this.host.requestRender();
  }

  /**
   * The open editor's text, written in the person's own editor: the form
   * gives the terminal up until that editor exits, then takes back what was
   * written as if it had been typed (one line for a one-line field, without
   * control characters) and shows its checks. A form that closed meanwhile
   * (its time ran out) or an editor that failed changes nothing.
   */
  private async writeOutside(keys: KeyContext): Promise<void> {
    const command = this.editorCommand();
    if (!command) {
      this.message = "Set $VISUAL or $EDITOR to write this in your own editor.";
      this.host.requestRender();
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
      this.host.requestRender(true);
    }
  }

  /** Close the form as cancelled (the tool call was aborted). */
  abort(): void {
    if (!this.finished) this.actor.send({ type: "ABORT" });
  }

  render(width: number): string[] {
    try {
      return this.draw(width);
    } catch (error) {
      this.fail(error);
      return [];
    }
  }

  /**
   * A bug must not take Pi down or lose what was typed: close the form as
   * cancelled, keeping the answers given so far (the caller keeps a draft).
   */
  private fail(error: unknown): void {
    if (this.finished) return;
    this.failure = error instanceof Error ? error.message : String(error);
    const result = cancelledResult(this.spec, this.snapshot.context);
    this.finish(result);
  }

  /**
   * The lines at this width: the last frame's while nothing it shows changed,
   * in an array of the caller's own (a host that appends resets to each line,
   * or a container that hands on and edits its children's arrays, must not
   * change the frame kept for the next call).
   */
  private draw(width: number): string[] {
    return this.frame(width).lines.slice();
  }

  /** The frame at this width; its click targets are kept only while the mouse reports. */
  private frame(width: number): Screen {
    const snapshot = this.snapshot;
    const height = this.maxHeight();
    const position = formPosition(snapshot);
    const open = editorOf(position) !== undefined;
    // The view renders the editor where it belongs, at the width left there.
    const editor = open ? (w: number) => this.editor.render(w) : undefined;
    const editorKey = open
      ? `${this.editor.getText()}|${JSON.stringify(this.editor.getCursor())}|${this._focused}`
      : "";
    const targets = this.targets;
    const key = { snapshot, width, height, message: this.message, editor: editorKey, targets };
    return this.frames.frame(key, () => {
      return screen({
        spec: this.spec,
        snapshot,
        theme: this.theme,
        width,
        height,
        editor,
        notice: this.notice,
        message: this.message,
        remainingMs: position.kind === "waiting" ? this.clocks.waitLeftMs(this.spec) : undefined,
        timeoutMs: this.clocks.answerLeftMs(this.spec),
        hints: this.hints,
        cache: this.lineCache,
        targets,
      });
    });
  }

  /** The mouse reports now: a full-screen host's while the setting is on, else the form's own reporting. */
  private get targets(): boolean {
    return this.mouseOn && (this.mouse?.reporting ?? true);
  }

  /** The host's theme or size may have changed in place: the frame is drawn again, with the lines of how the theme draws now. */
  invalidate(): void {
    this.frames.clear();
    this.lineCache = linesOf(this.spec, `${themeLook(this.theme)}\0${this.look}`);
    this.editorInstance?.invalidate();
  }

  dispose(): void {
    this.clocks.stop();
    this.mouse?.set(false);
    this.actor.stop();
  }

  private finish(result: FormResult): void {
    if (this.finished) return;
    this.finished = true;
    this.clocks.stop();
    // Whatever closed the form, the terminal stops reporting the mouse before anything else happens.
    this.mouse?.set(false);
    const outcome: FormOutcome = { result, context: formState(this.snapshot.context) };
    if (this.failure !== undefined) outcome.error = this.failure;
    this.onDone(outcome);
  }

  /**
   * A mouse event from a full-screen host, in the form's own coordinates:
   * a left click acts as in `report`, the wheel moves the highlight. Events
   * the form has no use for are left to the host (its text selection, its
   * scrolling), and so is every event while the setting is off.
   */
  handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
    if (!this.mouseOn || this.finished) return undefined;
    try {
      if (event.type === "wheel" || event.type === "click") this.stopClock();
      if (event.type === "wheel") return this.wheel(event.wheelDelta ?? 0) ? { handled: true } : undefined;
      if (event.button !== "left") return undefined;
      // The press is taken so the host sends the click to the form and starts no selection.
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

  /** A mouse report the form asked the terminal for: located among the lines the host drew. */
  private report(report: MouseReport): void {
    if (!report.press) return;
    this.stopClock();
    const action = reportAction(report, discarding(this.position), this.frames.last?.screen, this.host as DrawnScreen);
    if (action?.kind === "wheel") this.wheel(action.delta);
    else if (action) this.clickAt(action.line, action.col);
  }

  /** The wheel moves the highlight of an option list; false where there is none. */
  private wheel(delta: number): boolean {
    const position = this.position;
    if (delta === 0 || position.kind !== "question" || position.mode !== "choosing") return false;
    this.actor.send({ type: "MOVE", delta: delta < 0 ? -1 : 1 });
    return true;
  }

  /** A left click at a line and column of the frame last drawn: the events `clickEventsAt` finds. */
  private clickAt(line: number, col: number): void {
    for (const event of clickEventsAt(this.spec, this.keyContext(), this.snapshot, this.frames.last, line, col))
      this.actor.send(event);
  }
}
