/**
 * What the tools of one Pi process share: the settings file and the question clock.
 */
import { loadSettings, saveSettings, type Settings, settingsPath } from "./settings.js";
import { QuestionClock } from "./throttle.js";

export class FormchartState {
  readonly clock = new QuestionClock();
  readonly settingsFile: string;
  settings: Settings;

  constructor(agentDir: string) {
    this.settingsFile = settingsPath(agentDir);
    this.settings = loadSettings(this.settingsFile);
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
