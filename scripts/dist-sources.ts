/**
 * dist/SOURCES.sha256: the SHA-256 of every project file `npm run build`
 * made dist/ from, one `<hash>  <path>` line each (the format `sha256sum -c`
 * reads). Checking it costs a read of those files, not a build: the quick
 * test loop catches a source changed since the last build with it, and
 * `npm run build -- --check` (CI) still compares a full build.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const SOURCES_FILE = "SOURCES.sha256";

const hashOf = (root: string, file: string) =>
  createHash("sha256")
    .update(readFileSync(join(root, file)))
    .digest("hex");

/** The manifest of `files` (paths relative to `root`), sorted by path. */
export function sourcesManifest(root: string, files: Iterable<string>): string {
  return [...new Set(files)]
    .sort()
    .map((file) => `${hashOf(root, file)}  ${file}\n`)
    .join("");
}

/**
 * The files of a manifest that changed or went missing since it was written:
 * empty when dist/ was built from the sources as they are. A manifest that
 * is missing or unreadable is an error that says so.
 */
export function changedSources(root: string, manifestPath: string): string[] {
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run npm run build`);
  const changed: string[] = [];
  readFileSync(manifestPath, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .forEach((line, i) => {
      const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
      if (!match) throw new Error(`${manifestPath}:${i + 1}: not a "<sha256>  <path>" line: run npm run build`);
      const [, hash, file] = match;
      if (!existsSync(join(root, file))) changed.push(`${file} (removed)`);
      else if (hashOf(root, file) !== hash) changed.push(file);
    });
  return changed;
}
