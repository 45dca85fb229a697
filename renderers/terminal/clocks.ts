/**
 * The clocks an open form shows: the countdown of a form that waits before
 * it takes keys, and the answer clock of a form with a timeout, which runs
 * from when the form is shown until a key stops it. While either runs, the
 * form is drawn again four times a second.
 */
import type { FormSpec } from "../../machines/spec.js";

export class FormClocks {
  private waitStartedAt = 0;
  /** When the answer clock started (a form with a timeout), while it runs. */
  private clockStartedAt?: number;
  private ticker?: ReturnType<typeof setInterval>;

  constructor(private readonly repaint: () => void) {}

  /** After each snapshot: whether the form waits now and did before, and whether the answer clock runs. */
  follow(waiting: boolean, wasWaiting: boolean, ticking: boolean): void {
    if (waiting && !wasWaiting) {
      this.waitStartedAt = performance.now();
      this.startTicker();
    }
    if (ticking && this.clockStartedAt === undefined) {
      this.clockStartedAt = performance.now();
      this.startTicker();
    }
    if (!ticking) this.clockStartedAt = undefined;
    if (!waiting && !ticking) this.stop();
  }

  /** What is left of the countdown (meaningful while the form waits). */
  waitLeftMs(spec: FormSpec): number {
    return (spec.waitMs ?? 0) - (performance.now() - this.waitStartedAt);
  }

  /** What is left of the answer clock, while it runs. */
  answerLeftMs(spec: FormSpec): number | undefined {
    if (this.clockStartedAt === undefined) return undefined;
    return (spec.timeoutMs ?? 0) - (performance.now() - this.clockStartedAt);
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private startTicker(): void {
    this.ticker ??= setInterval(this.repaint, 250);
  }
}
