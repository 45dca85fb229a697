/**
 * pi-formchart's extension entry. Registration reads static definitions
 * only; the engine loads after the session starts, or with the first form.
 */
import { type ExtensionAPI, getAgentDir, VERSION } from "@earendil-works/pi-coding-agent";
import { registerFormchartCommand } from "./commands.js";
import { registerElicit } from "./elicit.js";
import { registerEvents } from "./events.js";
import { registerFormEvents } from "./form-events.js";
import { ToolLoadout } from "./loadout.js";
import { registerQwizardCommand } from "./qwizard-command.js";
import { type CompleteFn, registerRichCommand } from "./rich-command.js";
import { FormchartState } from "./state.js";
import { hostDefersTools } from "./tool-sets.js";
import { registerWaiting } from "./waiting.js";

// The API other extensions import: the built entry of `import … from "pi-formchart"` takes it from here,
// so it is loaded through Pi's loader like the extension (scripts/build.ts).
export * from "./api.js";

export interface FormchartOptions {
  agentDir?: string;
  /** How /rich-questions calls the model; the host's own by default. */
  complete?: CompleteFn;
  /** The host's version (Pi's `VERSION` by default): 1.x registers tools it does not declare. */
  hostVersion?: string;
}

export function createFormchart(options: FormchartOptions = {}) {
  return function formchart(pi: ExtensionAPI): void {
    const state = new FormchartState(
      options.agentDir ?? getAgentDir(),
      (type, data) => pi.appendEntry(type, data),
      (message, delivery) => pi.sendMessage(message, delivery),
    );
    const loadout = new ToolLoadout(pi, state, hostDefersTools(options.hostVersion ?? VERSION));
    const names = loadout.registered.map((tool) => tool.name);
    registerRichCommand(pi, state, options.complete);
    registerQwizardCommand(pi, state, names);
    registerFormchartCommand(pi, state, loadout);
    registerEvents(pi, state, loadout);
    registerElicit(pi, state);
    registerWaiting(pi, state);
    registerFormEvents(pi, state.forms);
  };
}

export default createFormchart();
