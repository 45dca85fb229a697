/**
 * What the tools of one Pi process share: the settings file, the question
 * clock, the drafts, and the last form shown.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { enteredContext, type FormResult, hasInput } from "../machines/context.js";
import type { FormSpec } from "../machines/spec.js";
import { safeLine } from "../renderers/text.js";
import { DRAFT_ENTRY, type DraftData, findDraft, formKey } from "./drafts.js";
import { namesTools, readSettings, type Settings, settingsPath, updateSettings } from "./settings.js";
import type { ShowOutcome } from "./show-form.js";
import { QuestionClock } from "./throttle.js";

export const RESTORED_NOTICE = "↺ Restored what you entered before this form was closed.";

/** The part of the extension that draws forms, loaded when the first form opens. */
export const loadShowForm = () => import("./show-form.js");

/** How long after the session starts the form engine is loaded, if no form has asked for it yet. */
export const WARM_UP_DELAY_MS = 200;

/** Run `step`, then let Pi handle input and draw before the next. */
const yieldToPi = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Load the form engine in the background, once Pi has drawn its screen, so
 * that the first form opens as fast as later ones: load it, draw a form off
 * screen, run each tool's argument check once. Each step takes a few
 * milliseconds and Pi runs between them, so its UI never stalls. The timer
 * never keeps Pi running (print mode exits as it would) and is cleared when
 * the session shuts down first; a failure is left for the first form to meet
 * and report.
 */
export function warmUp(
  tools: readonly { check(raw: unknown): unknown }[],
  /** The session's: a session that ends first never loads the engine. */
  signal: AbortSignal,
  delayMs = WARM_UP_DELAY_MS,
): void {
  if (signal.aborted) return;
  const timer = setTimeout(async () => {
    signal.removeEventListener("abort", stop);
    try {
      const { warmEngine } = await loadShowForm();
      await yieldToPi();
      warmEngine();
      await yieldToPi();
      for (const tool of tools) tool.check({});
    } catch {
      // The first form loads the engine again and reports what went wrong.
    }
  }, delayMs);
  timer.unref?.();
  const stop = () => clearTimeout(timer);
  signal.addEventListener("abort", stop, { once: true });
}

export class FormchartState {
  readonly clock = new QuestionClock();
  readonly settingsFile: string;
  settings: Settings;
  /** Why the settings file could not be used (when it was last read); nothing is written over it. */
  settingsProblem: string | undefined;
  /** The settings file named a tool set when Pi started (else each host has its own default set). */
  readonly toolSetNamed: boolean;
  /** The last form a person saw (for `/formchart graph` and `/formchart review`). */
  lastForm: FormSpec | undefined;
  /** How the tool that showed it maps a result to what the model reads (for `/formchart review`). */
  lastAnswer: ((result: FormResult) => { text: string; details: unknown }) | undefined;
  /** Aborted when Pi shuts the session down: none opens after. */
  private readonly closing = new AbortController();
  /** The forms open now, each with what closes it; shutdown closes them all. */
  private readonly open = new Map<Promise<unknown>, AbortController>();

  constructor(
    agentDir: string,
    /** Pi's `appendEntry`: where drafts are kept. */
    private readonly appendEntry?: (customType: string, data: unknown) => void,
  ) {
    this.settingsFile = settingsPath(agentDir);
    const loaded = readSettings(this.settingsFile);
    this.settings = loaded.settings;
    this.settingsProblem = loaded.problem;
    this.toolSetNamed = namesTools(loaded.stored);
  }

  /**
   * Show a form: in the terminal, or through dialogs where the host has no
   * custom UI (RPC). A draft of the same form is restored; a form closed
   * without submit leaves a draft; a submit clears it. The question clock
   * restarts when the form closes.
   */
  runForm(
    ctx: ExtensionContext,
    spec: FormSpec,
    signal: AbortSignal | undefined,
    answer?: FormchartState["lastAnswer"],
  ): Promise<ShowOutcome> {
    // Each form has a signal of its own, aborted by the call's or at shutdown. Nothing is added
    // to the session's signal per form: any number may be open, and none leaves anything behind.
    const form = new AbortController();
    const close = () => form.abort();
    if (this.closed.aborted || signal?.aborted) close();
    signal?.addEventListener("abort", close, { once: true });
    const running = this.showAndKeep(ctx, spec, form.signal, answer);
    this.open.set(running, form);
    // Not an async function: an open form holds one suspended call less.
    const settled = () => {
      this.open.delete(running);
      signal?.removeEventListener("abort", close);
    };
    running.then(settled, settled);
    return running;
  }

  /** Aborted when the session shuts down. */
  get closed(): AbortSignal {
    return this.closing.signal;
  }

  /**
   * The session is shutting down: close every open form (its countdown and
   * timers stop, what was entered is kept as a draft), forget the calls
   * flagged for auto-throttle, and wait for the forms to settle, for at most
   * `waitMs` (a host dialog that ignores its abort signal must not hold Pi).
   */
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

  private async showAndKeep(
    ctx: ExtensionContext,
    spec: FormSpec,
    signal: AbortSignal,
    answer: FormchartState["lastAnswer"],
  ): Promise<ShowOutcome> {
    const key = formKey(spec);
    const restore = findDraft(ctx.sessionManager?.getBranch() ?? [], key, spec);
    const { showForm } = await loadShowForm();
    const outcome = await showForm(ctx, spec, {
      signal,
      restore,
      notice: restore ? RESTORED_NOTICE : undefined,
      mouse: this.settings.mouse,
    });
    if (outcome.kind !== "done") return outcome;
    this.lastForm = spec;
    this.lastAnswer = answer;
    this.clock.markClosed();
    if (outcome.result.cancelled) {
      // A draft keeps what the person entered: never the options a timeout took for them.
      const entered = enteredContext(spec, outcome.context);
      if (hasInput(spec, entered)) this.appendEntry?.(DRAFT_ENTRY, { key, context: entered } satisfies DraftData);
    } else if (restore) {
      this.appendEntry?.(DRAFT_ENTRY, { key } satisfies DraftData);
    }
    if (outcome.error) {
      ctx.ui.notify(
        `pi-formchart: the form closed after an error (${safeLine(outcome.error, 300)}); what was entered is kept and will be offered again.`,
        "error",
      );
    }
    return outcome;
  }

  /**
   * Save a settings change: only its keys, over what the file holds now
   * (changes made in other sessions or by hand are kept, and from then on in
   * effect here too); it takes effect only once it is written. Returns why
   * it was not, if it was not.
   */
  update(change: Partial<Settings>): string | undefined {
    let saved: ReturnType<typeof updateSettings>;
    try {
      saved = updateSettings(this.settingsFile, change);
    } catch (error) {
      return `Not saved: ${this.settingsFile} cannot be written (${(error as Error).message}).`;
    }
    this.settingsProblem = saved.problem;
    if (saved.problem) return `Not saved: ${saved.problem}. Fix or remove the file, then try again.`;
    this.settings = saved.settings;
    return undefined;
  }

  /** How long a tool call must wait before its form opens (auto-throttle and the tool's own cooldown). */
  waitFor(toolCallId: string, ownCooldownSeconds = 0): number {
    const auto =
      this.clock.takeAutoThrottle(toolCallId) && this.settings.autoThrottle ? this.settings.cooldownSeconds : 0;
    return this.clock.remaining(Math.max(auto, ownCooldownSeconds));
  }
}
