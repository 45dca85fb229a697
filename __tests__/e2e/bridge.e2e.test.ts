/**
 * Open forms answered by another extension in the real `pi`: a chat bridge
 * (__tests__/fixtures/chat-bridge.ts, loaded with `-e`) hears each form on
 * `pi.events` and offers the second option of each question. A blocking
 * question closes with the text a terminal answer gives and the transcript
 * says where it was answered; a question asked with `wait: false` is
 * answered by the bridge and its message says so. Without a bridge, two
 * questions that wait are listed by `/formchart waiting`, and the terminal's
 * title (OSC 0, which tmux keeps as the pane's title) counts them until they
 * are answered, or is left alone with `waitingTitle: false`.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { type RecordedRequest, toolResults } from "../../scripts/fake-model.js";
import { EVERY_TOOL, PROJECT_ROOT } from "./pi-home.js";
import { startPi, usePiSessions } from "./session.js";
import type { Terminal } from "./tmux.js";

usePiSessions();

const BRIDGE = join(PROJECT_ROOT, "__tests__", "fixtures", "chat-bridge.ts");

const ci = {
  id: "ci",
  label: "CI",
  prompt: "Which CI should run the tests?",
  options: [{ label: "GitHub" }, { label: "Jenkins" }],
};

const db = {
  id: "db",
  label: "DB",
  prompt: "Which database should we use?",
  options: [{ label: "PostgreSQL", recommended: true }, { label: "SQLite" }],
};

/** Every message text of a request, tool results and the answer messages alike. */
function texts(request: RecordedRequest): string[] {
  return request.messages.flatMap((m) => {
    if (typeof m.content === "string") return [m.content];
    if (Array.isArray(m.content)) return m.content.map((c) => String((c as { text?: unknown }).text ?? ""));
    return [];
  });
}

let dir: string;
let log: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "formchart-bridge-"));
  log = join(dir, "bridge.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What the bridge wrote down: its offers' replies and the closes it heard. */
function bridgeLog(): Array<Record<string, unknown>> {
  try {
    return readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

describe("a chat bridge answering open forms in the real pi", () => {
  it("answers a blocking question from the chat while it is on screen: the form closes, the model reads a terminal answer's text, the transcript says where", async () => {
    const inbox = join(dir, "chat.txt");
    writeFileSync(inbox, "");
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: { questions: [db] } }] }, { text: "Using SQLite, then." }],
      "bridge-blocking",
      undefined,
      ["-e", BRIDGE],
      { FORMCHART_BRIDGE_LOG: log, FORMCHART_BRIDGE_INBOX: inbox },
    );
    await prompt("set up the project");
    await term.waitFor("2. SQLite");
    appendFileSync(inbox, "form-1\n");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["DB: user selected: 2. SQLite"]);
    const screen = await term.waitFor("Using SQLite, then.");
    expect(screen).toContain("✓ DB: 2. SQLite");
    expect(screen).toContain("Answered in chat");
    expect(screen).not.toContain("1. PostgreSQL");
    expect(bridgeLog()).toEqual([
      { offered: "form-1", where: "terminal", answers: { db: "SQLite" }, reply: { ok: true, id: "form-1" } },
      { closed: { id: "form-1", tool: "question", outcome: "answered", answeredIn: "chat" } },
    ]);
  });

  it("answers a blocking question as soon as it hears of it: the form closes before a key is pressed", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: { questions: [db] } }] }, { text: "Using SQLite, then." }],
      "bridge-at-once",
      undefined,
      ["-e", BRIDGE],
      { FORMCHART_BRIDGE_LOG: log },
    );
    await prompt("set up the project");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["DB: user selected: 2. SQLite"]);
    const screen = await term.waitFor("Using SQLite, then.");
    expect(screen).toContain("Answered in chat");
    expect(screen).not.toContain("1. PostgreSQL");
  });

  it("answers a question that waits: the answer reaches the model as a message, and the transcript says the bridge answered it", async () => {
    const { model, term, prompt } = await startPi(
      [
        { toolCalls: [{ name: "question", arguments: { wait: false, questions: [db] } }] },
        { text: "Meanwhile I am writing the migration." },
        { text: "Using SQLite, then." },
      ],
      "bridge-waiting",
      undefined,
      ["-e", BRIDGE],
      { FORMCHART_BRIDGE_LOG: log },
    );
    await prompt("set up the project");
    const answer = async () => {
      for (let i = 0; i < 100; i++) {
        const found = model.requests.flatMap(texts).find((t) => t.startsWith("Answer to ask-1"));
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return undefined;
    };
    expect(await answer()).toBe("Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 2. SQLite");
    const screen = await term.waitFor("✓ ask-1 was answered in chat; the model got:");
    expect(screen).toContain("Answered (ask-1)");
    expect(screen).not.toContain("A question waits");
    expect(bridgeLog()).toEqual([
      { closed: { id: "ask-1", tool: "question", outcome: "answered", answeredIn: "chat" } },
      { offered: "ask-1", where: "waiting", answers: { db: "SQLite" }, reply: { ok: true, id: "ask-1" } },
    ]);
  });
});

