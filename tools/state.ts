/**
 * What the tools of one Pi process share: the settings file and the question clock.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { FormSpec } from "../machines/spec.js";
import { runForm, type RunOutcome } from "./run-form.js";
import { loadSettings, saveSettings, type Settings, settingsPath } from "./settings.js";
import { QuestionClock } from "./throttle.js";

export class FormchartState {
  readonly clock = new QuestionClock();
  readonly settingsFile: string;
  settings: Settings;
  /** The last form a person saw (for `/formchart graph`). */
  lastForm: FormSpec | undefined;

  constructor(agentDir: string) {
    this.settingsFile = settingsPath(agentDir);
    this.settings = loadSettings(this.settingsFile);
  }

  /** Show a form: remember it, and restart the question clock when it closes. */
  async runForm(ctx: ExtensionContext, spec: FormSpec, signal: AbortSignal | undefined): Promise<RunOutcome> {
    return runForm(ctx, spec, signal, () => {
      this.lastForm = spec;
      this.clock.markClosed();
    });
  }

  update(change: Partial<Settings>): void {
    this.settings = { ...this.settings, ...change };
    saveSettings(this.settingsFile, this.settings);
  }

  /** How long a tool call must wait before its form opens (auto-throttle and the tool's own cooldown). */
  waitFor(toolCallId: string, ownCooldownSeconds = 0): number {
    const auto = this.clock.takeAutoThrottle(toolCallId) && this.settings.autoThrottle ? this.settings.cooldownSeconds : 0;
    return this.clock.remaining(Math.max(auto, ownCooldownSeconds));
  }
}
