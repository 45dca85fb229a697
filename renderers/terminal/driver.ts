/**
 * What drives a form's actor, apart from how keys reach it and how it is
 * drawn (component.ts): the editor it fills, the clocks it runs, and the one
 * `FormOutcome` it leaves by. `done` is called exactly once, when the machine
 * reaches a final state or the form fails, with the machine's output, its
 * last context (kept as a draft) and the form's own error if it closed on one.
 */
import { Editor, type TUI } from "@earendil-works/pi-tui";
import { type Actor, createActor } from "xstate";
import { cancelledResult, type FormOutcome, type FormResult, formState } from "../../machines/context.js";
import { type FormMachine, formMachine } from "../../machines/form.js";
import { editorText, type FormPosition, type FormSnapshot, formPosition } from "../../machines/position.js";
import type { FormSpec } from "../../machines/spec.js";
import { editorTheme, type FormTheme } from "../theme.js";
import { FormClocks } from "./clocks.js";
import { editorOf, fillEditor } from "./editor-input.js";
import type { KeyContext } from "./keymap.js";
import type { FormComponentOptions, FormHost } from "./options.js";

export abstract class FormDriver {
  readonly spec: FormSpec;
  readonly actor: Actor<FormMachine>;
  protected readonly host: FormHost;
  protected readonly theme: FormTheme;
  protected finished = false;
  protected _focused = false;
  protected editorInstance?: Editor;
  private readonly onDone: (outcome: FormOutcome) => void;
  /** The form's own error it closed on; the result is then a cancel. */
  private failure?: string;
  protected readonly clocks = new FormClocks(() => this.tick());
  /** Other screens of this form (browser tabs), told whenever it is to be drawn again or closes. */
  private readonly watchers = new Set<() => void>();

  /** The subclass starts the actor once it is built. */
  constructor(options: FormComponentOptions) {
    this.spec = options.spec;
    this.host = options.host;
    this.theme = options.theme;
    this.onDone = options.done;
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
        const editor = editorOf(position);
        if (editor && editor !== editorOf(previous)) fillEditor(this.editor, editorText(position, snapshot.context));
        const ticking =
          snapshot.status === "active" && position.kind !== "waiting" && snapshot.context.clock === "running";
        this.clocks.follow(position.kind === "waiting", previous?.kind === "waiting", ticking);
        previous = position;
        this.redraw();
        if (snapshot.status === "done") this.finish(snapshot.output as FormResult);
      },
      // An action or guard that threw (even from a timer) closes the form instead of reaching Pi's process.
      error: (error) => this.fail(error),
    });
  }

  protected tick(): void {
    this.redraw();
  }

  /** The host draws again, and so does every other screen of the form. */
  protected redraw(force?: boolean): void {
    this.host.requestRender(force);
    for (const watcher of this.watchers) watcher();
  }

  /** Called whenever the form is to be drawn again, and once when it closes; returns the way to stop. */
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  get closed(): boolean {
    return this.finished;
  }

  /** Before `done` is called. */
  protected closing(): void {}

  /** pi-tui's editor, made when the form first opens one (most forms never do). */
  protected get editor(): Editor {
    if (!this.editorInstance) {
      this.editorInstance = new Editor(this.host as TUI, editorTheme(this.theme), { paddingX: 0 });
      // Enter is the keymap's (SUBMIT_TEXT), never the editor's.
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

  /** The person's first key or click stops the answer clock for good. */
  protected stopClock(): void {
    if (this.snapshot.context.clock === "running" && this.position.kind !== "waiting")
      this.actor.send({ type: "STOP_CLOCK" });
  }

  /** The tool call was aborted. */
  abort(): void {
    if (!this.finished) this.actor.send({ type: "ABORT" });
  }

  /** A bug must not take Pi down or lose what was typed: the form closes as cancelled, answers kept. */
  protected fail(error: unknown): void {
    if (this.finished) return;
    this.failure = error instanceof Error ? error.message : String(error);
    this.finish(cancelledResult(this.spec, this.snapshot.context));
  }

  dispose(): void {
    this.clocks.stop();
    this.actor.stop();
  }

  private finish(result: FormResult): void {
    if (this.finished) return;
    this.finished = true;
    this.clocks.stop();
    this.closing();
    const outcome: FormOutcome = { result, context: formState(this.snapshot.context) };
    if (this.failure !== undefined) outcome.error = this.failure;
    this.onDone(outcome);
    for (const watcher of this.watchers) watcher();
  }
}
