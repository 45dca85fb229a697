/** The example forms the package ships, and a form file named by example or by path (`npm start`, `/formchart try`). */
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "examples");

/** The example `npm start` shows without an argument. */
export const DEFAULT_EXAMPLE = "demo";

export function exampleNames(): string[] {
  return readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => basename(f, ".json"))
    .sort();
}

/** A file that exists (relative to `cwd`), else the example of that name; undefined when neither does. */
export function resolveFormFile(nameOrPath: string, cwd?: string): string | undefined {
  const path = cwd === undefined ? nameOrPath : resolve(cwd, nameOrPath);
  if (existsSync(path)) return path;
  const example = join(EXAMPLES_DIR, nameOrPath.endsWith(".json") ? nameOrPath : `${nameOrPath}.json`);
  return existsSync(example) ? example : undefined;
}
