/**
 * What the tools of one Pi process share: the settings file, the question
 * clock, the drafts, and the last form shown.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { FormResult } from "../machines/context.js";
import type { FormSpec } from "../machines/spec.js";
import { DRAFT_ENTRY, type DraftData, findDraft, formKey, hasInput } from "./drafts.js";
import { loadSettings, type Settings, saveSettings, settingsPath } from "./settings.js";
import type { ShowOutcome } from "./show-form.js";
import { QuestionClock } from "./throttle.js";

export const RESTORED_NOTICE = "↺ Restored what you entered before this form was closed.";

/** The part of the extension that draws forms, loaded when the first form opens. */
export const loadShowForm = () => import("./show-form.js");

export class FormchartState {
  readonly clock = new QuestionClock();
  readonly settingsFile: string;
  settings: Settings;
  /** The last form a person saw (for `/formchart graph` and `/formchart review`). */
  lastForm: FormSpec | undefined;
  /** How the tool that showed it maps a result to what the model reads (for `/formchart review`). */
  lastAnswer: ((result: FormResult) => { text: string; details: unknown }) | undefined;

  constructor(
    agentDir: string,
    /** Pi's `appendEntry`: where drafts are kept. */
    private readonly appendEntry?: (customType: string, data: unknown) => void,
  ) {
    this.settingsFile = settingsPath(agentDir);
    this.settings = loadSettings(this.settingsFile);
  }

  /**
   * Show a form: in the terminal, or through dialogs where the host has no
   * custom UI (RPC). A draft of the same form is restored; a form closed
   * without submit leaves a draft; a submit clears it. The question clock
   * restarts when the form closes.
   */
  async runForm(
    ctx: ExtensionContext,
    spec: FormSpec,
    signal: AbortSignal | undefined,
    answer?: FormchartState["lastAnswer"],
  ): Promise<ShowOutcome> {
    const key = formKey(spec);
    const restore = findDraft(ctx.sessionManager?.getBranch() ?? [], key, spec);
    const { showForm } = await loadShowForm();
    const outcome = await showForm(ctx, spec, { signal, restore, notice: restore ? RESTORED_NOTICE : undefined });
    if (outcome.kind !== "done") return outcome;
    this.lastForm = spec;
    this.lastAnswer = answer;
    this.clock.markClosed();
    if (outcome.result.cancelled) {
      if (hasInput(outcome.context))
        this.appendEntry?.(DRAFT_ENTRY, { key, context: outcome.context } satisfies DraftData);
    } else if (restore) {
      this.appendEntry?.(DRAFT_ENTRY, { key } satisfies DraftData);
    }
    if (outcome.error) {
      ctx.ui.notify(
        `pi-formchart: the form closed after an error (${outcome.error}); what was entered is kept and will be offered again.`,
        "error",
      );
    }
    return outcome;
  }

  update(change: Partial<Settings>): void {
    this.settings = { ...this.settings, ...change };
    saveSettings(this.settingsFile, this.settings);
  }

  /** How long a tool call must wait before its form opens (auto-throttle and the tool's own cooldown). */
  waitFor(toolCallId: string, ownCooldownSeconds = 0): number {
    const auto =
      this.clock.takeAutoThrottle(toolCallId) && this.settings.autoThrottle ? this.settings.cooldownSeconds : 0;
    return this.clock.remaining(Math.max(auto, ownCooldownSeconds));
  }
}
