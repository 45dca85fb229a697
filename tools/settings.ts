/**
 * pi-formchart's settings, kept in `<Pi agent dir>/pi-formchart/settings.json`.
 *
 * Contract: a missing file means the defaults (auto-throttle on, 3 seconds,
 * the compact tool set, /rich-questions forcing a tool call); a malformed
 * field falls back to its default alone; a file that cannot be read or is not
 * a JSON object is reported and never overwritten (the defaults apply until
 * it is fixed); saving keeps keys this version does not know and writes
 * atomically (temporary file + rename).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  ALL_TOOL_NAMES,
  DEFAULT_TOOL_SET,
  isToolSetName,
  setOfTools,
  TOOL_SETS,
  type ToolSetName,
} from "./tool-sets.js";

/** Every tool's name, in registration order. */
export const ALL_TOOLS: readonly string[] = ALL_TOOL_NAMES;

export interface Settings {
  autoThrottle: boolean;
  /** Seconds between questions while auto-throttle is on, 1–60. */
  cooldownSeconds: number;
  /**
   * The named set of tools the model sees directly (`custom`: the file lists
   * its own in `tools`). Every declared tool costs context in every request.
   */
  toolSet: ToolSetName | "custom";
  /** The tools the model sees directly: the set's, or the file's own list. */
  tools: string[];
  /** How /rich-questions asks the model: a forced tool call where the provider has one (`auto`), or JSON text. */
  richExtraction: "auto" | "text";
  /** Forms take clicks and the wheel (SGR mouse reporting while a form has focus). */
  mouse: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  autoThrottle: true,
  cooldownSeconds: 3,
  toolSet: DEFAULT_TOOL_SET,
  tools: [...TOOL_SETS[DEFAULT_TOOL_SET]],
  richExtraction: "auto",
  mouse: false,
};

export function settingsPath(agentDir: string): string {
  return join(agentDir, "pi-formchart", "settings.json");
}

/** The settings in effect, the file's own content (unknown keys included), and why the file could not be used. */
export interface LoadedSettings {
  settings: Settings;
  stored: Record<string, unknown>;
  problem?: string;
}

function defaults(): Settings {
  return { ...DEFAULT_SETTINGS, tools: [...DEFAULT_SETTINGS.tools] };
}

/** Read the settings file; a missing file means the defaults, a broken one the defaults and a problem to report. */
export function readSettings(file: string): LoadedSettings {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { settings: defaults(), stored: {} };
    return { settings: defaults(), stored: {}, problem: `${file} cannot be read (${(error as Error).message})` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { settings: defaults(), stored: {}, problem: `${file} is not valid JSON (${(error as Error).message})` };
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    return { settings: defaults(), stored: {}, problem: `${file} does not hold a JSON object` };
  }
  const r = raw as Record<string, unknown>;
  const cooldown = r.cooldownSeconds;
  const settings: Settings = {
    autoThrottle: typeof r.autoThrottle === "boolean" ? r.autoThrottle : DEFAULT_SETTINGS.autoThrottle,
    cooldownSeconds:
      typeof cooldown === "number" && Number.isInteger(cooldown) && cooldown >= 1 && cooldown <= 60
        ? cooldown
        : DEFAULT_SETTINGS.cooldownSeconds,
    ...toolsOf(r),
    richExtraction: r.richExtraction === "text" ? "text" : "auto",
    mouse: r.mouse === true,
  };
  return { settings, stored: r };
}

/** A named set wins; a list of tools of one's own (older files, or written by hand) is a custom set. */
function toolsOf(r: Record<string, unknown>): Pick<Settings, "toolSet" | "tools"> {
  if (isToolSetName(r.toolSet)) return { toolSet: r.toolSet, tools: [...TOOL_SETS[r.toolSet]] };
  if (Array.isArray(r.tools)) {
    const tools = r.tools.filter((t): t is string => ALL_TOOLS.includes(t));
    return { toolSet: setOfTools(tools) ?? "custom", tools };
  }
  return { toolSet: DEFAULT_TOOL_SET, tools: [...TOOL_SETS[DEFAULT_TOOL_SET]] };
}

/**
 * Write the settings over what the file held (keys this version does not
 * know are kept), atomically: a temporary file beside it, then a rename.
 * Throws when the file cannot be written.
 */
export function saveSettings(file: string, settings: Settings, stored: Record<string, unknown> = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify({ ...stored, ...settings }, null, 2)}\n`);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
