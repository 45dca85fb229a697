/**
 * pi-formchart's extension entry: registers the form tools, the commands
 * and the session events with Pi. Registration reads static definitions
 * only; the form engine (statechart, terminal UI, compiled validators) is
 * loaded in the background after the session starts, or by the first form
 * that comes sooner.
 */
import { type ExtensionAPI, getAgentDir } from "@earendil-works/pi-coding-agent";
import { FORM_TOOLS } from "./catalog.js";
import { registerFormchartCommand, registerQwizardCommand } from "./commands.js";
import { registerElicit } from "./elicit.js";
import { registerEvents } from "./events.js";
import { registerFormTool } from "./form-tool.js";
import { type CompleteFn, registerRichCommand } from "./rich-command.js";
import { FormchartState } from "./state.js";

export interface FormchartOptions {
  /** Where the settings file lives; Pi's agent directory by default. */
  agentDir?: string;
  /**
   * How /rich-questions calls the model: by default the host's own
   * (`ctx.modelRegistry.complete` in Pi 1.x, pi-ai's `complete` before it).
   */
  complete?: CompleteFn;
}

export function createFormchart(options: FormchartOptions = {}) {
  return function formchart(pi: ExtensionAPI): void {
    const state = new FormchartState(options.agentDir ?? getAgentDir(), (type, data) => pi.appendEntry(type, data));
    const registered = FORM_TOOLS.filter((tool) => state.settings.tools.includes(tool.name));
    for (const tool of registered) registerFormTool(pi, state, tool);
    const names = registered.map((tool) => tool.name);
    registerRichCommand(pi, state, options.complete);
    registerQwizardCommand(pi, state, names);
    registerFormchartCommand(pi, state);
    registerEvents(pi, state, registered);
    registerElicit(pi, state);
  };
}

export default createFormchart();
