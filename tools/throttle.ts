/**
 * Spacing questions out: one clock shared by every question tool, counting
 * from when the last form closed. The wait is the form machine's `waiting`
 * state, a countdown the person can cancel.
 */
/** More question calls than this are never in flight at once (a model's turn holds a few). */
const MAX_FLAGS = 64;

export class QuestionClock {
  private lastClosedAt: number | undefined;
  private readonly autoThrottled = new Set<string>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  markClosed(): void {
    this.lastClosedAt = this.now();
  }

  clear(): void {
    this.lastClosedAt = undefined;
  }

  get lastQuestionAt(): number | undefined {
    return this.lastClosedAt;
  }

  remaining(cooldownSeconds: number): number {
    if (this.lastClosedAt === undefined) return 0;
    return Math.max(0, cooldownSeconds * 1000 - (this.now() - this.lastClosedAt));
  }

  /**
   * The `tool_call` event flags a call for auto-throttling; the tool reads the
   * flag once. A call another extension blocks is never executed and never
   * reads its flag: only the most recent flags are kept, so those do not pile up.
   */
  flagAutoThrottle(toolCallId: string): void {
    this.autoThrottled.add(toolCallId);
    if (this.autoThrottled.size > MAX_FLAGS)
      this.autoThrottled.delete(this.autoThrottled.values().next().value as string);
  }

  takeAutoThrottle(toolCallId: string): boolean {
    return this.autoThrottled.delete(toolCallId);
  }

  forgetFlags(): void {
    this.autoThrottled.clear();
  }
}
