/** pi-tui's `Editor` as a form uses it: what a key leaves in the answer, how a text goes back in. */
import type { Editor } from "@earendil-works/pi-tui";
import { editing, type FormPosition } from "../../machines/position.js";
import { typedText } from "../text.js";
import { BACKSPACE } from "./keymap.js";

// pi-tui's editor keeps a paste longer than this as a marker.
const EDITOR_PASTE_CHARS = 1000;
const EDITOR_PASTE_LINES = 10;

export type Typed = { refused: string } | { before: string; after: string };

/**
 * A key for the open editor; what reaches the answer is `typedText`'s. In a
 * one-line field the new-line key is refused, a pasted line break is a space.
 */
export function typeInto(editor: Editor, data: string, oneLine: boolean): Typed {
  const before = editor.getExpandedText();
  editor.handleInput(data);
  let after = editor.getExpandedText();
  if (oneLine && after.length === before.length + 1 && lineBreaks(after) === lineBreaks(before) + 1) {
    // A new-line key, whatever it is bound to: taken back where it went.
    editor.handleInput(BACKSPACE);
    return { refused: "This answer is one line: it takes no line break." };
  }
  const clean = typedText(after, oneLine);
  if (clean !== after) {
    fillEditor(editor, clean);
    after = editor.getExpandedText();
  }
  return { before, after };
}

/**
 * Put `text` in the editor. Its layout grows with the square of the text (a
 * 100 kB answer needs gigabytes) but a paste is held as a marker, so a long
 * text goes in as a paste; escapes are dropped so none ends the paste early.
 */
export function fillEditor(editor: Editor, text: string): void {
  if (text.length <= EDITOR_PASTE_CHARS && text.split("\n").length <= EDITOR_PASTE_LINES) {
    editor.setText(text);
    return;
  }
  editor.setText("");
  editor.handleInput(`\x1b[200~${text.replace(/\x1b/g, "")}\x1b[201~`);
}

/** Which editor a position shows: `typing:2`, `noting:0`, `writing`, or undefined. */
export function editorOf(position: FormPosition | undefined): string | undefined {
  if (!position || !editing(position)) return undefined;
  return position.kind === "question" ? `${position.mode}:${position.q}` : "writing";
}

function lineBreaks(text: string): number {
  return text.split("\n").length - 1;
}
