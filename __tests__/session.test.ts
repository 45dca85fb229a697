/**
 * A form session apart from its screens: the chart says why it refused an
 * event where the event is sent, the outcome settles once, and every screen
 * of one session shows the same form (the editor's text included).
 */

import { getKeybindings } from "@earendil-works/pi-tui";
import { describe, expect, it, jest } from "@jest/globals";
import { loadFormFile } from "../bin/form-file.js";
import { FormSession } from "../machines/session.js";
import { type FormSpec, normalizeForm } from "../machines/spec.js";
import { BACKSPACE } from "../renderers/terminal/keymap.js";
import { TerminalScreen } from "../renderers/terminal/screen.js";
import { plainTheme } from "../renderers/theme.js";
import { KEY } from "./helpers/fake-host.js";

function example(name: string): FormSpec {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return { ...loaded.form.spec, waitMs: undefined };
}

const screenOf = (session: FormSession) =>
  new TerminalScreen(session, { theme: plainTheme, keybindings: getKeybindings() });

const plain = (lines: string[]) => lines.map((l) => l.replace(/\x1b\[[0-9;]*m|\x1b_pi:c\x07/g, "")).join("\n");

/** Two required questions on tabs: Submit refuses while either is open. */
const required = normalizeForm({
  questions: [
    { prompt: "Which database?", label: "DB", required: true, options: [{ label: "Postgres" }, { label: "SQLite" }] },
    { prompt: "Which region?", label: "Region", required: true, options: [{ label: "EU" }, { label: "US" }] },
  ],
});

describe("a refused event says which guard refused it and why", () => {
  it("Submit with a required question open: canSubmit, naming the question", () => {
    const session = new FormSession({ spec: required });
    session.send({ type: "PREV_TAB" });
    expect(session.position).toEqual({ kind: "review", mode: "reviewing" });
    const before = session.snapshot;
    const step = session.send({ type: "CONFIRM" });
    expect(step).toEqual({
      taken: false,
      guard: "canSubmit",
      why: "Not submitted yet: answer DB, Region first.",
    });
    expect(session.snapshot).toBe(before);
    session.dispose();
  });

  it("a multi-select confirmed with too few ticked: selectionAccepted, with what to tick", () => {
    const spec = normalizeForm({
      questions: [
        {
          prompt: "Which?",
          multiple: true,
          count: { min: 2 },
          options: [{ label: "A" }, { label: "B" }, { label: "C" }],
        },
      ],
    });
    const session = new FormSession({ spec });
    session.send({ type: "TOGGLE" });
    expect(session.send({ type: "CONFIRM" })).toMatchObject({
      taken: false,
      guard: "selectionAccepted",
      why: expect.stringContaining("tick 1 more"),
    });
    session.dispose();
  });

  it("a typed answer its rule refuses: textAccepted, with the rule's words", () => {
    const spec = normalizeForm({
      questions: [{ prompt: "Port?", options: [], kind: "text", text: { type: "number", minimum: 1, maximum: 9 } }],
    });
    const session = new FormSession({ spec });
    expect(session.send({ type: "SUBMIT_TEXT", text: "" })).toMatchObject({ taken: false, guard: "textAccepted" });
    session.dispose();
  });

  it("an event no state takes names no guard, and says why where there is something to say", () => {
    const session = new FormSession({ spec: example("single") });
    const step = session.send({ type: "NEXT_TAB" });
    expect(step.taken).toBe(false);
    expect(step).not.toHaveProperty("guard");
    expect(step).toMatchObject({ why: expect.stringContaining("this form asks only this one") });
    session.dispose();
  });

  it("a taken event names nothing, and a closed session takes nothing", () => {
    const session = new FormSession({ spec: example("single") });
    expect(session.send({ type: "MOVE", delta: 1 })).toEqual({ taken: true });
    session.abort();
    expect(session.send({ type: "MOVE", delta: 1 })).toEqual({ taken: false });
    session.dispose();
  });

  it("the terminal shows the session's words: a screen works out no refusal of its own", () => {
    const session = new FormSession({ spec: required });
    const screen = screenOf(session);
    screen.key(KEY.shiftTab);
    screen.key(KEY.enter);
    const said = session.send({ type: "CONFIRM" });
    expect(said.taken).toBe(false);
    expect(plain(screen.render(100, 40, false))).toContain((said as { why: string }).why);
    session.dispose();
  });
});

describe("the outcome", () => {
  it("settles once, after every watcher heard the close; `settled` has it at once", async () => {
    const session = new FormSession({ spec: example("single") });
    const heard: string[] = [];
    session.watch(() => heard.push(session.settled ? "closed" : "changed"));
    session.send({ type: "CONFIRM" });
    expect(session.settled?.result.cancelled).toBe(false);
    expect(heard.at(-1)).toBe("closed");
    const outcome = await session.outcome;
    expect(outcome).toBe(session.settled);
    session.abort();
    session.fail(new Error("late"));
    expect(session.settled).toBe(outcome);
    session.dispose();
  });

  it("a failure closes the form as cancelled with what was entered, and the error", async () => {
    const session = new FormSession({ spec: example("demo") });
    session.send({ type: "CONFIRM" });
    session.fail(new Error("boom"));
    const outcome = await session.outcome;
    expect(outcome.error).toBe("boom");
    expect(outcome.result.cancelled).toBe(true);
    expect(outcome.context.answered[0]).toBe(true);
    session.dispose();
  });
});

describe("two screens of one session", () => {
  it("show one form: what is typed on one is in the other's editor", () => {
    const spec = normalizeForm({ questions: [{ prompt: "Name?", options: [], kind: "text" }] });
    const session = new FormSession({ spec });
    const terminal = screenOf(session);
    const page = screenOf(session);
    for (const key of "Ada") terminal.key(key);
    expect(session.editorText).toBe("Ada");
    expect(plain(page.render(60, 20, false))).toContain("Ada");
    page.key(BACKSPACE);
    page.key("m");
    expect(session.editorText).toBe("Adm");
    expect(plain(terminal.render(60, 20, false))).toContain("Adm");
    terminal.key(KEY.enter);
    expect(session.settled?.result.answers[0]).toMatchObject({ custom: ["Adm"] });
    session.dispose();
  });

  it("draws the second of the last tick: a draw that comes later without a tick between draws the same", () => {
    const session = new FormSession({ spec: { ...example("single"), waitMs: 5000 } });
    const screen = screenOf(session);
    const first = screen.render(80, 20, false);
    expect(plain(first)).toContain("coming in 5s");
    // More than a second of work before the next draw, the event loop held: no tick ran.
    const until = performance.now() + 1100;
    while (performance.now() < until);
    expect(screen.render(80, 20, false)).toEqual(first);
    session.dispose();
  });

  it("a countdown is drawn again each second it shows, and on no other tick", () => {
    jest.useFakeTimers();
    try {
      const spec = { ...example("timeout") };
      const session = new FormSession({ spec });
      const screen = screenOf(session);
      const draws: string[] = [];
      const frames = new Set<unknown>();
      session.watch(() => {
        draws.push(plain(screen.render(80, 30, false)));
        frames.add(screen.frames.last);
      });
      jest.advanceTimersByTime(2000);
      const shown = new Set(draws.map((d) => /Closes in (\d+)s/.exec(d)?.[1]));
      // Eight ticks, three seconds shown: a frame drawn for each second, the others kept.
      expect(draws.length).toBe(8);
      expect([...shown]).toEqual(["30", "29", "28"]);
      expect(frames.size).toBe(3);
      session.dispose();
    } finally {
      jest.useRealTimers();
    }
  });
});
