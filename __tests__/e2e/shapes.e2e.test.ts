/**
 * Other call shapes in the real `pi`, in tmux: the call line Pi shows for
 * the single-question shape names the question and its option count, string
 * options and a nested `branch` open the form they stand for.
 */
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

describe("other call shapes in the real pi", () => {
  it("the single-question shape with string options: call line, form and answer", async () => {
    const args = { question: "Which database should we use?", options: ["PostgreSQL", "SQLite", "DuckDB"] };
    const { model, term, prompt } = await startPi([{ toolCalls: [{ name: "question", arguments: args }] }], "single");
    await prompt("db?");
    const screen = await term.waitFor("3. DuckDB");
    expect(screen).toContain("question Which database should we use? (3 options)");
    term.press("2");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["Q1: user selected: 2. SQLite"]);
  });

  it("a nested branch hides the question its condition rules out", async () => {
    const args = {
      questions: [
        { id: "deploy", label: "Deploy", prompt: "Deploy today?", type: "yes_no", options: [] },
        {
          id: "env",
          label: "Target",
          prompt: "Where to?",
          options: ["staging", "production"],
          branch: { when: "deploy equals Yes" },
        },
      ],
    };
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question_branch", arguments: args }] }],
      "nested",
    );
    await prompt("deploy?");
    expect(await term.waitFor("Deploy today?")).toContain("question_branch 2 questions (Deploy, Target)");
    term.press("2");
    await term.waitFor("Ready. Press Enter to submit.");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["Deploy: user selected: 2. No\nSkipped by conditions: env"]);
  });
});
