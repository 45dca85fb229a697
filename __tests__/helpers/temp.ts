/**
 * Temporary directories for a test file, removed when the file's tests end.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "@jest/globals";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory standing in for Pi's agent directory. */
export function tempAgentDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "formchart-agent-"));
  made.push(dir);
  return dir;
}
