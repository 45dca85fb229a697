/**
 * The `question` tool inside the real `pi` binary, in a real terminal (tmux),
 * answering a scripted model: the form appears, keys answer it, and the next
 * request to the model carries exactly the expected tool result.
 */
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const dbQuestion = {
  questions: [
    {
      id: "db",
      label: "DB",
      prompt: "Which database should we use?",
      options: [{ label: "PostgreSQL", description: "Relational, battle-tested" }, { label: "SQLite" }],
    },
    {
      id: "extras",
      label: "Extras",
      prompt: "Which extras?",
      multiple: true,
      options: [{ label: "Redis" }, { label: "Search" }],
    },
  ],
};

describe("question in the real pi", () => {
  it("shows the tabbed form and sends the answers back to the model", async () => {
    const { model, term, prompt } = await startPi(
      [{ text: "Let me ask.", toolCalls: [{ name: "question", arguments: dbQuestion }] }],
      "tabbed",
    );
    await prompt("pick a database");
    const screen = await term.waitFor("Which database should we use?");
    expect(screen).toContain("› 1. PostgreSQL");
    // No question is required: Submit is open from the start.
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
    expect(toolResults(model.requests[1])).toEqual([
      "DB: user selected: 2. SQLite\nExtras: user selected: 1. Redis, user wrote: Vector index",
    ]);
    const after = await term.waitFor("Done.");
    expect(after).toContain("✓ DB: 2. SQLite");
  });

  it("the single-question shape opens an option list and Esc cancels it", async () => {
    const args = { question: "Deploy now?", options: [{ label: "Yes" }, { label: "Later" }] };
    const { model, term, prompt } = await startPi([{ toolCalls: [{ name: "question", arguments: args }] }], "single");
    await prompt("deploy?");
    const screen = await term.waitFor("Deploy now?");
    expect(screen).not.toContain("Submit");
    term.press("Escape");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["User cancelled the form without answering."]);
  });
});

describe("question in the real pi: partial submit", () => {
  it("submits with a question left open: the review names it, the model reads it as open", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: dbQuestion }] }],
      "partial",
    );
    await prompt("pick a database");
    await term.waitFor("Which database should we use?");
    term.press("1");
    await term.waitFor("Which extras?");
    term.press("Tab");
    await term.waitFor("Open: Extras. Press Enter to submit with it open.");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      "User submitted the form with some questions left open: Extras.\nDB: user selected: 1. PostgreSQL\nExtras: (skipped)",
    ]);
  });
});

describe("question in the real pi: sequencing, resizing, drafts", () => {
  it("two question calls in one assistant message open one after the other; both answers reach the model", async () => {
    const first = { question: "First: which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] };
    const second = { question: "Second: which cache?", options: [{ label: "Redis" }, { label: "None" }] };
    const { model, term, prompt } = await startPi(
      [
        {
          toolCalls: [
            { name: "question", arguments: first },
            { name: "question", arguments: second },
          ],
        },
      ],
      "two",
    );
    await prompt("set up storage");
    await term.waitFor("› 1. PostgreSQL");
    expect(term.screen()).not.toContain("› 1. Redis");
    term.press("2");
    // The second form waits out auto-throttle's countdown, then opens.
    await term.waitFor("› 1. Redis", 15000);
    term.press("1");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["Q1: user selected: 2. SQLite", "Q1: user selected: 1. Redis"]);
  });

  it("a terminal resize while the form is open re-lays it out and it still answers", async () => {
    const args = {
      question: "A long question whose prompt has to wrap when the terminal gets narrow enough to need it?",
      options: [{ label: "Keep going" }, { label: "Stop here" }],
    };
    const { model, term, prompt } = await startPi([{ toolCalls: [{ name: "question", arguments: args }] }], "resize", {
      width: 120,
      height: 32,
    });
    await prompt("go");
    await term.waitFor("› 1. Keep going");
    term.resize(44, 30);
    const narrow = await term.waitFor(/\n need it\?/);
    for (const line of narrow.split("\n")) expect(line.length).toBeLessThanOrEqual(44);
    term.press("Down", "Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["Q1: user selected: 2. Stop here"]);
  });

  it("Esc keeps what was entered; asked again, the form restores it and says so; submit sends it", async () => {
    const args = {
      questions: [
        { id: "db", label: "DB", prompt: "Which database?", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
        { id: "name", label: "Name", prompt: "Name of the database?", options: [{ label: "app" }, { label: "main" }] },
      ],
    };
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: args }] }, { toolCalls: [{ name: "question", arguments: args }] }],
      "draft",
    );
    await prompt("first ask");
    await term.waitFor("Which database?");
    term.press("2");
    await term.waitFor("Name of the database?");
    term.press("3");
    await term.waitFor("Shift+Enter new line");
    term.type("billing");
    term.press("Escape");
    // Back on the list (its help line), so the next Esc is not read together with the first.
    await term.waitFor("1-9 choose");
    // Something was entered: Esc asks first, and a second Esc discards (a draft is kept).
    term.press("Escape");
    await term.waitFor("Discard what you entered?");
    term.press("Escape");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])[0]).toContain(
      "User cancelled the form. Answers given before cancelling:\nDB: user selected: 2. SQLite",
    );
    // After auto-throttle's countdown the same form opens with the draft.
    // Waiting for what only the second form shows: Pi may still be drawing the first when the model hears of it.
    const again = await term.waitFor((screen) => screen.includes("■ DB") && screen.includes("↺ Restored"), 15000);
    expect(again).toContain("↺ Restored what you entered before this form was closed.");
    term.press("Tab", "3");
    await term.waitFor("billing");
    term.press("Enter");
    await term.waitFor("Ready. Press Enter to submit.");
    term.press("Enter");
    await model.waitForRequests(3);
    expect(toolResults(model.requests[2]).at(-1)).toBe("DB: user selected: 2. SQLite\nName: user wrote: billing");
  });
});
