/** `/qwizard`: help, status, auto-throttle settings and the question clock; anything else gets a specific error. */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { AutocompleteItem } from "@earendil-works/pi-tui";
import type { CommandReply } from "./commands.js";
import type { FormchartState } from "./state.js";

export const QWIZARD_HELP = [
  "/qwizard — question tools",
  "  /qwizard status                 registered tools and auto-throttle",
  "  /qwizard auto-throttle          show the auto-throttle setting",
  "  /qwizard auto-throttle on|off   switch auto-throttle",
  "  /qwizard auto-throttle <1-60>   set the cooldown between questions, in seconds",
  "  /qwizard clear                  forget when the last question was asked",
].join("\n");

function throttleLine(state: FormchartState): string {
  const s = state.settings;
  return `Auto-throttle: ${s.autoThrottle ? "on" : "off"}, ${s.cooldownSeconds} s between questions`;
}

function lastQuestionLine(state: FormchartState, now: number): string {
  const at = state.clock.lastQuestionAt;
  return at === undefined ? "Last question: none yet" : `Last question: ${Math.round((now - at) / 1000)} s ago`;
}

export async function runQwizard(
  args: string,
  state: FormchartState,
  registered: string[],
  // The question clock is monotonic: "N s ago" is measured on it, not on the wall clock.
  now = performance.now(),
): Promise<CommandReply> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const [sub, value, ...extra] = words;
  if (!sub || sub === "help") return { text: QWIZARD_HELP, level: "info" };
  if (sub === "status" && !value) {
    return {
      text: [
        `Tools: ${registered.join(", ") || "none"}`,
        throttleLine(state),
        lastQuestionLine(state, now),
        state.settingsProblem ? `Settings: not used: ${state.settingsProblem}` : `Settings: ${state.settingsFile}`,
      ].join("\n"),
      level: "info",
    };
  }
  if (sub === "clear" && !value) {
    state.clock.clear();
    return { text: "Question clock cleared: the next question will not wait.", level: "info" };
  }
  if (sub === "auto-throttle" && extra.length === 0) {
    if (value === undefined)
      return { text: `${throttleLine(state)}\nUsage: /qwizard auto-throttle on|off|<1-60>`, level: "info" };
    const change =
      value === "on" || value === "off"
        ? { autoThrottle: value === "on" }
        : /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 60
          ? { cooldownSeconds: Number(value) }
          : undefined;
    if (change) {
      const failed = await state.update(change);
      return failed
        ? { text: `${failed}\n${throttleLine(state)}`, level: "error" }
        : { text: throttleLine(state), level: "info" };
    }
    return {
      text: `"${value}" is not on, off or a whole number of seconds from 1 to 60.\nUsage: /qwizard auto-throttle on|off|<1-60>`,
      level: "error",
    };
  }
  return { text: `Unknown /qwizard command "${words.join(" ")}".\n${QWIZARD_HELP}`, level: "error" };
}

const SUBCOMMANDS: AutocompleteItem[] = [
  { value: "help", label: "help", description: "Show help" },
  { value: "status", label: "status", description: "Tools and auto-throttle settings" },
  { value: "auto-throttle", label: "auto-throttle", description: "Show or change auto-throttle" },
  { value: "clear", label: "clear", description: "Forget when the last question was asked" },
];

const THROTTLE_VALUES: AutocompleteItem[] = [
  { value: "auto-throttle on", label: "on", description: "Space questions out" },
  { value: "auto-throttle off", label: "off", description: "Never wait between questions" },
  ...[3, 5, 10, 30].map((n) => ({
    value: `auto-throttle ${n}`,
    label: String(n),
    description: `${n} seconds between questions`,
  })),
];

export function qwizardCompletions(prefix: string): AutocompleteItem[] | null {
  const trimmed = prefix.trimStart();
  if (trimmed.startsWith("auto-throttle ")) {
    const rest = trimmed.slice("auto-throttle ".length);
    const items = THROTTLE_VALUES.filter((i) => i.label.startsWith(rest));
    return items.length ? items : null;
  }
  // A whole subcommand needs no completion: a list would take the Enter that runs it.
  if (SUBCOMMANDS.some((i) => i.value === trimmed)) return null;
  const items = SUBCOMMANDS.filter((i) => i.value.startsWith(trimmed));
  return items.length ? items : null;
}

export function registerQwizardCommand(pi: ExtensionAPI, state: FormchartState, registered: string[]): void {
  pi.registerCommand("qwizard", {
    description: "Question tools: status, auto-throttle, clear",
    getArgumentCompletions: qwizardCompletions,
    handler: async (args, ctx) => {
      const reply = await runQwizard(args, state, registered);
      if (ctx.hasUI) ctx.ui.notify(reply.text, reply.level);
      else process.stdout.write(`${reply.text}\n`);
    },
  });
}
