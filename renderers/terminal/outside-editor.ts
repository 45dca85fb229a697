/**
 * A typed answer or note written in the person's own editor: the key Pi
 * opens its editor with (`app.editor.external`, Ctrl+G unless remapped)
 * hands the open field's text to `$VISUAL` or `$EDITOR` in a temporary file
 * and reads the file back when the editor exits. What comes back goes
 * through the same cleaning as typed keys (renderers/text.ts `typedText`),
 * and the form's checks read it as they read typing.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KeyId } from "@earendil-works/pi-tui";
import type { KeyMatcher } from "./keymap.js";

/** Pi's action for its external editor, and its default key. */
export const OUTSIDE_ACTION = "app.editor.external";
const OUTSIDE_DEFAULT: KeyId = "ctrl+g";

/**
 * The keys that open the editor: Pi's binding of the action when the form
 * was given Pi's keybindings (an empty list when the person unbound it),
 * Pi's default otherwise.
 */
export function outsideKeys(kb: KeyMatcher | undefined): KeyId[] {
  if (!kb) return [OUTSIDE_DEFAULT];
  return kb.getKeys(OUTSIDE_ACTION as Parameters<KeyMatcher["getKeys"]>[0]);
}

/** The editor command the person set, or undefined. */
export function outsideCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || undefined;
}

export type OutsideResult = { text: string } | { failed: string };

function quoted(path: string): string {
  return process.platform === "win32" ? `"${path}"` : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * Run `command` on a file holding `text` and return the file's text once
 * the editor exits with 0: without a byte-order mark and without the one
 * line break editors add at the end. Any other exit leaves the text as it
 * was and says why.
 */
export async function editOutside(command: string, text: string): Promise<OutsideResult> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "formchart-"));
  } catch (error) {
    return { failed: `No file for the editor could be made (${(error as Error).message}); nothing changed.` };
  }
  const file = join(dir, "answer.md");
  try {
    writeFileSync(file, text, "utf8");
    const exit = await new Promise<{ code: number | string | null } | { error: string }>((resolve) => {
      const child = spawn(`${command} ${quoted(file)}`, { shell: true, stdio: "inherit" });
      child.on("error", (error) => resolve({ error: error.message }));
      child.on("close", (code, signal) => resolve({ code: code ?? signal }));
    });
    if ("error" in exit) return { failed: `The editor "${command}" did not start (${exit.error}); nothing changed.` };
    if (exit.code !== 0)
      return { failed: `The editor "${command}" exited with ${String(exit.code)}; the text is as it was.` };
    return {
      text: readFileSync(file, "utf8")
        .replace(/^\uFEFF/, "")
        .replace(/\r?\n$/, ""),
    };
  } catch (error) {
    return { failed: `The editor's file could not be read (${(error as Error).message}); nothing changed.` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
