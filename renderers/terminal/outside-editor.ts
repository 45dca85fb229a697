/**
 * The open field written in the person's own editor: Pi's external-editor
 * key hands its text, in a temporary file, to the command Pi's key runs
 * (`$VISUAL` or `$EDITOR` without one) and reads it back as if typed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KeyId } from "@earendil-works/pi-tui";
import type { KeyMatcher } from "./keymap.js";

export const OUTSIDE_ACTION = "app.editor.external";
const OUTSIDE_DEFAULT: KeyId = "ctrl+g";

/** Pi's binding of the action (none when the person unbound it); without Pi's keybindings, its default. */
export function outsideKeys(kb: KeyMatcher | undefined): KeyId[] {
  if (!kb) return [OUTSIDE_DEFAULT];
  return kb.getKeys(OUTSIDE_ACTION as Parameters<KeyMatcher["getKeys"]>[0]);
}

export function outsideCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || undefined;
}

export type OutsideResult = { text: string } | { failed: string };

function quoted(path: string): string {
  return process.platform === "win32" ? `"${path}"` : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The file's text once `command` exits with 0, without a BOM or the final line break editors add; else why not. */
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
