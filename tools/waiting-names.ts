/**
 * The names of questions asked with `wait: false` that both what Pi loads at
 * start (tools/waiting.ts) and the engine (tools/engine/waiting.ts) use.
 */
import { displayLine } from "../renderers/text.js";

/** The custom type of the session entries and of the answer messages. */
export const WAITING_ENTRY = "formchart-waiting";
/** The widget above the editor. */
export const WAITING_WIDGET = "formchart-waiting";
/** A key none of Pi's own bindings takes (docs/keybindings.md), nor the form's; the `waitingKey` setting changes it. */
export const WAITING_KEY = "alt+a";

/** A key Pi can bind: modifiers, then a letter, a digit or F1–F12 (`alt+a`, `ctrl+shift+q`, `f6`). */
const KEY_ID = /^((ctrl|alt|shift)\+){0,3}([a-z0-9]|f([1-9]|1[0-2]))$/;

export function validKey(value: unknown): value is string {
  if (typeof value !== "string" || !KEY_ID.test(value)) return false;
  const parts = value.split("+");
  const mods = parts.slice(0, -1);
  // A bare letter or digit is typed text; a modifier named twice is no key.
  return new Set(mods).size === mods.length && (mods.some((m) => m !== "shift") || /^f\d/.test(parts.at(-1)!));
}

/** `alt+a` → `Alt+A`, `ctrl+shift+q` → `Ctrl+Shift+Q`. */
export function keyLabel(key: string): string {
  return key
    .split("+")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("+");
}

/** An id as the person or the model sees it: from a session file, so cleaned and cut like any model string. */
export function shownId(id: string): string {
  return displayLine(id, 40);
}

/** A session entry: a question put to the person, or how it ended. */
export type WaitingEntry = { id: string; toolName: string; args: unknown } | { id: string; ended: string };

/** The entries of a session file that are well formed; any other data (null, a number, a string …) is left out. */
export function waitingEntryOf(data: unknown): WaitingEntry | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const e = data as Record<string, unknown>;
  if (typeof e.id !== "string" || e.id === "") return undefined;
  if (typeof e.ended === "string") return { id: e.id, ended: e.ended };
  if (typeof e.toolName === "string" && "args" in e) return { id: e.id, toolName: e.toolName, args: e.args };
  return undefined;
}