/** The pane's title once `seen` holds (Pi writes it as OSC 0; tmux keeps it per pane). */
async function titleOnce(term: Terminal, seen: (title: string) => boolean): Promise<string> {
  let title = "";
  for (let i = 0; i < 200; i++) {
    title = term.flag("pane_title");
    if (seen(title)) return title;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the title never matched; last: ${title}`);
}

const twoWaiting = [
  {
    toolCalls: [
      { name: "question", arguments: { wait: false, questions: [db] } },
      { name: "question", arguments: { wait: false, questions: [ci] } },
    ],
  },
  { text: "Both asked; going on." },
];

describe("questions that wait, listed and counted in the title, in the real pi", () => {
  it("/formchart waiting lists both; the title counts them, then is Pi's own once they are answered", async () => {
    const { term, prompt } = await startPi(twoWaiting, "waiting-title", { width: 120, height: 36 });
    const own = await titleOnce(term, (t) => t.startsWith("π - formchart-cwd-"));
    await prompt("set up the project");
    await term.waitFor("Both asked; going on.");
    await term.waitFor("2 questions wait");
    expect(await titleOnce(term, (t) => t !== own)).toBe(own.replace("π - ", "π - ? 2 questions wait - "));
    await prompt("/formchart waiting");
    const listed = await term.waitFor("Questions asked with wait: false:");
    expect(listed).toMatch(/ask-1 {2}Which database should we use\? {2}\(waited \d:\d\d\)/);
    expect(listed).toMatch(/ask-2 {2}Which CI should run the tests\? {2}\(waited \d:\d\d\)/);
    term.press("M-a");
    await term.waitFor("2. SQLite");
    term.press("Enter");
    await term.waitFor((s) => s.includes("A question waits") && !s.includes("2. SQLite"));
    expect(await titleOnce(term, (t) => !t.includes("2 questions"))).toBe(
      own.replace("π - ", "π - ? a question waits - "),
    );
    term.press("M-a");
    await term.waitFor("2. Jenkins");
    term.press("Enter");
    await term.waitFor((s) => !s.includes("question waits") && !s.includes("2. Jenkins"));
    expect(await titleOnce(term, (t) => !t.includes("wait"))).toBe(own);
  });

  it("with waitingTitle off, the title stays Pi's own while questions wait", async () => {
    const settings = JSON.parse(EVERY_TOOL["pi-formchart/settings.json"]);
    const { term, prompt } = await startPi(
      twoWaiting,
      "waiting-no-title",
      undefined,
      [],
      {},
      { "pi-formchart/settings.json": JSON.stringify({ ...settings, waitingTitle: false }) },
    );
    const own = await titleOnce(term, (t) => t.startsWith("π - formchart-cwd-"));
    await prompt("set up the project");
    await term.waitFor("2 questions wait");
    // Pi writes a title at once, before it draws the line of the same change: by now one would have come.
    await prompt("/formchart waiting");
    await term.waitFor("Questions asked with wait: false:");
    expect(term.flag("pane_title")).toBe(own);
  });
});
