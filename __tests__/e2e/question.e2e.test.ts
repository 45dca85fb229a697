/**
 * The `question` tool inside the real `pi` binary, in a real terminal (tmux),
 * answering a scripted model: the form appears, keys answer it, and the next
 * request to the model carries exactly the expected tool result.
 */
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "./fake-model.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const dbQuestion = {
  questions: [
    { id: "db", label: "DB", prompt: "Which database should we use?", options: [{ label: "PostgreSQL", description: "Relational, battle-tested" }, { label: "SQLite" }] },
    { id: "extras", label: "Extras", prompt: "Which extras?", multiple: true, options: [{ label: "Redis" }, { label: "Search" }] },
  ],
};

describe("question in the real pi", () => {
  it("shows the tabbed form and sends the answers back to the model", async () => {
    const { model, term, prompt } = await startPi([{ text: "Let me ask.", toolCalls: [{ name: "question", arguments: dbQuestion }] }], "tabbed");
    prompt("pick a database");
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
    const { model, term, prompt } = await startPi([{ toolCalls: [{ name: "question", arguments: args }] }], "single");
    prompt("deploy?");
    const screen = await term.waitFor("Deploy now?");
    expect(screen).not.toContain("Submit");
    term.press("Escape");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["User cancelled the form without answering. Treat this as a declined answer."]);
  });
});
