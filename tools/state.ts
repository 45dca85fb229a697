/**
 * What the tools of one Pi process share: the settings file, the question
 * clock, the forms open now, and the last form shown. Data only: what shows
 * a form and keeps its draft is the engine's (tools/engine/run.ts).
 */
import type { FormResult } from "../machines/context.js";
import type { FormSpec } from "../machines/spec.js";
import { OpenForms } from "./form-events.js";
import { namesTools, readSettings, type Settings, settingsPath, updateSettings } from "./settings.js";
import { QuestionClock } from "./throttle.js";

export interface ModelMessage {
  customType: string;
  content: string;
  display: boolean;
  details: unknown;
}

export type SendMessage = (
  message: ModelMessage,
  options: { deliverAs: "steer" | "followUp" | "nextTurn"; triggerTurn?: boolean },
) => void;

export interface ShownForm {
  spec: FormSpec;
  answer?(result: FormResult): { text: string; details: unknown };
}

/**
 * What the engine hands a closed form to, and nothing else of the state: the
 * form kept as the last one shown, an entry recorded in the session, and the
 * question clock told that a form closed.
 */
export interface FormKeeper {
  keep(form: ShownForm): void;
  record(customType: string, data: unknown): void;
  readonly clock: { markClosed(): void };
}

export class FormchartState implements FormKeeper {
  readonly clock = new QuestionClock();
  /** The forms open now, as other extensions see them (tools/form-events.ts). */
  readonly forms = new OpenForms();
  readonly settingsFile: string;
  settings: Settings;
  /** Why the settings file could not be used; nothing is written over it. */
  settingsProblem: string | undefined;
  /** Why the stored open key was not bound (the default is), said when a session starts. */
  readonly keyWarning: string | undefined;
  /** Else each host has its own default set. */
  readonly toolSetNamed: boolean;
  private shown: ShownForm | undefined;
  /** The key bound to open a waiting question: the setting as Pi started (a shortcut is bound once). */
  readonly waitingKey: string;
  /** How each question asked with `wait: false` ended, by id: its tool line says so. */
  readonly waitingEnds = new Map<string, string>();
  private readonly closing = new AbortController();
  private readonly open = new Map<Promise<unknown>, AbortController>();

  constructor(
    readonly agentDir: string,
    readonly appendEntry?: (customType: string, data: unknown) => void,
    readonly sendMessage?: SendMessage,
  ) {
    this.settingsFile = settingsPath(agentDir);
    const loaded = readSettings(this.settingsFile);
    this.settings = loaded.settings;
    this.settingsProblem = loaded.problem;
    this.keyWarning = loaded.keyWarning;
    this.toolSetNamed = namesTools(loaded.stored);
    this.waitingKey = this.settings.waitingKey;
  }

  /** The last form shown, for `/formchart graph` and `review`. */
  get lastForm(): ShownForm | undefined {
    return this.shown;
  }

  keep(form: ShownForm): void {
    this.shown = form;
  }

  /** An entry in Pi's session; none where the host keeps no session. */
  record(customType: string, data: unknown): void {
    this.appendEntry?.(customType, data);
  }

  /** Nothing is added to the session's signal per form: any number may be open, and none leaves anything behind. */
  track<T>(signal: AbortSignal | undefined, show: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const form = new AbortController();
    const close = () => form.abort();
    if (this.closed.aborted || signal?.aborted) close();
    const detach = signal ? onAbort(signal, close) : undefined;
    const running = show(form.signal);
    this.open.set(running, form);
    // Not an async function: an open form holds one suspended call less.
    const settled = () => {
      this.open.delete(running);
      detach?.();
    };
    running.then(settled, settled);
    return running;
  }

  get closed(): AbortSignal {
    return this.closing.signal;
  }

  /** Waits at most `waitMs`: a host dialog that ignores its abort signal must not hold Pi. */
  async shutdown(waitMs = 2000): Promise<void> {
    this.closing.abort();
    for (const form of this.open.values()) form.abort();
    this.clock.forgetFlags();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref?.();
    });
    await Promise.race([Promise.allSettled([...this.open.keys()]), limit]);
    clearTimeout(timer);
  }

  /** Takes effect only once written (with what others wrote meanwhile); returns why it was not. */
  async update(change: Partial<Settings>): Promise<string | undefined> {
    let saved: Awaited<ReturnType<typeof updateSettings>>;
    try {
      saved = await updateSettings(this.settingsFile, change);
    } catch (error) {
      return `Not saved: ${this.settingsFile} cannot be written (${(error as Error).message}).`;
    }
    this.settingsProblem = saved.problem;
    if (saved.problem) return `Not saved: ${saved.problem}. Fix or remove the file, then try again.`;
    this.settings = saved.settings;
    return undefined;
  }

  waitFor(toolCallId: string | undefined, ownCooldownSeconds = 0): number {
    const auto =
      toolCallId !== undefined && this.clock.takeAutoThrottle(toolCallId) && this.settings.autoThrottle
        ? this.settings.cooldownSeconds
        : 0;
    return this.clock.remaining(Math.max(auto, ownCooldownSeconds));
  }
}

const closers = new WeakMap<AbortSignal, { all: Set<() => void>; listener: () => void }>();

/**
 * Pi hands every tool call of a run the same signal, so its forms share one
 * listener (each new listener is compared with the whole list), taken off by
 * the last of them: a closed form leaves nothing on the signal.
 */
function onAbort(signal: AbortSignal, close: () => void): () => void {
  let waiting = closers.get(signal);
  if (!waiting) {
    const all = new Set<() => void>();
    const listener = () => {
      closers.delete(signal);
      for (const closeOne of all) closeOne();
    };
    waiting = { all, listener };
    closers.set(signal, waiting);
    signal.addEventListener("abort", listener, { once: true });
  }
  const mine = waiting;
  mine.all.add(close);
  return () => {
    mine.all.delete(close);
    if (mine.all.size > 0 || closers.get(signal) !== mine) return;
    closers.delete(signal);
    signal.removeEventListener("abort", mine.listener);
  };
}
