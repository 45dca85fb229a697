/** A form file for the command-line tools: a JSON path, or the name of one in examples/. */
import type { FormResult } from "../machines/context.js";
import { visibleControls } from "../renderers/text.js";
import { prepareFormFile, readFormCall } from "../tools/engine/catalog.js";
import type { PreparedForm } from "../tools/engine/form-tool.js";
import { exampleNames, resolveFormFile } from "../tools/form-files.js";

export { EXAMPLES_DIR, exampleNames, resolveFormFile } from "../tools/form-files.js";

/** `npm start`'s exit code by how the form ended; `noForm` when none opened (invalid input, no terminal). */
export const EXIT_CODES = { submitted: 0, cancelled: 1, declined: 1, timedOut: 1, noForm: 2 } as const;

export function exitCode(result: FormResult): number {
  if (result.timedOut) return EXIT_CODES.timedOut;
  if (result.declined) return EXIT_CODES.declined;
  return result.cancelled ? EXIT_CODES.cancelled : EXIT_CODES.submitted;
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
  const call = readFormCall(file);
  if (!call.ok) return call;
  const prepared = prepareFormFile({ tool: call.tool.name, arguments: call.raw });
  return prepared.ok ? { ...prepared, file } : { ok: false, message: `${file}: ${prepared.message}` };
}
