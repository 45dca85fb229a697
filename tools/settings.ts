/**
 * pi-formchart's settings, kept in `<Pi agent dir>/pi-formchart/settings.json`.
 *
 * Contract: a missing or unreadable file means the defaults (auto-throttle on,
 * 3 seconds, every tool registered, /rich-questions forcing a tool call); a malformed field falls back to its
 * default alone; saving writes the whole file atomically (temp file + rename).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FORM_TOOLS } from "./catalog.js";

/** Every tool's name, in registration order. */
export const ALL_TOOLS: readonly string[] = FORM_TOOLS.map((tool) => tool.name);

export interface Settings {
  autoThrottle: boolean;
  /** Seconds between questions while auto-throttle is on, 1–60. */
  cooldownSeconds: number;
  /** Which tools to register (every tool costs prompt tokens). */
  tools: string[];
  /** How /rich-questions asks the model: a forced tool call where the provider has one (`auto`), or JSON text. */
  richExtraction: "auto" | "text";
}

export const DEFAULT_SETTINGS: Settings = {
  autoThrottle: true,
  cooldownSeconds: 3,
  tools: [...ALL_TOOLS],
  richExtraction: "auto",
};

export function settingsPath(agentDir: string): string {
  return join(agentDir, "pi-formchart", "settings.json");
}

export function loadSettings(file: string): Settings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return { ...DEFAULT_SETTINGS, tools: [...DEFAULT_SETTINGS.tools] };
  }
  const r = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const cooldown = r.cooldownSeconds;
  return {
    autoThrottle: typeof r.autoThrottle === "boolean" ? r.autoThrottle : DEFAULT_SETTINGS.autoThrottle,
    cooldownSeconds:
      typeof cooldown === "number" && Number.isInteger(cooldown) && cooldown >= 1 && cooldown <= 60
        ? cooldown
        : DEFAULT_SETTINGS.cooldownSeconds,
    tools: Array.isArray(r.tools)
      ? r.tools.filter((t): t is string => typeof t === "string")
      : [...DEFAULT_SETTINGS.tools],
    richExtraction: r.richExtraction === "text" ? "text" : "auto",
  };
}

export function saveSettings(file: string, settings: Settings): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temp, file);
}
