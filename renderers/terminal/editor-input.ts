/**
 * The form's text editor (pi-tui's `Editor`) as the form uses it: what a key
 * typed into it leaves in the answer, how a text is put back into it, and
 * which editor a position shows.
 */
import type { Editor } from "@earendil-works/pi-tui";
import { editing, type FormPosition } from "../../machines/position.js";
import { typedText } from "../text.js";

/** pi-tui's editor keeps a paste longer than this many characters or lines as a marker. */
const EDITOR_PASTE_CHARS = 1000;
const EDITOR_PASTE_LINES = 10;

/** A key typed into the editor: refused with a reason, or the text before and after it. */
export type Typed = { refused: string } | { before: string; after: string };

/**
 * A key for the open editor. What reaches the answer is clean: control
 * characters, DEL and bidirectional overrides a paste may carry are
 * removed, and a single-line field (a number, an email, a date, a pattern)
 * gets no line breaks: the new-line key does nothing there and says so, a
 * pasted line break becomes a space.
 */
export function typeInto(editor: Editor, data: string, oneLine: boolean): Typed {
  const before = editor.getExpandedText();
  editor.handleInput(data);
  let after = editor.getExpandedText();
  if (oneLine && after.length === before.length + 1 && lineBreaks(after) === lineBreaks(before) + 1) {
    // The key was a new line (Shift+Enter, or whatever the person bound to it): take it back where it went.
    editor.handleInput("\x7f");
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
 * Put `text` in the editor. pi-tui's editor lays a long text out in time and
 * memory that grow with the square of its length (a 100 kB answer needs
 * gigabytes), but holds a long paste as a marker it expands when read: a
 * text past its paste threshold goes in as a paste, so reopening a long
 * answer costs what pasting it did. Escapes are dropped first (the paste
 * drops every control character anyway), so none can end the paste early.
 */
export function fillEditor(editor: Editor, text: string): void {
  if (text.length <= EDITOR_PASTE_CHARS && text.split("\n").length <= EDITOR_PASTE_LINES) {
    editor.setText(text);
    return;
  }
  editor.setText("");
  editor.handleInput(`\x1b[200~${text.replace(/\x1b/g, "")}\x1b[201~`);
}

/** Which editor a position shows, as a key (`typing:2`, `noting:0`, `writing`), or undefined. */
export function editorOf(position: FormPosition | undefined): string | undefined {
  if (!position || !editing(position)) return undefined;
  return position.kind === "question" ? `${position.mode}:${position.q}` : "writing";
}

function lineBreaks(text: string): number {
  return text.split("\n").length - 1;
}
