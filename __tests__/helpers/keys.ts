/**
 * Key bytes for tests: the legacy terminal encoding of each key the form
 * binds, and the bytes a person presses to send a given event (the keymap's
 * own inverse table, encoded).
 */
import type { KeyId } from "@earendil-works/pi-tui";
import type { FormEvent } from "../../machines/context.js";
import { editorText } from "../../machines/position.js";
import {
  editingInputs,
  type KeyContext,
  type KeyMatcher,
  keysForEvent,
  stepsToRow,
} from "../../renderers/terminal/keymap.js";

const KEY_BYTES: Partial<Record<string, string>> = {
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  tab: "\t",
  "shift+tab": "\x1b[Z",
  enter: "\r",
  escape: "\x1b",
  space: " ",
  "ctrl+c": "\x03",
  "alt+h": "\x1bh",
};

export function bytesOfKey(id: KeyId): string {
  const bytes = KEY_BYTES[id] ?? (id.length === 1 ? id : undefined);
  if (bytes === undefined) throw new Error(`No byte encoding for key ${id}`);
  return bytes;
}

/**
 * The inputs a person gives to send `event` where the form stands: the first
 * key the keymap binds to it (for TYPE, the Backspaces and characters that
 * change the editor to its text). Throws when no key sends the event there.
 */
export function bytesForEvent(event: FormEvent, k: KeyContext, kb: KeyMatcher): string[] {
  if (event.type === "TYPE") return editingInputs(editorText(k.position, k.context), event.text);
  // A row past the digits: the moves that reach it, then the choice (each a key of its own).
  return stepsToRow(event, k).map((step) => {
    const [first] = keysForEvent(step, k, kb);
    if (first === undefined) throw new Error(`No key sends ${JSON.stringify(step)} in ${k.position.kind}`);
    return bytesOfKey(first);
  });
}
