/**
 * pi-formchart's extension entry: registers the question tools, `/qwizard`
 * and the session events with Pi.
 */
import { complete } from "@mariozechner/pi-ai";
import { type ExtensionAPI, getAgentDir } from "@mariozechner/pi-coding-agent";
import { registerFormchartCommand, registerQwizardCommand } from "./commands.js";
import { registerEvents } from "./events.js";
import { registerQuestion } from "./question.js";
import { registerQwizard } from "./qwizard.js";
import { registerRich } from "./rich.js";
import { type CompleteFn, registerRichCommand } from "./rich-command.js";
import { ALL_TOOLS } from "./settings.js";
import { FormchartState } from "./state.js";

export interface FormchartOptions {
  /** Where the settings file lives; Pi's agent directory by default. */
  agentDir?: string;
  /** How /rich-questions calls the model; pi-ai's `complete` by default. */
  complete?: CompleteFn;
}

export function createFormchart(options: FormchartOptions = {}) {
  return function formchart(pi: ExtensionAPI): void {
    const state = new FormchartState(options.agentDir ?? getAgentDir(), (type, data) => pi.appendEntry(type, data));
    const enabled = (name: string) => state.settings.tools.includes(name);
    const registered = ALL_TOOLS.filter(enabled);
    if (enabled("question")) registerQuestion(pi, state);
    registerQwizard(pi, state, enabled);
    if (enabled("ask_rich_questions")) registerRich(pi, state);
    registerRichCommand(pi, state, options.complete ?? complete);
    registerQwizardCommand(pi, state, registered);
    registerFormchartCommand(pi, state);
    registerEvents(pi, state, registered);
  };
}

export default createFormchart();
