/**
 * `/formchart`: the settings of forms (mouse, timeout, which tools the model
 * sees declared, with what each set costs) and the statechart or review page
 * of the last form. Changes are saved to the settings file; anything else
 * gets a specific error and the usage.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { AutocompleteItem } from "@earendil-works/pi-tui";

import type { DiagramFormat } from "../renderers/inspect/diagram.js";
import type { ToolLoadout } from "./loadout.js";
import { loadEngine, loadReviewPage } from "./on-demand.js";
import { TOOL_SEARCH } from "./request-cost.js";
import { MAX_TIMEOUT_SECONDS, type Settings, validTimeout } from "./settings.js";
import type { FormchartState } from "./state.js";
import { isToolSetName, TOOL_SETS } from "./tool-sets.js";
import { tryCompletions, tryForm } from "./try.js";
import { keyLabel, keyProblem } from "./waiting-names.js";

/** Each format the review page's code draws, and no other: the record's type holds both. */
const GRAPH_FORMAT_SET: Record<DiagramFormat, true> = { svg: true, mermaid: true, dot: true };
const GRAPH_FORMATS = Object.keys(GRAPH_FORMAT_SET) as DiagramFormat[];

export interface CommandReply {
  text: string;
  level: "info" | "warning" | "error";
}

export const FORMCHART_HELP = [
  "/formchart — pi-formchart",
  "  /formchart try [example|file.json]   open a form as a model's call would, and see what the model would get (nothing is sent)",
  "  /formchart graph [svg|mermaid|dot]   draw the statechart of the form shown last",
  "  /formchart review [--open]           write the review page of the form shown last (--open: open it in a browser)",
  "  /formchart mouse [on|off]            answer forms with the mouse too (off by default: it takes text selection away while a form is open)",
  "  /formchart web [on|off]              a link in each form's help line that answers it in a browser tab (off by default)",
  "  /formchart tools [compact|qwizard|all|none]  which tools the model sees directly, and what each set costs every request",
  "  /formchart timeout [off|<seconds>]   how long forms wait for a key before they close with the recommended options (off by default)",
  "  /formchart waiting [open|refuse|first <id>]  the questions asked with wait: false that wait, or one opened, refused or put first",
  "  /formchart key [<key>]               the key that opens a question asked with wait: false (alt+a by default; bound when Pi starts)",
].join("\n");

export type Opener = (file: string) => Promise<void>;

