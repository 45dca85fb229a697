/**
 * A running form: its actor, the clocks it shows, the text its open editor
 * holds, and the one outcome it ends with. The terminal, the dialogs, a
 * browser tab, a review page's replay and other extensions are screens or
 * clients of a session: they send it events and show what it says back; none
 * owns the actor.
 *
 * Contract: `outcome` settles exactly once, when the chart reaches a final
 * state or the form fails (a guard or action that threw, even from a timer:
 * the form closes as cancelled with what was entered, never reaching the
 * host's process); an event the chart does not take comes back with the
 * guard that refused it and why, in the person's words; every watcher hears
 * each change, each tick of a running clock, and the close.
 */
import { type Actor, createActor, type InspectionEvent } from "xstate";
import {
  cancelledResult,
  type FormContext,
  type FormEvent,
  type FormOutcome,
  type FormResult,
  formState,
} from "./context.js";
import { type FormMachine, formMachine } from "./form.js";
import { editing, editorText, type FormPosition, type FormSnapshot, formPosition } from "./position.js";
import { type Refusal, refusalOf } from "./refusals.js";
import type { FormSpec } from "./spec.js";

export type { Refusal } from "./refusals.js";

export interface SessionOptions {
  spec: FormSpec;
  /** A restored draft. */
  restore?: FormContext;
  /** A snapshot of this form's machine to go on from (a review page replays routes from one). */
  snapshot?: FormSnapshot;
  inspect?: (event: InspectionEvent) => void;
  /** Said on every screen while the form is open (a draft was restored). */
  notice?: string;
}

/** What an event did: taken, or refused with the guard that refused it and why. */
export type Step = { taken: true } | ({ taken: false } & Refusal);

const TAKEN: Step = { taken: true };

/** Every screen is drawn again this often while a countdown or the answer clock shows. */
const TICK_MS = 250;

export class FormSession {
  readonly spec: FormSpec;
  readonly notice: string | undefined;
  readonly outcome: Promise<FormOutcome>;
  private readonly actor: Actor<FormMachine>;
  private readonly watchers = new Set<() => void>();
  private settle!: (outcome: FormOutcome) => void;
  private ended?: FormOutcome;
  /** The form's own error it closed on; the result is then a cancel. */
  private failure?: string;
  private waitStartedAt = 0;
  private clockStartedAt?: number;
  /** The clocks' time, read when one starts and on each tick: every draw between two ticks shows the same second. */
  private readAt = 0;
  private ticker?: ReturnType<typeof setInterval>;

  constructor(options: SessionOptions) {
    this.spec = options.spec;
    this.notice = options.notice;
    this.outcome = new Promise((resolve) => {
      this.settle = resolve;
    });
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
        const ticking =
          snapshot.status === "active" && position.kind !== "waiting" && snapshot.context.clock === "running";
        this.followClocks(position.kind === "waiting", previous?.kind === "waiting", ticking);
        previous = position;
        this.changed();
        if (snapshot.status === "done") this.finish(snapshot.output as FormResult);
      },
      error: (error) => this.fail(error),
    });
    this.actor.start();
  }

  get snapshot(): FormSnapshot {
    return this.actor.getSnapshot();
  }

  get position(): FormPosition {
    return formPosition(this.snapshot);
  }

  get closed(): boolean {
    return this.ended !== undefined;
  }

  /** The outcome once the form closed, for a caller that cannot wait a turn for the promise. */
  get settled(): FormOutcome | undefined {
    return this.ended;
  }

  /** What the open editor holds (a typed answer, a note, the additional notes); "" where none is open. */
  get editorText(): string {
    const position = this.position;
    return editing(position) ? editorText(position, this.snapshot.context) : "";
  }

  /** The event to the chart; refused, it says which guard refused it and why. */
  send(event: FormEvent): Step {
    if (this.closed) return { taken: false };
    const before = this.snapshot;
    this.actor.send(event);
    // An event the chart did not take leaves the snapshot as it was.
    if (this.snapshot !== before || this.closed) return TAKEN;
    return { taken: false, ...refusalOf(before, event) };
  }

  /** The person's first key, tap or click stops the answer clock for good. */
  stopClock(): void {
    if (this.snapshot.context.clock === "running" && this.position.kind !== "waiting")
      this.send({ type: "STOP_CLOCK" });
  }

  /** Called whenever the form is to be drawn again, and once when it closes; returns the way to stop. */
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** The request was withdrawn (an aborted call, a closed page): the form closes as cancelled. */
  abort(): void {
    if (!this.closed) this.actor.send({ type: "ABORT" });
  }

  /** A bug must not take the host down or lose what was typed: the form closes as cancelled, answers kept. */
  fail(error: unknown): void {
    if (this.closed) return;
    this.failure = error instanceof Error ? error.message : String(error);
    this.finish(cancelledResult(this.spec, this.snapshot.context));
  }

  /** The countdown before a waiting form opens, in milliseconds. */
  waitLeftMs(): number {
    return (this.spec.waitMs ?? 0) - (this.readAt - this.waitStartedAt);
  }

  /** What is left of the answer clock; undefined once a key stopped it, or where there is none. */
  answerLeftMs(): number | undefined {
    if (this.clockStartedAt === undefined) return undefined;
    return (this.spec.timeoutMs ?? 0) - (this.readAt - this.clockStartedAt);
  }

  /** Stops the actor and the clocks; the outcome, if not settled, never is. */
  dispose(): void {
    this.stopTicker();
    this.actor.stop();
  }

  private changed(): void {
    for (const watcher of this.watchers) watcher();
  }

  private followClocks(waiting: boolean, wasWaiting: boolean, ticking: boolean): void {
    if (waiting && !wasWaiting) {
      this.waitStartedAt = this.readAt = performance.now();
      this.startTicker();
    }
    if (ticking && this.clockStartedAt === undefined) {
      this.clockStartedAt = this.readAt = performance.now();
      this.startTicker();
    }
    if (!ticking) this.clockStartedAt = undefined;
    if (!waiting && !ticking) this.stopTicker();
  }

  private startTicker(): void {
    this.ticker ??= setInterval(() => {
      this.readAt = performance.now();
      this.changed();
    }, TICK_MS);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private finish(result: FormResult): void {
    if (this.closed) return;
    this.stopTicker();
    const outcome: FormOutcome = { result, context: formState(this.snapshot.context) };
    if (this.failure !== undefined) outcome.error = this.failure;
    this.ended = outcome;
    // Screens hear the close first (the terminal stops reporting the mouse), then the outcome settles.
    this.changed();
    this.settle(outcome);
  }
}
