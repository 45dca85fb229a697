/**
 * One real `pi` in a tmux terminal against a scripted model, torn down after each test.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "@jest/globals";
import { type FakeModel, type ScriptedTurn, startFakeModel } from "../../scripts/fake-model.js";
import "./timeouts.js";
import { EVERY_TOOL, makePiHome, piCommand } from "./pi-home.js";
import { hasTmux, Terminal } from "./tmux.js";

let cleanups: Array<() => void | Promise<void>> = [];

/** Register the teardown hook in a test file that starts pi sessions. */
export function usePiSessions(): void {
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c();
    cleanups = [];
  });
}

export interface PiSession {
  model: FakeModel;
  term: Terminal;
  agentDir: string;
  /** Type a prompt into pi's editor and send it. */
  prompt(text: string): void;
}

export async function startPi(
  script: ScriptedTurn[],
  name: string,
  size = { width: 100, height: 32 },
  /** More command-line arguments (another extension: `["-e", path]`). */
  extra: string[] = [],
  /** More environment variables for pi. */
  env: Record<string, string> = {},
  /** The files the agent directory starts with (every tool declared by default; `{}`: the default set). */
  files: Record<string, string> = EVERY_TOOL,
): Promise<PiSession> {
  if (!hasTmux()) throw new Error("tmux is required for the end-to-end tests (apt-get install -y tmux)");
  const model = await startFakeModel(script);
  const home = makePiHome(model.baseUrl, files);
  const cwd = mkdtempSync(join(tmpdir(), "formchart-cwd-"));
  const term = new Terminal(name, size.width, size.height);
  cleanups.push(
    () => model.close(),
    () => home.cleanup(),
    () => term.kill(),
    () => rmSync(cwd, { recursive: true, force: true }),
  );
  term.start(piCommand(extra), { ...home.env, ...env }, cwd);
  await term.waitFor("fake-model", 30000);
  return {
    model,
    term,
    agentDir: home.dir,
    prompt(text: string) {
      term.type(text);
      term.press("Enter");
    },
  };
}
