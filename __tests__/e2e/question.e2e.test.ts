/**
 * The `question` tool inside the real `pi` binary, in a real terminal (tmux),
 * answering a scripted model: the form appears, keys answer it, and the next
 * request to the model carries exactly the expected tool result.
 */
import { afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeModel, type ScriptedTurn, startFakeModel, toolResults } from "./fake-model.js";
import { makePiHome, piCommand, type PiHome } from "./pi-home.js";
import { hasTmux, Terminal } from "./tmux.js";

let cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

beforeAll(() => {
  if (!hasTmux()) throw new Error("tmux is required for the end-to-end tests (apt-get install -y tmux)");
});

async function startPi(script: ScriptedTurn[], name: string, size = { width: 100, height: 32 }) {
  const model: FakeModel = await startFakeModel(script);
  const home: PiHome = makePiHome(model.baseUrl);
  const cwd = mkdtempSync(join(tmpdir(), "formchart-cwd-"));
  const term = new Terminal(name, size.width, size.height);
  cleanups.push(() => model.close(), () => home.cleanup(), () => term.kill(), () => rmSync(cwd, { recursive: true, force: true }));
  term.start(piCommand(), home.env, cwd);
  await term.waitFor("fake-model", 30000);
  return { model, term };
}

async function prompt(term: Terminal, text: string) {
  term.type(text);
  term.press("Enter");
}

const dbQuestion = {
  questions: [
    { id: "db", label: "DB", prompt: "Which database should we use?", options: [{ label: "PostgreSQL", description: "Relational, battle-tested" }, { label: "SQLite" }] },
    { id: "extras", label: "Extras", prompt: "Which extras?", multiple: true, options: [{ label: "Redis" }, { label: "Search" }] },
  ],
};

describe("question in the real pi", () => {
  it("shows the tabbed form and sends the answers back to the model", async () => {
    const { model, term } = await startPi([{ text: "Let me ask.", toolCalls: [{ name: "question", arguments: dbQuestion }] }], "tabbed");
    await prompt(term, "pick a database");
    const screen = await term.waitFor("Which database should we use?");
    expect(screen).toContain("› 1. PostgreSQL");
    expect(screen).toContain("□ DB  □ Extras  ✓ Submit");
    term.press("2");
    await term.waitFor("Which extras?");
    term.press("Space", "Down", "Down");
    term.press("Enter");
    await term.waitFor("Shift+Enter new line");
    term.type("Vector index");
    term.press("Enter", "Enter");
    await term.waitFor("Ready. Press Enter to submit.");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["DB: user selected: 2. SQLite\nExtras: user selected: 1. Redis, user wrote: Vector index"]);
    const after = await term.waitFor("Done.");
    expect(after).toContain("✓ DB: 2. SQLite");
  });

  it("the single-question shape opens an option list and Esc cancels it", async () => {
    const args = { question: "Deploy now?", options: [{ label: "Yes" }, { label: "Later" }] };
    const { model, term } = await startPi([{ toolCalls: [{ name: "question", arguments: args }] }], "single");
    await prompt(term, "deploy?");
    const screen = await term.waitFor("Deploy now?");
    expect(screen).not.toContain("Submit");
    term.press("Escape");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["User cancelled the form without answering. Treat this as a declined answer."]);
  });
});
