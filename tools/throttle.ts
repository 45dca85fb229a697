/**
 * Spacing questions out: one clock shared by every question tool.
 *
 * Contract: the clock remembers when the last form closed. `question_throttle`
 * waits out its own cooldown from then; with auto-throttle on, every question
 * tool call seen by the `tool_call` event waits out the configured cooldown
 * too. The wait is the form machine's `waiting` state: a countdown the person
 * can cancel with Esc.
 */
/** More question calls than this are never in flight at once (a model's turn holds a few). */
const MAX_FLAGS = 64;

export class QuestionClock {
  private lastClosedAt: number | undefined;
  private readonly autoThrottled = new Set<string>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A form just closed. */
  markClosed(): void {
    this.lastClosedAt = this.now();
  }

  clear(): void {
    this.lastClosedAt = undefined;
  }

  get lastQuestionAt(): number | undefined {
    return this.lastClosedAt;
  }

  /** Milliseconds left of a cooldown measured from the last question. */
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

  /** Drop every flag not yet read (the session is closing). */
  forgetFlags(): void {
    this.autoThrottled.clear();
  }
}
