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
  /** Type a prompt into pi's editor and send it; resolves once the editor has let it go. */
  prompt(text: string): Promise<void>;
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
  // A wait for the model that runs out says what the terminal showed then.
  const waitForRequests = model.waitForRequests;
  model.waitForRequests = async (count, timeoutMs) => {
    try {
      await waitForRequests(count, timeoutMs);
    } catch (error) {
      throw new Error(`${(error as Error).message}; the terminal shows:\n${term.screen()}`);
    }
  };
  return {
    model,
    term,
    agentDir: home.dir,
    prompt: (text: string) => send(term, text),
  };
}

/** The lines between the last two full-width rules: Pi's editor. */
function editorText(screen: string): string {
  const lines = screen.split("\n");
  const rules = lines.flatMap((line, i) => (/^─{20,}\s*$/.test(line) ? [i] : []));
  if (rules.length < 2) return "";
  return lines.slice(rules[rules.length - 2] + 1, rules[rules.length - 1]).join("\n");
}

/**
 * Whether Pi's editor holds `text` as typed: its few lines say it. A form
 * drawn between the same rules once the prompt is taken is no editor, even
 * where a word of it contains the prompt ("Keep going" holds "go").
 */
function holds(screen: string, text: string): boolean {
  const lines = editorText(screen)
    .split("\n")
    .filter((line) => line.trim() !== "");
  return lines.length <= Math.max(2, text.split("\n").length + 1) && lines.join("\n").includes(text);
}

/**
 * Type `text` and press Enter until Pi takes it. Pi 1.6 draws its editor and
 * footer before startup ends, and an Enter pressed then puts the text back
 * ("Startup is still in progress"), so the footer alone does not say Pi is
 * ready: the editor still holding the text does.
 */
async function send(term: Terminal, text: string): Promise<void> {
  term.type(text);
  await term.waitFor((screen) => holds(screen, text));
  for (let attempt = 0; attempt < 20; attempt++) {
    term.press("Enter");
    try {
      await term.waitFor((screen) => !holds(screen, text), 750);
      return;
    } catch {
      // still in the editor: startup had not ended; press again
    }
  }
  throw new Error(`pi never took the prompt "${text}":\n${term.screen()}`);
}
