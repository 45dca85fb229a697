/**
 * The names of questions asked with `wait: false` that both what Pi loads at
 * start (tools/waiting.ts) and the engine (tools/engine/waiting.ts) use.
 */
import { type KeyId, matchesKey } from "@earendil-works/pi-tui";
import { displayLine, safeLine } from "../renderers/text.js";

/** The custom type of the session entries and of the answer messages. */
export const WAITING_ENTRY = "formchart-waiting";
/** The widget above the editor. */
export const WAITING_WIDGET = "formchart-waiting";
/** A key none of Pi's own bindings takes (docs/keybindings.md), nor the form's; the `waitingKey` setting changes it. */
export const WAITING_KEY = "alt+a";

/** Refuses a question that waits, in any form (no editor binds it, nor Pi). */
export const REFUSE_KEY = "alt+x";

/** A key Pi can bind: modifiers, then a letter, a digit or F1–F12 (`alt+a`, `ctrl+shift+q`, `f6`). */
const KEY_ID = /^((ctrl|alt|shift)\+){0,3}([a-z0-9]|f([1-9]|1[0-2]))$/;

/** The form's own keys, which the open key would shadow (the fold key is renderers/terminal/keymap.ts's FOLD_KEY). */
const FORM_KEYS: Record<string, string> = {
  [REFUSE_KEY]: "refuses a question that waits",
  "alt+h": "folds a form",
};

/**
 * The keys Pi keeps for itself: an extension's shortcut on one is skipped.
 * Pi 1.6 reserves these actions (RESERVED_KEYBINDINGS_FOR_EXTENSION_CONFLICTS
 * in its core/extensions/runner.js, not exported); their default keys, from
 * its core/keybindings.js and pi-tui's TUI_KEYBINDINGS, on every platform.
 */
const PI_KEYS: Record<string, string> = {
  "ctrl+c": "clears the editor",
  "ctrl+d": "exits",
  "ctrl+z": "suspends Pi",
  "ctrl+p": "cycles models",
  "ctrl+shift+p": "cycles models back",
  "alt+p": "cycles models back on Windows",
  "ctrl+l": "selects a model",
  "ctrl+o": "expands tool output",
  "ctrl+t": "shows thinking",
  "ctrl+g": "opens the external editor",
  "ctrl+x": "copies a message",
  "ctrl+k": "deletes to the line's end",
  "ctrl+q": "queues a follow-up on Windows",
};

/** Bytes of keys a terminal sends for a key of their own, and what binding them would take away. */
const SENT: [bytes: string, key: string, lost: string][] = [
  ["\r", "Enter", "Enter would stop sending prompts"],
  ["\t", "Tab", "Tab would stop completing"],
  ["\n", "a new line", "the editor would stop taking new lines"],
  ["\x7f", "Backspace", "Backspace would stop deleting"],
  ["\x08", "Backspace", "Backspace would stop deleting"],
  ["\x1b\r", "Alt+Enter", "Alt+Enter would stop queueing follow-ups"],
];

/** Modifiers in one order: `shift+ctrl+p` is `ctrl+shift+p`. */
const canonical = (key: string) => {
  const parts = key.split("+");
  return [...parts.slice(0, -1).sort(), parts.at(-1)].join("+");
};
const byKey = (keys: Record<string, string>) =>
  new Map(Object.entries(keys).map(([key, does]) => [canonical(key), does]));
const FORM = byKey(FORM_KEYS);
const PI = byKey(PI_KEYS);

/** Why `key` (lower case) cannot open questions that wait, said to the person; undefined when it can. */
export function keyProblem(key: string): string | undefined {
  const parts = key.split("+");
  const mods = parts.slice(0, -1);
  // A bare letter or digit is typed text; a modifier named twice is no key.
  if (
    !KEY_ID.test(key) ||
    new Set(mods).size !== mods.length ||
    !(mods.some((m) => m !== "shift") || /^f\d/.test(parts.at(-1)!))
  )
    return `"${safeLine(key, 40)}" is not a key Pi can bind.`;
  const sent = SENT.find(([bytes]) => matchesKey(bytes, key as KeyId));
  if (sent) return `${key} is the key ${sent[1]} sends: ${sent[2]}.`;
  const form = FORM.get(canonical(key));
  if (form) return `${key} is a form's own key (it ${form}): it would not reach the form.`;
  const pi = PI.get(canonical(key));
  return pi && `${key} is Pi's own key (it ${pi}): Pi skips an extension's shortcut on it.`;
}

export function validKey(value: unknown): value is string {
  return typeof value === "string" && keyProblem(value) === undefined;
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
