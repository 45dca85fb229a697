/**
 * Asking without stopping the model (`wait: false`) in the real `pi`, in a
 * real terminal (tmux), answering a scripted model: the call returns at
 * once and the model's next turn runs while a line above the editor says a
 * question waits; the key the line names opens the form; the answer reaches
 * a later request as a message with the question's id.
 */
import { describe, expect, it } from "@jest/globals";
import { type RecordedRequest, toolResults } from "../../scripts/fake-model.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const db = {
  id: "db",
  label: "DB",
  prompt: "Which database should we use?",
  options: [{ label: "PostgreSQL", recommended: true }, { label: "SQLite" }],
};
const ci = {
  id: "ci",
  label: "CI",
  prompt: "Which CI should run the tests?",
  options: [{ label: "GitHub" }, { label: "Jenkins" }],
};

/** Every message text of a request, tool results and the answer messages alike. */
function texts(request: RecordedRequest): string[] {
  return request.messages.flatMap((m) => {
    if (typeof m.content === "string") return [m.content];
    if (Array.isArray(m.content)) return m.content.map((c) => String((c as { text?: unknown }).text ?? ""));
    return [];
  });
}

describe("a question that does not wait, in the real pi", () => {
  it("returns at once, the model goes on, Alt+A opens the form, and the answer arrives as a message with its id", async () => {
    const { model, term, prompt } = await startPi(
      [
        { toolCalls: [{ name: "question", arguments: { wait: false, questions: [db] } }] },
        { text: "Meanwhile I am writing the migration." },
        { text: "Using SQLite, then." },
      ],
      "ask-later",
    );
    prompt("set up the project");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      "Asked the user (ask-1): Which database should we use? Their answer will arrive as a message; go on with work that does not depend on it.",
    ]);
    await term.waitFor("Meanwhile I am writing the migration.");
    const waiting = await term.waitFor("Alt+A opens ask-1: Which database should we use?");
    expect(waiting).toMatch(/\? A question waits \(0:\d\d\)/);
    term.press("M-a");
    await term.waitFor("2. SQLite");
    term.press("Down", "Enter");
    await model.waitForRequests(3);
    const answer = texts(model.requests[2]).find((t) => t.includes("ask-1") && t.startsWith("Answer"));
    expect(answer).toBe("Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite");
    await term.waitFor("Using SQLite, then.");
    expect(term.screen()).not.toContain("A question waits");
  });
});
