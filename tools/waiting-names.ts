/**
 * The names of questions asked with `wait: false` that both what Pi loads at
 * start (tools/waiting.ts) and the engine (tools/engine/waiting.ts) use.
 */

/** The custom type of the session entries and of the answer messages. */
export const WAITING_ENTRY = "formchart-waiting";
/** The widget above the editor. */
export const WAITING_WIDGET = "formchart-waiting";
/** A key none of Pi's own bindings takes (docs/keybindings.md), nor the form's. */
export const WAITING_KEY = "alt+a";
export const WAITING_KEY_NAME = "Alt+A";

/** A session entry: a question put to the person, or how it ended. */
export type WaitingEntry = { id: string; toolName: string; args: unknown } | { id: string; ended: string };
