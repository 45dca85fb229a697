/**
 * A waiting form's countdown and the answer clock (shown until a key stops
 * it); while either runs, the form is drawn four times a second.
 */
import type { FormSpec } from "../../machines/spec.js";

export class FormClocks {
  private waitStartedAt = 0;
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

  waitLeftMs(spec: FormSpec): number {
    return (spec.waitMs ?? 0) - (performance.now() - this.waitStartedAt);
  }

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
