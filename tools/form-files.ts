/** The example forms the package ships, and a form file named by example or by path (`npm start`, `/formchart try`). */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  type Stats,
  statSync,
} from "node:fs";
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

/** Form files are read up to this size: the largest form the tools take is a fraction of it. */
export const MAX_FORM_FILE = 1024 * 1024;

const notRegular = (stat: Stats) =>
  stat.isFile()
    ? undefined
    : stat.isDirectory()
      ? "a directory"
      : stat.isFIFO()
        ? "a FIFO"
        : stat.isCharacterDevice() || stat.isBlockDevice()
          ? "a device"
          : stat.isSocket()
            ? "a socket"
            : "no regular file";

const tooLarge = (file: string, size: number) =>
  `${file} is ${(size / 1024 / 1024).toFixed(1)} MiB; form files are read up to ${MAX_FORM_FILE / 1024 / 1024} MiB`;

/**
 * The text of a form file, or why it was not read. Only a regular file is
 * read, and only up to MAX_FORM_FILE: a FIFO would hold Pi until something
 * writes to it, a device like /dev/zero would fill its memory. A byte-order
 * mark (a Windows editor's default) is read as the JSON it marks.
 */
export function readFormText(file: string): { ok: true; text: string } | { ok: false; message: string } {
  const refused = (why: string) => ({ ok: false as const, message: why });
  let fd: number | undefined;
  try {
    // Looked at before it is opened; opened without waiting, and looked at again: it may have been swapped.
    const before = notRegular(statSync(file));
    if (before) return refused(`${file} is ${before}, not a regular file`);
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    const kind = notRegular(stat);
    if (kind) return refused(`${file} is ${kind}, not a regular file`);
    if (stat.size > MAX_FORM_FILE) return refused(tooLarge(file, stat.size));
    // One byte more than the limit: a file that grew since is still refused, never read whole.
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_FORM_FILE) + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n)
      n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > MAX_FORM_FILE) return refused(tooLarge(file, length));
    return { ok: true, text: buffer.toString("utf8", 0, length).replace(/^\uFEFF/, "") };
  } catch (error) {
    return refused(`Cannot read a form from ${file}: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
