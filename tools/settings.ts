/**
 * pi-formchart's settings, kept in `<Pi agent dir>/pi-formchart/settings.json`.
 *
 * Contract: a missing file means the defaults (auto-throttle on, 3 seconds,
 * the compact tool set, the tools' own prompt lines, no form tools declared
 * without a UI, /rich-questions forcing a tool call, no timeout); a malformed
 * field falls back to its default alone; a file that cannot be read or is not
 * a JSON object is reported and never overwritten (the defaults apply until
 * it is fixed); saving keeps keys this version does not know and writes
 * atomically (temporary file + rename) beside the file a symbolic link names,
 * so the link stays a link and its target gets the change, with its mode.
 *
 * A change (`updateSettings`) writes only the keys it changes over what the
 * file holds at that moment, read under a lock file beside it (created with
 * O_EXCL; one left by a process that died, or older than `STALE_LOCK_MS`, is
 * taken over): a change made in another session or process, or by hand
 * while Pi runs, survives every later save.
 */
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { LIMITS } from "../schemas/fields.js";
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
  /**
   * Seconds a form of the tools that take a `timeout` waits for the person's
   * first key when the call gives none (then the recommended options are
   * taken); undefined: no timeout.
   */
  timeoutSeconds?: number;
  /** A terminal bell when a question asked with `wait: false` starts waiting. */
  bell: boolean;
  /**
   * An answer to such a question that arrives while the agent is idle:
   * starts a turn (`start-turn`), or goes with the next prompt (`next-prompt`).
   */
  deliverWhenIdle: "start-turn" | "next-prompt";
  /**
   * The form tools stay declared where no one can answer (print and JSON
   * mode), for a pipeline that wants their `no_ui` result; off: they are left
   * out of every request there. RPC has dialogs and keeps them either way.
   */
  declareWithoutUI: boolean;
  /**
   * The person's own prompt lines in place of the tools' rules (an empty list:
   * none); undefined: the tools' own. The line naming the undeclared tools stays.
   */
  promptLines?: string[];
}

export const DEFAULT_SETTINGS: Settings = {
  autoThrottle: true,
  cooldownSeconds: 3,
  toolSet: DEFAULT_TOOL_SET,
  tools: [...TOOL_SETS[DEFAULT_TOOL_SET]],
  richExtraction: "auto",
  mouse: false,
  bell: false,
  deliverWhenIdle: "start-turn",
  declareWithoutUI: false,
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

/** Whether a settings file's content names a tool set (or a list of its own), rather than leaving it to the host's default. */
export function namesTools(stored: Record<string, unknown>): boolean {
  return isToolSetName(stored.toolSet) || Array.isArray(stored.tools);
}

function defaults(): Settings {
  return { ...DEFAULT_SETTINGS, tools: [...DEFAULT_SETTINGS.tools] };
}

/** A JSON settings file's object: `{}` for a missing file, with the problem when it cannot be read or holds no object. */
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

/** Read the settings file; a missing file means the defaults, a broken one the defaults and a problem to report. */
export function readSettings(file: string): LoadedSettings {
  const read = readJsonObject(file);
  if (read.problem) return { settings: defaults(), stored: {}, problem: read.problem };
  return { settings: settingsOf(read.stored), stored: read.stored };
}

/** The settings a file's object stands for: each malformed or missing field its default. */
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
    deliverWhenIdle: r.deliverWhenIdle === "next-prompt" ? "next-prompt" : "start-turn",
    declareWithoutUI: r.declareWithoutUI === true,
    ...(validTimeout(r.timeoutSeconds) ? { timeoutSeconds: r.timeoutSeconds } : {}),
    ...(validLines(r.promptLines) ? { promptLines: r.promptLines.map((line) => line.trim()).filter(Boolean) } : {}),
  };
}

/** A list of prompt lines: strings, each one line. */
function validLines(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((line) => typeof line === "string" && !/[\r\n]/.test(line));
}

/** The longest timeout a setting takes: a call's longest (a day). */
export const MAX_TIMEOUT_SECONDS = LIMITS.timeoutSeconds;

/** A timeout in whole seconds, 1 to a day. */
export function validTimeout(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_SECONDS;
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
  const target = linkTarget(file);
  mkdirSync(dirname(target), { recursive: true });
  writeAtomically(target, { ...stored, ...settings });
}

/** How many links a path may pass through (Linux's own limit), so a loop of links ends. */
const MAX_LINKS = 40;

/**
 * The file `file` stands for: its symbolic links followed, to a target that
 * need not exist yet. A rename over a link would replace the link.
 */
function linkTarget(file: string): string {
  let path = resolve(file);
  for (let links = 0; links < MAX_LINKS; links++) {
    let next: string;
    try {
      next = readlinkSync(path);
    } catch {
      // Not a link (or not there yet): the file itself.
      return path;
    }
    path = resolve(dirname(path), next);
  }
  throw new Error(`${file} passes through more than ${MAX_LINKS} symbolic links`);
}

/** Write `target` (not a link) by a rename of a temporary file beside it, with the mode it had. */
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

/** How long a save waits for another process's lock before giving up. */
const LOCK_WAIT_MS = 2000;
/** A lock this old is left over: a save holds it for milliseconds. */
export const STALE_LOCK_MS = 10_000;

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether a process with this id runs (one of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the lock at `lock` was left by a process that died, or long ago. */
function staleLock(lock: string): boolean {
  let text: string;
  let age: number;
  try {
    text = readFileSync(lock, "utf8");
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    // Gone already: nothing to take over.
    return false;
  }
  if (age > STALE_LOCK_MS) return true;
  try {
    const owner = JSON.parse(text) as { pid?: unknown };
    return typeof owner.pid === "number" && !running(owner.pid);
  } catch {
    // Being written by its owner this moment, or broken: judged by its age alone.
    return false;
  }
}

/** Run `work` holding the settings file's lock. Throws when the lock cannot be had. */
function withLock<T>(file: string, work: () => T): T {
  mkdirSync(dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (staleLock(lock)) {
      try {
        unlinkSync(lock);
      } catch {
        // Taken over by another process first.
      }
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another process has held ${lock} for over ${LOCK_WAIT_MS / 1000} s`);
    pause(5);
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Change the keys of `change` in the settings file, keeping everything else
 * it holds now (other sessions' changes, edits by hand, keys this version
 * does not know): read, merged and written under the file's lock. Returns
 * the settings the file then holds; a broken file is not written, its
 * problem returned. Throws when the file cannot be locked or written.
 */
export function updateSettings(file: string, change: Partial<Settings>): LoadedSettings {
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
