/**
 * pi-formchart's settings, in `<Pi agent dir>/pi-formchart/settings.json`.
 *
 * Contract: a missing file means the defaults; a malformed field falls back
 * to its default alone; a file that cannot be read or holds no JSON object is
 * reported and never overwritten. A change writes only its keys over what the
 * file holds then, under the file's lock, atomically, through a symbolic link
 * to its target (mode kept): changes made elsewhere survive every later save.
 */
import { chmodSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { isIP } from "node:net";
import { dirname, join, resolve } from "node:path";
import { LIMITS } from "../schemas/fields.js";
import { TOOL_NAMES } from "./catalog.js";
import { DEFAULT_TOOL_SET, isToolSetName, setOfTools, TOOL_SETS, type ToolSetName } from "./tool-sets.js";
import { keyLabel, keyProblem, validKey, WAITING_KEY } from "./waiting-names.js";

export interface Settings {
  autoThrottle: boolean;
  /** Seconds between questions while auto-throttle is on, 1–60. */
  cooldownSeconds: number;
  /** `custom`: the file lists its own `tools`. */
  toolSet: ToolSetName | "custom";
  tools: string[];
  /** How /rich-questions asks the model: a forced tool call where the provider has one (`auto`), or JSON text. */
  richExtraction: "auto" | "text";
  /** Forms take clicks and the wheel (SGR mouse reporting while a form has focus). */
  mouse: boolean;
  /** Seconds a form waits for a first key when the call sets no `timeout`; undefined: none. */
  timeoutSeconds?: number;
  /** A terminal bell when a question asked with `wait: false` starts waiting. */
  bell: boolean;
  /** The terminal's title says how many questions asked with `wait: false` wait. */
  waitingTitle: boolean;
  /** The key that opens a question asked with `wait: false` (`alt+a`); read when Pi starts. */
  waitingKey: string;
  /** Whether such an answer arriving while the agent is idle starts a turn or waits for the next prompt. */
  deliverWhenIdle: "start-turn" | "next-prompt";
  /** The form tools stay declared in print and JSON mode, for a pipeline that wants their `no_ui` result. */
  declareWithoutUI: boolean;
  /** The person's own prompt lines in place of the tools' rules; undefined: the tools' own. */
  promptLines?: string[];
  /** The terminal's forms give a link that answers them in a browser tab too (RPC mode always offers one). */
  web: boolean;
  /** The address the browser tab's server listens on: an IP address, 127.0.0.1 unless set (docs/web.md: the risk). */
  webAddress: string;
}

export const DEFAULT_SETTINGS: Settings = {
  autoThrottle: true,
  cooldownSeconds: 3,
  toolSet: DEFAULT_TOOL_SET,
  tools: [...TOOL_SETS[DEFAULT_TOOL_SET]],
  richExtraction: "auto",
  mouse: false,
  bell: false,
  waitingTitle: true,
  waitingKey: WAITING_KEY,
  deliverWhenIdle: "start-turn",
  declareWithoutUI: false,
  web: false,
  webAddress: "127.0.0.1",
};

export function settingsPath(agentDir: string): string {
  return join(agentDir, "pi-formchart", "settings.json");
}

/** `stored`: the file's own content, unknown keys included. */
export interface LoadedSettings {
  settings: Settings;
  stored: Record<string, unknown>;
  problem?: string;
  /** A stored open key that is not bound, and why: the default is bound instead. */
  keyWarning?: string;
}

/** Whether the file names a tool set (or a list of its own) rather than leaving it to the host's default. */
export function namesTools(stored: Record<string, unknown>): boolean {
  return isToolSetName(stored.toolSet) || Array.isArray(stored.tools);
}

function defaults(): Settings {
  return { ...DEFAULT_SETTINGS, tools: [...DEFAULT_SETTINGS.tools] };
}

/** `{}` for a missing file, with the problem when it cannot be read or holds no object. */
export function readJsonObject(file: string): { stored: Record<string, unknown>; problem?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { stored: {} };
    return { stored: {}, problem: `${file} cannot be read (${(error as Error).message})` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { stored: {}, problem: `${file} is not valid JSON (${(error as Error).message})` };
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    return { stored: {}, problem: `${file} does not hold a JSON object` };
  }
  return { stored: raw as Record<string, unknown> };
}

export function readSettings(file: string): LoadedSettings {
  const read = readJsonObject(file);
  if (read.problem) return { settings: defaults(), stored: {}, problem: read.problem };
  const key = read.stored.waitingKey;
  const why =
    key === undefined || validKey(key) ? undefined : keyProblem(typeof key === "string" ? key : JSON.stringify(key));
  return {
    settings: settingsOf(read.stored),
    stored: read.stored,
    ...(why ? { keyWarning: `waitingKey not used: ${why} ${keyLabel(WAITING_KEY)} opens questions that wait.` } : {}),
  };
}

function settingsOf(r: Record<string, unknown>): Settings {
  const cooldown = r.cooldownSeconds;
  return {
    autoThrottle: typeof r.autoThrottle === "boolean" ? r.autoThrottle : DEFAULT_SETTINGS.autoThrottle,
    cooldownSeconds:
      typeof cooldown === "number" && Number.isInteger(cooldown) && cooldown >= 1 && cooldown <= 60
        ? cooldown
        : DEFAULT_SETTINGS.cooldownSeconds,
    ...toolsOf(r),
    richExtraction: r.richExtraction === "text" ? "text" : "auto",
    mouse: r.mouse === true,
    bell: r.bell === true,
    waitingTitle: r.waitingTitle !== false,
    waitingKey: validKey(r.waitingKey) ? r.waitingKey : WAITING_KEY,
    deliverWhenIdle: r.deliverWhenIdle === "next-prompt" ? "next-prompt" : "start-turn",
    declareWithoutUI: r.declareWithoutUI === true,
    web: r.web === true,
    webAddress: typeof r.webAddress === "string" && isIP(r.webAddress) ? r.webAddress : DEFAULT_SETTINGS.webAddress,
    ...(validTimeout(r.timeoutSeconds) ? { timeoutSeconds: r.timeoutSeconds } : {}),
    ...(validLines(r.promptLines) ? { promptLines: r.promptLines.map((line) => line.trim()).filter(Boolean) } : {}),
  };
}

function validLines(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((line) => typeof line === "string" && !/[\r\n]/.test(line));
}

export const MAX_TIMEOUT_SECONDS = LIMITS.timeoutSeconds;

export function validTimeout(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_SECONDS;
}

/** A named set wins; a list of tools of one's own (older files, or written by hand) is a custom set. */
function toolsOf(r: Record<string, unknown>): Pick<Settings, "toolSet" | "tools"> {
  if (isToolSetName(r.toolSet)) return { toolSet: r.toolSet, tools: [...TOOL_SETS[r.toolSet]] };
  if (Array.isArray(r.tools)) {
    const tools = r.tools.filter((t): t is string => (TOOL_NAMES as readonly unknown[]).includes(t));
    return { toolSet: setOfTools(tools) ?? "custom", tools };
  }
  return { toolSet: DEFAULT_TOOL_SET, tools: [...TOOL_SETS[DEFAULT_TOOL_SET]] };
}

/** Throws when the file cannot be written. */
export function saveSettings(file: string, settings: Settings, stored: Record<string, unknown> = {}): void {
  const target = linkTarget(file);
  mkdirSync(dirname(target), { recursive: true });
  writeAtomically(target, { ...stored, ...settings });
}

/** Linux's own limit: a loop of links ends. */
const MAX_LINKS = 40;

/** The links followed, to a target that need not exist yet: a rename over a link would replace the link. */
function linkTarget(file: string): string {
  let path = resolve(file);
  for (let links = 0; links < MAX_LINKS; links++) {
    let next: string;
    try {
      next = readlinkSync(path);
    } catch {
      return path;
    }
    path = resolve(dirname(path), next);
  }
  throw new Error(`${file} passes through more than ${MAX_LINKS} symbolic links`);
}

function writeAtomically(target: string, content: Record<string, unknown>): void {
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(content, null, 2)}\n`);
    const mode = modeOf(target);
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function modeOf(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o7777;
  } catch {
    return undefined;
  }
}

const require = createRequire(import.meta.url);

// A save holds the lock for milliseconds, so one older than `stale` was left by a process that died;
// the retries (about 6 s in all) outlast `stale`, so such a lock is taken over rather than refused.
const LOCK_OPTIONS = {
  stale: 5000,
  retries: { retries: 60, minTimeout: 10, maxTimeout: 100 },
  realpath: false,
  // The work under the lock is synchronous: the lock's renewal timer never runs while it is held.
  onCompromised: () => {},
};

async function withLock<T>(file: string, work: () => T): Promise<T> {
  mkdirSync(dirname(file), { recursive: true });
  // Required on the first save, not when Pi starts (the build leaves it out of the start bundle).
  const { lock } = require("proper-lockfile") as typeof import("proper-lockfile");
  const release = await lock(file, LOCK_OPTIONS);
  try {
    return work();
  } finally {
    await release().catch(() => {});
  }
}

/** Merged over what the file holds now, under its lock; a broken file is not written, its problem returned. */
export function updateSettings(file: string, change: Partial<Settings>): Promise<LoadedSettings> {
  // Locked and written beside the link's target: two links to one file share its lock.
  const target = linkTarget(file);
  return withLock(target, () => {
    const current = readSettings(file);
    if (current.problem) return current;
    const stored = { ...current.stored, ...change };
    writeAtomically(target, stored);
    return { settings: settingsOf(stored), stored };
  });
}