/** Fails on a non-zero exit within `graceMs` (xdg-open exits 3 without a browser); one still running has started one. */
export function commandOpener(command: string, args: readonly string[], graceMs = 2000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    const timer = setTimeout(() => {
      child.unref();
      resolve();
    }, graceMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}`));
    });
  });
}

export const platformOpener: Opener = (file) =>
  process.platform === "darwin"
    ? commandOpener("open", [file])
    : process.platform === "win32"
      ? commandOpener("cmd", ["/c", "start", '""', file])
      : commandOpener("xdg-open", [file]);

export async function runFormchart(
  args: string,
  state: FormchartState,
  open = platformOpener,
  more: { loadout?: ToolLoadout; progress?: (line: string | undefined) => void; searchSnippet?: string } = {},
): Promise<CommandReply> {
  const { loadout, progress } = more;
  const words = args.trim().split(/\s+/).filter(Boolean);
  const [sub, ...rest] = words;
  if (!sub || sub === "help") return { text: FORMCHART_HELP, level: "info" };
  if ((sub === "mouse" || sub === "web") && rest.length <= 1) return onOffSetting(state, sub, rest[0]);
  if (sub === "tools" && rest.length <= 1 && loadout) return toolsSetting(rest[0], state, loadout, more.searchSnippet);
  if (sub === "timeout" && rest.length <= 1) return timeoutSetting(rest[0], state);
  if (sub === "key" && rest.length <= 1) return keySetting(rest[0], state);
  const unknown = { text: `Unknown /formchart command "${args.trim()}".\n${FORMCHART_HELP}`, level: "error" } as const;
  const graph = sub === "graph" && rest.length <= 1 && (GRAPH_FORMATS as readonly string[]).includes(rest[0] ?? "svg");
  const review = sub === "review" && (rest.length === 0 || (rest.length === 1 && rest[0] === "--open"));
  if (!graph && !review) return unknown;
  if (!state.lastForm) return { text: "No form has been shown yet in this session.", level: "warning" };
  const dir = join(dirname(state.settingsFile), "graphs");
  mkdirSync(dir, { recursive: true });
  if (graph) {
    const format = (rest[0] ?? "svg") as DiagramFormat;
    const file = join(dir, `last-form.${format === "mermaid" ? "mmd" : format}`);
    try {
      const { renderDiagram } = await loadReviewPage();
      writeFileSync(file, await renderDiagram(state.lastForm.spec, format));
    } catch (error) {
      return { text: `Could not draw the statechart of the last form: ${firstLine(error)}`, level: "error" };
    }
    return { text: `Wrote the statechart of the last form to ${file}`, level: "info" };
  }
  const file = join(dir, "last-form.html");
  // A line that says how far the build is: a new phase at once, within a phase at most every quarter second.
  let said = 0;
  let saidPhase = "";
  const say = (phase: string, line: string) => {
    const now = performance.now();
    if (!progress || (phase === saidPhase && now - said < 250)) return;
    said = now;
    saidPhase = phase;
    progress(line);
  };
  const onSearch = (looked: number) => say("search", `Review page: searching the routes (${looked} states so far)`);
  const onProgress = (done: number, total: number) =>
    say("replay", `Review page: replaying route ${done + 1} of ${total}`);
  try {
    const { reviewPage } = await loadReviewPage();
    // Loading the page's code took a stretch of its own: Pi reads keys and draws before the build starts.
    await new Promise((resolve) => setImmediate(resolve));
    const page = await reviewPage({ ...state.lastForm, name: "last form" }, { onProgress, onSearch });
    writeFileSync(file, page);
  } catch (error) {
    return { text: `Could not build the review page of the last form: ${firstLine(error)}`, level: "error" };
  } finally {
    progress?.(undefined);
  }
  const wrote = `Wrote the review page of the last form to ${file}`;
  if (rest[0] !== "--open") return { text: wrote, level: "info" };
  try {
    await open(file);
    return { text: `${wrote} and opened it.`, level: "info" };
  } catch (error) {
    return { text: `${wrote}; opening it failed: ${(error as Error).message}`, level: "warning" };
  }
}

/** Never a stack. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0].trim() || "an unknown error";
}

/** Saves the change, then shows the setting as it stands, after why saving failed if it did. */
async function saved(state: FormchartState, change: Partial<Settings>, line: () => string): Promise<CommandReply> {
  const failed = await state.update(change);
  return failed ? { text: `${failed}\n${line()}`, level: "error" } : { text: line(), level: "info" };
}

const ON_OFF_LINES = {
  mouse: (s: Settings) =>
    `Mouse in forms: ${s.mouse ? "on (click an option, a tab or Submit; the wheel moves)" : "off"}`,
  web: (s: Settings) =>
    `Browser links in forms: ${s.web ? `on (served on ${s.webAddress} while a form is open)` : "off"}`,
};

async function onOffSetting(state: FormchartState, name: "mouse" | "web", value?: string): Promise<CommandReply> {
  const usage = `Usage: /formchart ${name} on|off`;
  const line = () => ON_OFF_LINES[name](state.settings);
  if (value === undefined) return { text: `${line()}\n${usage}`, level: "info" };
  if (value !== "on" && value !== "off") return { text: `"${value}" is not on or off.\n${usage}`, level: "error" };
  return saved(state, { [name]: value === "on" }, line);
}

async function keySetting(value: string | undefined, state: FormchartState): Promise<CommandReply> {
  const usage = "Usage: /formchart key <key> (alt+a, ctrl+shift+q, f6 …); Pi binds it when it starts again";
  const line = () => {
    const next = state.settings.waitingKey;
    const later = next === state.waitingKey ? "" : `; ${keyLabel(next)} from the next start`;
    return `The key that opens a waiting question: ${keyLabel(state.waitingKey)}${later}`;
  };
  if (value === undefined) return { text: `${line()}\n${usage}`, level: "info" };
  const key = value.toLowerCase();
  const problem = keyProblem(key);
  if (problem) return { text: `${problem} Choose another key.\n${usage}`, level: "error" };
  return saved(state, { waitingKey: key }, line);
}

async function timeoutSetting(value: string | undefined, state: FormchartState): Promise<CommandReply> {
  const usage = `Usage: /formchart timeout off|<seconds> (1 to ${MAX_TIMEOUT_SECONDS})`;
  const line = () => {
    const seconds = state.settings.timeoutSeconds;
    return seconds === undefined
      ? "Timeout of forms: off (a form waits until it is answered, unless the call sets a timeout)"
      : `Timeout of forms: ${seconds}s without a key, then the recommended options are taken (a key stops it)`;
  };
  if (value === undefined) return { text: `${line()}\n${usage}`, level: "info" };
  const seconds = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (value !== "off" && !validTimeout(seconds)) {
    return {
      text: `"${value}" is not off or a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}.\n${usage}`,
      level: "error",
    };
  }
  return saved(state, { timeoutSeconds: value === "off" ? undefined : seconds }, line);
}

async function toolsSetting(
  value: string | undefined,
  state: FormchartState,
  loadout: ToolLoadout,
  searchSnippet?: string,
): Promise<CommandReply> {
  const usage = `Usage: /formchart tools ${Object.keys(TOOL_SETS).join("|")}`;
  const row = (mark: boolean, name: string, chars: number, tools: readonly string[]) =>
    `${mark ? "●" : "○"} ${name.padEnd(8)} ${chars.toLocaleString("en-US").padStart(6)} chars  ${tools.join(", ") || "(none)"}`;
  const table = () => {
    const current = loadout.inForce;
    const rows = loadout
      .costs(searchSnippet)
      .map(({ name, chars, tools }) => row(name === current.name, name, chars, tools));
    if (current.name === "custom")
      rows.push(row(true, "custom", loadout.cost(current.tools, searchSnippet), current.tools));
    const hidden = loadout.hidden;
    const sets = loadout.defers
      ? hidden.length
        ? [
            ...(loadout.loaded.length ? [`Declared too, loaded with tool_search: ${loadout.loaded.join(", ")}.`] : []),
            `Not declared, callable by name: ${hidden.join(", ")} (tool_search loads a declaration; it is in the cost).`,
          ]
        : ["Every tool is declared."]
      : ["This Pi declares every tool it registers: it registers the tools of the set in force, and no other."];
    const notes = loadout.withoutUI
      ? ["No one can answer here (no UI): no form tool is declared (declareWithoutUI in the settings keeps them)."]
      : current.name === "none"
        ? ["No form tool is declared or callable."]
        : sets;
    const lines = state.settings.promptLines;
    const rules = `${lines ? (lines.length ? "your own (promptLines)" : "none (promptLines is empty)") : "the tools' own"}, ${loadout.ruleCost(current.tools).toLocaleString("en-US")} chars of the set in force`;
    return [
      "Tools declared to the model (characters every request carries):",
      ...rows,
      ...notes,
      `Prompt lines: ${rules} (promptLines in the settings file replaces them; [] removes them).`,
    ].join("\n");
  };
  if (value === undefined) return { text: `${table()}\n${usage}`, level: "info" };
  if (!isToolSetName(value)) return { text: `"${value}" is not a tool set.\n${usage}`, level: "error" };
  const failed = await state.update({ toolSet: value, tools: [...TOOL_SETS[value]] });
  if (failed) return { text: `${failed}\n${table()}`, level: "error" };
  const now = loadout.choose(value, TOOL_SETS[value]);
  const when = now
    ? "from the next request on"
    : "when Pi starts again (this Pi cannot change its tools while it runs)";
  return { text: `${table()}\nThe model sees the ${value} set ${when}.`, level: "info" };
}

const FORMCHART_COMPLETIONS = [
  "graph",
  ...GRAPH_FORMATS.map((format) => `graph ${format}`),
  "review",
  "review --open",
  "mouse",
  "mouse on",
  "mouse off",
  "web",
  "web on",
  "web off",
  "tools",
  ...Object.keys(TOOL_SETS).map((name) => `tools ${name}`),
  "timeout",
  "timeout off",
  "key",
  "waiting",
  "try",
  "help",
];

/** Nothing for a whole command: a completion list would take the Enter that runs it. */
export function formchartCompletions(prefix: string): AutocompleteItem[] | null {
  if (FORMCHART_COMPLETIONS.includes(prefix.trimStart())) return null;
  const tried = /^\s*try\s+(\S*)$/.exec(prefix);
  if (tried) {
    const names = tryCompletions(tried[1]);
    return names.length && !names.some((item) => item.label === tried[1]) ? names : null;
  }
  const options = FORMCHART_COMPLETIONS.filter((o) => o.startsWith(prefix.trimStart()));
  return options.length ? options.map((value) => ({ value, label: value })) : null;
}

export function registerFormchartCommand(pi: ExtensionAPI, state: FormchartState, loadout?: ToolLoadout): void {
  pi.registerCommand("formchart", {
    description: "Try a form (try [example|file]), the statechart or review page of the last form, the forms' settings",
    getArgumentCompletions: formchartCompletions,
    handler: async (args, ctx) => {
      const progress = ctx.hasUI ? (line: string | undefined) => ctx.ui.setStatus?.("formchart", line) : undefined;
      // Pi 1.x's prompt options hold every tool's line in the tool list; Pi 0.73 has none to give.
      const options = (
        ctx as { getSystemPromptOptions?: () => { toolSnippets?: Record<string, string> } }
      ).getSystemPromptOptions?.();
      const searchSnippet = options?.toolSnippets?.[TOOL_SEARCH];
      // Whatever still goes wrong reaches the person as one line, not as an error thrown into Pi.
      const words = args.trim().split(/\s+/);
      const running = /^try(\s|$)/.test(args.trim())
        ? tryForm(args.trim().slice(3), state, ctx)
        : words[0] === "waiting"
          ? loadEngine().then(async (e) => ({
              text: await e.waitingCommand(state, ctx, words.slice(1)),
              level: "info" as const,
            }))
          : runFormchart(args, state, platformOpener, { loadout, progress, searchSnippet });
      const reply = await running.catch(
        (error: unknown): CommandReply => ({ text: `/formchart ${args.trim()}: ${firstLine(error)}`, level: "error" }),
      );
      if (ctx.hasUI) ctx.ui.notify(reply.text, reply.level);
      else process.stdout.write(`${reply.text}\n`);
    },
  });
}
