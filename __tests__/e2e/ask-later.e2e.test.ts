/**
 * Asking without stopping the model (`wait: false`) in the real `pi`, in a
 * real terminal (tmux), answering a scripted model: the call returns at
 * once and the model's next turn runs while a line above the editor says a
 * question waits; the key the line names opens the form; the answer reaches
 * a later request as a message with the question's id.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { type RecordedRequest, toolResults } from "../../scripts/fake-model.js";
import { EVERY_TOOL } from "./pi-home.js";
import { HOST } from "./pi-host.js";
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
    await prompt("set up the project");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      "Asked the user (ask-1): Which database should we use? Their answer will arrive as a message; go on with work that does not depend on it (withdraw_question withdraws it).",
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

  it("is withdrawn by the model: the person is told, the line goes, and the model reads that it was withdrawn", async () => {
    const { model, term, prompt } = await startPi(
      [
        { toolCalls: [{ name: "question", arguments: { wait: false, questions: [db] } }] },
        { toolCalls: [{ name: "withdraw_question", arguments: { id: "ask-1" } }] },
        { text: "I found the answer in the docs." },
      ],
      "ask-later-withdrawn",
    );
    await prompt("set up the project");
    await model.waitForRequests(3);
    expect(toolResults(model.requests[2])[1]).toBe(
      "Withdrew ask-1 (Which database should we use?); the user was told.",
    );
    const screen = await term.waitFor("I found the answer in the docs.");
    expect(screen).toContain("The model withdrew its question (ask-1): Which database should we use?");
    expect(screen).not.toContain("A question waits");
    term.press("M-a");
    await term.waitFor("no question waits");
  });

  it("times out with nobody opening it: the model reads the form's own timed-out result, with its id", async () => {
    const { model, term, prompt } = await startPi(
      [
        { toolCalls: [{ name: "question", arguments: { wait: false, timeout: 2, questions: [db] } }] },
        { text: "Meanwhile I am writing the migration." },
      ],
      "ask-later-timeout",
    );
    await prompt("set up the project");
    await term.waitFor("A question waits");
    await model.waitForRequests(3, 15000);
    expect(texts(model.requests[2]).find((t) => t.startsWith("Answer to ask-1"))).toBe(
      [
        "Answer to ask-1 (question, asked with wait: false):",
        "The form timed out: nobody pressed a key within 2s, so the user submitted nothing.",
        "Taken by default (the option you marked recommended):",
        "DB: 1. PostgreSQL",
      ].join("\n"),
    );
    expect(term.screen()).not.toContain("A question waits");
  });

  it("queues two: the line counts them, the fold key puts one back behind the other, each opens on its own, and both answers reach the model", async () => {
    const { model, term, prompt } = await startPi(
      [
        {
          toolCalls: [
            { name: "question", arguments: { wait: false, questions: [db] } },
            { name: "question", arguments: { wait: false, questions: [ci] } },
          ],
        },
        { text: "Both asked; going on." },
      ],
      "ask-later-queue",
    );
    await prompt("set up the project");
    await term.waitFor("Both asked; going on.");
    await term.waitFor("2 questions wait");
    expect(term.screen()).toContain("Alt+A opens ask-1: Which database should we use?");
    term.press("M-a");
    expect(await term.waitFor("2. SQLite")).toContain("Alt+H put back");
    // The fold key closes the opened question: both wait again, the one put back behind the other.
    term.press("M-h");
    // The line can change a frame before the form leaves the screen: wait for both.
    const back = await term.waitFor((s) => s.includes("2 questions wait") && !s.includes("2. SQLite"));
    expect(back).toContain("Alt+A opens ask-2: Which CI should run the tests?");
    term.press("M-a");
    await term.waitFor("2. Jenkins");
    term.press("Enter");
    const one = await term.waitFor((s) => s.includes("Alt+A opens ask-1: Which database") && !s.includes("2. Jenkins"));
    expect(one).toContain("A question waits");
    term.press("M-a");
    await term.waitFor("2. SQLite");
    term.press("Down", "Enter");
    const answered = async (id: string) => {
      for (let i = 0; i < 100; i++) {
        const found = model.requests.flatMap(texts).find((t) => t.startsWith(`Answer to ${id}`));
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return undefined;
    };
    expect(await answered("ask-1")).toBe(
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite",
    );
    expect(await answered("ask-2")).toBe(
      "Answer to ask-2 (question, asked with wait: false):\nCI: user selected: 1. GitHub",
    );
  });

  it("lets the person choose: the open key in an open question opens the next, and each answer reaches the model", async () => {
    const { model, term, prompt } = await startPi(
      [
        {
          toolCalls: [
            { name: "question", arguments: { wait: false, questions: [db] } },
            { name: "question", arguments: { wait: false, questions: [ci] } },
          ],
        },
        { text: "Both asked; going on." },
        { text: "Noted." },
        { text: "Noted again." },
      ],
      "ask-later-choose",
      // Wide enough for the line on one row.
      { width: 160, height: 36 },
    );
    await prompt("set up the project");
    await term.waitFor("Both asked; going on.");
    expect(await term.waitFor("2 questions wait")).toContain("Alt+A in it opens the next");
    term.press("M-a");
    const first = await term.waitFor((s) => s.includes("2. SQLite") && s.includes("Alt+A puts ask-1 back"));
    expect(first).toContain("Esc put back");
    expect(first).not.toContain("Esc cancel");
    // The open key in the open question: ask-1 goes back, ask-2 opens.
    term.press("M-a");
    const second = await term.waitFor((s) => s.includes("2. Jenkins") && !s.includes("2. SQLite"));
    expect(second).toContain("Alt+A puts ask-2 back and opens ask-1: Which database should we use?");
    term.press("Enter");
    await model.waitForRequests(3);
    expect(texts(model.requests[2]).find((t) => t.startsWith("Answer to ask-2"))).toBe(
      "Answer to ask-2 (question, asked with wait: false):\nCI: user selected: 1. GitHub",
    );
    // The transcript reads what happened, not a raw message type.
    const shown = await term.waitFor("✓ Your answer to ask-2 went to the model:");
    expect(shown).not.toContain("[formchart-waiting]");
    await term.waitFor("Alt+A opens ask-1: Which database should we use?");
    term.press("M-a");
    await term.waitFor("2. SQLite");
    term.press("Down", "Enter");
    await model.waitForRequests(4);
    expect(texts(model.requests[3]).find((t) => t.startsWith("Answer to ask-1"))).toBe(
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite",
    );
  });

  it("is refused with Alt+X: the model reads a plain decline, and the transcript says so", async () => {
    const { model, term, prompt } = await startPi(
      [
        { toolCalls: [{ name: "question", arguments: { wait: false, questions: [db] } }] },
        { text: "Meanwhile I am writing the migration." },
        { text: "I will pick one myself." },
      ],
      "ask-later-refuse",
    );
    await prompt("set up the project");
    await term.waitFor("Alt+A opens ask-1");
    term.press("M-a");
    expect(await term.waitFor("2. SQLite")).toContain("Alt+X decline");
    term.press("M-x");
    await model.waitForRequests(3);
    expect(texts(model.requests[2]).find((t) => t.startsWith("Answer to ask-1"))).toBe(
      "Answer to ask-1 (question, asked with wait: false):\nUser declined to answer this question.",
    );
    const screen = await term.waitFor((s) => s.includes("I will pick one myself.") && s.includes("Declined (ask-1)"));
    expect(screen).toContain("✗ You declined ask-1; the model was told:");
  });

  it("opens with the key the settings name", async () => {
    const settings = JSON.parse(EVERY_TOOL["pi-formchart/settings.json"]);
    const { model, term, prompt } = await startPi(
      [
        { toolCalls: [{ name: "question", arguments: { wait: false, questions: [db] } }] },
        { text: "Meanwhile I am writing the migration." },
        { text: "Using SQLite, then." },
      ],
      "ask-later-key",
      undefined,
      [],
      {},
      { "pi-formchart/settings.json": JSON.stringify({ ...settings, waitingKey: "f6" }) },
    );
    await prompt("set up the project");
    await term.waitFor("F6 opens ask-1: Which database should we use?");
    term.press("F6");
    await term.waitFor("2. SQLite");
    term.press("Down", "Enter");
    await model.waitForRequests(3);
    expect(texts(model.requests[2]).find((t) => t.startsWith("Answer to ask-1"))).toBe(
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite",
    );
    // The call's line in the transcript follows the question to its end.
    await term.waitFor("Answered (ask-1)");
  });

  // Only a full-screen Pi hands the mouse to the components it lays out; inline, the terminal keeps it.
  (HOST.fullScreen ? it : it.skip)("with the mouse on, a click on the line opens the question", async () => {
    const settings = JSON.parse(EVERY_TOOL["pi-formchart/settings.json"]);
    const { model, term, prompt } = await startPi(
      [
        { toolCalls: [{ name: "question", arguments: { wait: false, questions: [db] } }] },
        { text: "Meanwhile I am writing the migration." },
        { text: "Using SQLite, then." },
      ],
      "ask-later-click",
      undefined,
      [],
      {},
      { "pi-formchart/settings.json": JSON.stringify({ ...settings, mouse: true }) },
    );
    await prompt("set up the project");
    await term.waitFor("Meanwhile I am writing the migration.");
    await term.waitFor("Alt+A opens ask-1");
    term.click("A question waits");
    await term.waitFor("2. SQLite");
    term.press("Down", "Enter");
    await model.waitForRequests(3);
    expect(texts(model.requests[2]).find((t) => t.startsWith("Answer to ask-1"))).toBe(
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite",
    );
  });

  it("still waits after /reload, and its answer still reaches the model", async () => {
    const { model, term, prompt } = await startPi(
      [
        { toolCalls: [{ name: "question", arguments: { wait: false, questions: [db] } }] },
        { text: "Meanwhile I am writing the migration." },
        { text: "Using SQLite, then." },
      ],
      "ask-later-reload",
    );
    await prompt("set up the project");
    await term.waitFor("Meanwhile I am writing the migration.");
    await term.waitFor("A question waits");
    await prompt("/reload");
    await term.waitFor("Reloaded");
    await term.waitFor("Alt+A opens ask-1: Which database should we use?");
    term.press("M-a");
    await term.waitFor("2. SQLite");
    term.press("Down", "Enter");
    await model.waitForRequests(3);
    expect(texts(model.requests[2]).find((t) => t.startsWith("Answer to ask-1"))).toBe(
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite",
    );
  });

  it("is asked again when a saved session resumes, and its answer reaches the resumed session's model", async () => {
    const sessions = mkdtempSync(join(tmpdir(), "formchart-sessions-"));
    try {
      const first = await startPi(
        [
          { toolCalls: [{ name: "question", arguments: { wait: false, questions: [db] } }] },
          { text: "Meanwhile I am writing the migration." },
        ],
        "ask-later-saved",
        undefined,
        ["--session-dir", sessions],
      );
      await first.prompt("set up the project");
      await first.term.waitFor("Meanwhile I am writing the migration.");
      await first.term.waitFor("A question waits");
      // The person leaves Pi with the question unanswered (Ctrl+D on the empty editor).
      first.term.press("C-d");
      const saved = readdirSync(sessions, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
      expect(saved).toHaveLength(1);

      const second = await startPi([{ text: "Using SQLite, then." }], "ask-later-resumed", undefined, [
        "--session",
        join(sessions, saved[0]),
      ]);
      const again = await second.term.waitFor("Alt+A opens ask-1: Which database should we use?");
      expect(again).toContain("1 question from before waits again");
      second.term.press("M-a");
      await second.term.waitFor("2. SQLite");
      second.term.press("Down", "Enter");
      await second.model.waitForRequests(1);
      expect(texts(second.model.requests[0]).find((t) => t.startsWith("Answer to ask-1"))).toBe(
        "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite",
      );
      await second.term.waitFor("Using SQLite, then.");
    } finally {
      rmSync(sessions, { recursive: true, force: true });
    }
  });
});
