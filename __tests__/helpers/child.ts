/**
 * Code run in a child Node process with the sources loaded through tsx, for
 * what a test cannot do in its own process: several processes at once, or
 * work that must finish (a check that would take minutes is killed, and
 * reported as not finished, instead of holding the test runner).
 */
import { spawn, spawnSync } from "node:child_process";
import { PROJECT_ROOT } from "./root.js";

/** The project's root: module paths in child code are relative to it. */
export const ROOT = PROJECT_ROOT;

export interface ChildRun {
  /** Whether the child finished by itself (not killed at the deadline). */
  finished: boolean;
  status: number | null;
  stdout: string;
  stderr: string;
}

const args = (code: string) => ["--import", "tsx", "--input-type=module", "-e", code];

/** Run ES module `code` to its end, or kill it at `deadlineMs`. */
export function runChild(code: string, deadlineMs = 60_000): ChildRun {
  const run = spawnSync(process.execPath, args(code), { cwd: ROOT, encoding: "utf8", timeout: deadlineMs });
  return {
    finished: run.signal === null && run.error === undefined,
    status: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
  };
}

/** Start several children at once and wait for all of them. */
export function runChildren(codes: string[], deadlineMs = 60_000): Promise<ChildRun[]> {
  return Promise.all(
    codes.map(
      (code) =>
        new Promise<ChildRun>((resolve) => {
          const child = spawn(process.execPath, args(code), { cwd: ROOT, timeout: deadlineMs });
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (d) => {
            stdout += d;
          });
          child.stderr.on("data", (d) => {
            stderr += d;
          });
          child.on("close", (status, signal) => resolve({ finished: signal === null, status, stdout, stderr }));
        }),
    ),
  );
}
