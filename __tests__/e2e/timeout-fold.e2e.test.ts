/**
 * A form's timeout and its fold key inside the real `pi` binary, in a real
 * terminal (tmux), answering a scripted model: a timeout that runs out takes
 * the recommended options, one a key stops waits for the answers; Alt+H folds
 * the form to one line and opens it again with its answers.
 */
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const timed = (timeout: number) => ({
  timeout,
  questions: [
    {
      id: "db",
      label: "DB",
      prompt: "Which database should we use?",
      options: [{ label: "PostgreSQL", recommended: true }, { label: "SQLite" }],
    },
    {
      id: "extras",
      label: "Extras",
      prompt: "Which extras?",
      multiple: true,
      options: [{ label: "Redis", recommended: true }, { label: "Search" }],
    },
  ],
});

describe("a form with a timeout in the real pi", () => {
  it("runs out with nobody pressing a key: the recommended options are taken and the model reads that it timed out", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: timed(3) }] }],
      "timeout-fires",
    );
    await prompt("pick a database");
    const screen = await term.waitFor("Which database should we use?");
    expect(screen).toMatch(/Closes in [1-3]s with the recommended answers; press any key to take your time\./);
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      [
        "The form timed out: nobody pressed a key within 3s, so the user submitted nothing.",
        "Taken by default (the option you marked recommended):",
        "DB: 1. PostgreSQL",
        "Extras: 1. Redis",
      ].join("\n"),
    ]);
    const after = await term.waitFor("Timed out");
    expect(after).toContain("1. PostgreSQL (recommended, by timeout)");
  });

  it("runs out in a questionnaire too: the recommended option is taken, a rating stays open, the transcript says so", async () => {
    const args = {
      timeout: 3,
      questions: [
        {
          id: "db",
          label: "DB",
          prompt: "Which database should we use?",
          options: [{ label: "PostgreSQL" }, { label: "SQLite", recommended: true }],
        },
        { id: "mood", label: "Mood", prompt: "How did the last deploy go?", type: "rating", options: [] },
      ],
    };
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "questionnaire", arguments: args }] }],
      "timeout-questionnaire",
    );
    await prompt("plan the deploy");
    await term.waitFor("Which database should we use?");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      [
        "The form timed out: nobody pressed a key within 3s, so the user submitted nothing.",
        "Taken by default (the option you marked recommended):",
        "DB: 2. SQLite",
        "No answer: Mood",
      ].join("\n"),
    ]);
    const after = await term.waitFor("Timed out");
    expect(after).toContain("SQLite (recommended, by timeout)");
  });

  it("is stopped by the first key: the form waits past the timeout and sends the person's answers", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: timed(2) }] }],
      "timeout-stopped",
    );
    await prompt("pick a database");
    await term.waitFor("Closes in");
    term.press("Down");
    const moved = await term.waitFor("› 2. SQLite");
    expect(moved).not.toContain("Closes in");
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(model.requests).toHaveLength(1);
    term.press("Enter");
    await term.waitFor("Which extras?");
    term.press("Space", "Enter");
    await term.waitFor("Ready. Press Enter to submit.");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["DB: user selected: 2. SQLite\nExtras: user selected: 1. Redis"]);
  });
});

describe("folding a form in the real pi", () => {
  it("Alt+H folds the form to one line, shows the transcript above it, and opens it again with every answer", async () => {
    const { model, term, prompt } = await startPi(
      [{ text: "Two choices before I start.", toolCalls: [{ name: "question", arguments: timed(600) }] }],
      "fold",
    );
    await prompt("pick a database");
    const open = await term.waitFor("Which database should we use?");
    expect(open).toContain("Alt+H fold");
    term.press("2");
    await term.waitFor("Which extras?");
    term.press("Down", "Space");
    await term.waitFor("[x] 2. Search");
    term.press("M-h");
    const folded = await term.waitFor("▸ Alt+H opens the form again · 2/2 answered · Which database should we use?");
    expect(folded).not.toContain("Which extras?");
    expect(folded).toContain("Two choices before I start.");
    term.press("M-h");
    const back = await term.waitFor("Which extras?");
    expect(back).toContain("› [x] 2. Search");
    expect(back).toContain("■ DB");
    term.press("Enter");
    await term.waitFor("Ready. Press Enter to submit.");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["DB: user selected: 2. SQLite\nExtras: user selected: 2. Search"]);
  });
});
