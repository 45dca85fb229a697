/** A form file for the command-line tools: a JSON path, or the name of one in examples/. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { visibleControls } from "../renderers/text.js";
import { prepareFormFile } from "../tools/engine/catalog.js";
import type { PreparedForm } from "../tools/engine/form-tool.js";

export const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "examples");

export function exampleNames(): string[] {
  return readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => basename(f, ".json"))
    .sort();
}

export function resolveFormFile(nameOrPath: string): string | undefined {
  if (existsSync(nameOrPath)) return nameOrPath;
  const example = join(EXAMPLES_DIR, nameOrPath.endsWith(".json") ? nameOrPath : `${nameOrPath}.json`);
  return existsSync(example) ? example : undefined;
}

export type LoadedForm = { ok: true; file: string; tool: string; form: PreparedForm } | { ok: false; message: string };

/** Outside text as one terminal line: controls in caret notation, line breaks as spaces. */
export function terminalLine(text: string): string {
  return visibleControls(text.replace(/\s*[\r\n]+\s*/g, " "));
}

/** The form in a file or example, or why there is none, in one line a terminal acts on nothing of. */
export function loadFormFile(nameOrPath: string): LoadedForm {
  const loaded = readFormFile(nameOrPath);
  return loaded.ok ? loaded : { ok: false, message: terminalLine(loaded.message) };
}

function readFormFile(nameOrPath: string): LoadedForm {
  const file = resolveFormFile(nameOrPath);
  if (!file)
    return {
      ok: false,
      message: `No form file or example named "${nameOrPath}". Examples: ${exampleNames().join(", ")}`,
    };
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { ok: false, message: `Cannot read a form from ${file}: ${(error as Error).message}` };
  }
  const prepared = prepareFormFile(content);
  return prepared.ok
    ? { ok: true, file, tool: prepared.tool, form: prepared.form }
    : { ok: false, message: `${file}: ${prepared.message}` };
}
