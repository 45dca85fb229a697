/**
 * The person decides about questions asked with `wait: false`: which one to
 * open, to put one back or refuse it, with every key named where it works
 * and nowhere else; the line counts down a timeout; the transcript says how
 * each ended. Driven with the real keys on the real component.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Component, visibleWidth } from "@earendil-works/pi-tui";
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { plainTheme } from "../renderers/theme.js";
import { readSettings } from "../tools/settings.js";
import { KEY } from "./helpers/fake-host.js";
import { tempAgentDir } from "./helpers/temp.js";
import { ALT_A, ALT_X, asked, extension, settle } from "./helpers/waiting-extension.js";

const ci = { id: "ci", label: "CI", prompt: "Which CI?", options: [{ label: "GitHub" }, { label: "Jenkins" }] };
const askedCi = { wait: false, questions: [ci] };

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask", "setImmediate"] });
});
afterEach(() => {
  jest.useRealTimers();
});

const screen = (form: Component | undefined) => form?.render(120).join("\n") ?? "";

describe("with several waiting, the person chooses", () => {
  it("the open key in an open question puts it back and opens the next; the line says so, and names no dead key", async () => {
    const x = await extension();
    await x.call("question", askedCi);
    expect(x.line()?.[0]).toMatch(
      /^\? 2 questions wait \(0:00\) · Alt\+A opens ask-1: Which database\? · Alt\+A in it opens the next · ask-1 times out in 0:30$/,
    );
    await x.open();
    expect(screen(x.form())).toContain("Which database?");
    expect(x.line()).toEqual(["? 1 more question waits · Alt+A puts ask-1 back and opens ask-2: Which CI?"]);
    x.form()!.handleInput(ALT_A);
    await settle();
    expect(screen(x.form())).toContain("Which CI?");
    expect(x.line()).toEqual(["? 1 more question waits · Alt+A puts ask-2 back and opens ask-1: Which database?"]);
    // Answered, ask-2 leaves; ask-1 alone waits, and the line names the key that opens it.
    x.form()!.handleInput("2");
    await settle();
    expect(x.line()).toEqual([
      expect.stringMatching(/^\? A question waits \(0:00\) · Alt\+A opens ask-1: Which database\?$/),
    ]);
    await x.open();
    // Alone and open: no line, and the open key says why it does nothing.
    expect(x.widgets.at(-1)).toBeUndefined();
    x.form()!.handleInput(ALT_A);
    expect(screen(x.form())).toContain("No other question waits: Esc puts ask-1 back.");
    x.form()!.handleInput("1");
    await x.closed();
    expect(x.pi.sent.map((s) => s.message.content)).toEqual([
      "Answer to ask-2 (question, asked with wait: false):\nCI: user selected: 2. Jenkins",
      "Answer to ask-1 (question, asked with wait: false):\nDB: user selected: 1. PostgreSQL",
    ]);
  });

  it("a question put back goes behind the others, so the open key reaches each in turn", async () => {
    const x = await extension();
    await x.call("question", askedCi);
    await x.open();
    x.form()!.handleInput(KEY.esc);
    await x.closed();
    expect(x.line()?.[0]).toContain("Alt+A opens ask-2: Which CI?");
  });
});

describe("refusing a waiting question", () => {
  it("the refuse key ends it: the model reads a plain decline, the transcript says so", async () => {
    const x = await extension();
    await x.open();
    const shown = screen(x.form());
    expect(shown).toContain("Esc put back");
    expect(shown).toContain("Alt+X decline");
    expect(shown).not.toContain("Esc cancel");
    x.form()!.handleInput(ALT_X);
    await x.closed();
    expect(x.pi.sent).toEqual([
      {
        message: expect.objectContaining({
          customType: "formchart-waiting",
          content: "Answer to ask-1 (question, asked with wait: false):\nUser declined to answer this question.",
          details: { id: "ask-1", toolName: "question", outcome: "declined" },
        }),
        options: { deliverAs: "followUp", triggerTurn: true },
      },
    ]);
    const message = x.pi.renderers.get("formchart-waiting")!(x.pi.sent[0].message, {}, plainTheme)!;
    expect(message.render(80).map((l) => l.trim())).toEqual([
      "✗ You declined ask-1; the model was told:",
      "User declined to answer this question.",
    ]);
  });
});

describe("Esc on a question that waits", () => {
  it("puts it back with what was entered, without a prompt that claims to discard", async () => {
    const x = await extension();
    await x.open();
    x.form()!.handleInput(KEY.down);
    x.form()!.handleInput(KEY.esc);
    expect(screen(x.form())).not.toContain("Discard");
    await x.closed();
    expect(x.line()?.[0]).toContain("A question waits");
  });

  it("reopens a typed answer that was open with its text shown", async () => {
    const x = await extension();
    await x.open();
    // "Type something." is the third row: open its editor and type.
    x.form()!.handleInput("3");
    for (const ch of "MariaDB") x.form()!.handleInput(ch);
    x.form()!.handleInput("\x1bh");
    await x.closed();
    await x.open();
    expect(screen(x.form())).toContain("MariaDB");
  });
});

describe("the open key is a setting", () => {
  it("binds the key the settings name, and every line names it", async () => {
    const x = await extension(asked, { settings: { waitingKey: "alt+w" } });
    expect([...x.pi.shortcuts.keys()]).toContain("alt+w");
    expect([...x.pi.shortcuts.keys()]).not.toContain("alt+a");
    expect(x.line()?.[0]).toContain("Alt+W opens ask-1");
    const result = x.pending!;
    const line = x.pi.tools.get("question")!.renderResult!(result, {}, plainTheme, {});
    expect(line.render(80).join("").trim()).toBe("Waiting (ask-1): Alt+W opens it");
  });

  it.each([["a"], ["ctrl+ctrl+a"], [5], ["alt+"], ["shift+a"]])("%p is no key: Alt+A stays", (key) => {
    const file = join(tempAgentDir(), "settings.json");
    writeFileSync(file, JSON.stringify({ waitingKey: key }));
    expect(readSettings(file).settings.waitingKey).toBe("alt+a");
  });
});

describe("the line and the transcript", () => {
  it("counts down the nearest timeout", async () => {
    const x = await extension();
    jest.advanceTimersByTime(5_000);
    expect(x.line()?.[0]).toMatch(/\(0:05\) · Alt\+A opens ask-1: Which database\? · ask-1 times out in 0:25$/);
  });

  it("a withdrawn question's tool line says withdrawn", async () => {
    const x = await extension();
    const line = x.pi.tools.get("question")!.renderResult!(x.pending, {}, plainTheme, {});
    expect(line.render(80).join("").trim()).toBe("Waiting (ask-1): Alt+A opens it");
    await x.call("withdraw_question", { id: "ask-1" });
    expect(line.render(80).join("").trim()).toBe("Withdrawn (ask-1) by the model");
  });

  it("an answer's message reads as what happened, not as a raw type", async () => {
    const x = await extension();
    await x.open();
    x.form()!.handleInput("2");
    await x.closed();
    const message = x.pi.renderers.get("formchart-waiting")!(x.pi.sent[0].message, {}, plainTheme)!;
    const lines = message.render(80).map((l) => l.trim());
    expect(lines).toEqual(["✓ Your answer to ask-1 went to the model:", "DB: user selected: 2. SQLite"]);
  });

  it("fits every width from 40 to 200 columns: parts dropped or shortened whole, never wrapped inside a phrase", async () => {
    const x = await extension();
    await x.call("question", askedCi);
    jest.advanceTimersByTime(24_000);
    const full = x.line(200)![0];
    expect(full).toMatch(
      /^\? 2 questions wait \(0:\d\d\) · Alt\+A opens ask-\d: Which .*\?( · Alt\+A in it opens the next)?/,
    );
    const phrases = full.split(/ · |: | \(/);
    for (let width = 40; width <= 200; width++) {
      const lines = x.line(width)!;
      expect(lines).toHaveLength(1);
      // Pi leaves a column each side.
      expect(visibleWidth(lines[0])).toBeLessThanOrEqual(width - 2);
      expect(lines[0]).toMatch(/^\? 2 questions wait/);
      expect(lines[0]).toContain("Alt+A opens ask-");
      // Each phrase kept is whole, but the question's own words, which may end in "…".
      for (const kept of lines[0].split(/ · |: | \(/))
        expect(phrases.some((p) => p === kept || kept.endsWith("…"))).toBe(true);
    }
    expect(x.line(110)![0]).not.toContain("in it opens the next");
    expect(x.line(40)![0]).toBe("? 2 questions wait · Alt+A opens ask-1");
  });

  it("with the mouse on, a click on the line opens the question", async () => {
    const x = await extension(asked, { settings: { mouse: true } });
    const widget = x.widgets.at(-1) as (tui: unknown, theme: unknown) => Component;
    expect(typeof widget).toBe("function");
    const line = widget({}, plainTheme) as Component & { handleMouse(e: object): unknown };
    const at = { button: "left", x: 3, y: 0, screenX: 3, screenY: 20, width: 80, height: 1 };
    expect(line.handleMouse({ ...at, type: "press" })).toEqual({ handled: true });
    line.handleMouse({ ...at, type: "click" });
    await settle();
    expect(screen(x.form())).toContain("Which database?");
  });
});

describe("/formchart key", () => {
  it("shows the key bound now, saves a new one for the next start, and refuses what is no key", async () => {
    const x = await extension();
    const notices: string[] = [];
    const ctx = { hasUI: true, ui: { notify: (text: string) => notices.push(text), setStatus: () => {} } };
    const run = (args: string) => x.pi.commands.get("formchart")!.handler(args, ctx);
    await run("key");
    expect(notices.at(-1)).toMatch(/^The key that opens a waiting question: Alt\+A\nUsage: \/formchart key/);
    await run("key Ctrl+Shift+Q");
    expect(notices.at(-1)).toBe("The key that opens a waiting question: Alt+A; Ctrl+Shift+Q from the next start");
    await run("key \x1b[31mq");
    expect(notices.at(-1)).toMatch(/^"q" is not a key Pi can bind\./);
    const again = await extension(null, { settings: { waitingKey: "ctrl+shift+q" } });
    expect([...again.pi.shortcuts.keys()]).toContain("ctrl+shift+q");
  });
});

describe("a waiting ask_form declined", () => {
  const confirm = { wait: false, message: "Deploy to production?", schema: { type: "object", properties: {} } };

  it.each([
    ["d", "d"],
    ["Alt+X", ALT_X],
  ])("by %s: one wording on its screen, and the call's line and the message both say declined", async (_, key) => {
    const x = await extension(null);
    const pending = await x.call("ask_form", confirm);
    await x.open();
    const shown = screen(x.form());
    expect(shown).toContain("✗ Decline: press d to decline and send nothing.");
    expect(shown).toContain("d/Alt+X decline");
    expect(shown).not.toMatch(/refuse/);
    x.form()!.handleInput(key);
    await x.closed();
    const line = x.pi.tools.get("ask_form")!.renderResult!(pending, {}, plainTheme, {});
    expect(line.render(80).join("").trim()).toBe("Declined (ask-1): the model was told");
    expect(x.pi.sent.map((s) => s.message.content)).toEqual([
      'Answer to ask-1 (ask_form, asked with wait: false):\nUser declined "Deploy to production?": they did not confirm it.',
    ]);
    const message = x.pi.renderers.get("formchart-waiting")!(x.pi.sent[0].message, {}, plainTheme)!;
    expect(message.render(80)[0].trim()).toBe("✗ You declined ask-1; the model was told:");
  });
});

describe("an open key that would break Pi or the form is refused, with the reason", () => {
  const run = async (key: string) => {
    const x = await extension(null);
    const notices: string[] = [];
    const ctx = { hasUI: true, ui: { notify: (text: string) => notices.push(text), setStatus: () => {} } };
    await x.pi.commands.get("formchart")!.handler(`key ${key}`, ctx);
    return { said: notices.at(-1)!, stored: readSettings(join(x.agentDir, "pi-formchart", "settings.json")) };
  };

  it.each([
    ["ctrl+m", "ctrl+m is the key Enter sends: Enter would stop sending prompts. Choose another key."],
    ["Ctrl+I", "ctrl+i is the key Tab sends: Tab would stop completing. Choose another key."],
    ["ctrl+j", "ctrl+j is the key a new line sends: the editor would stop taking new lines. Choose another key."],
    ["ctrl+h", "ctrl+h is the key Backspace sends: Backspace would stop deleting. Choose another key."],
    [
      "ctrl+alt+m",
      "ctrl+alt+m is the key Alt+Enter sends: Alt+Enter would stop queueing follow-ups. Choose another key.",
    ],
    [
      "ctrl+c",
      "ctrl+c is Pi's own key (it clears the editor): Pi skips an extension's shortcut on it. Choose another key.",
    ],
    [
      "ctrl+l",
      "ctrl+l is Pi's own key (it selects a model): Pi skips an extension's shortcut on it. Choose another key.",
    ],
    [
      "shift+ctrl+p",
      "shift+ctrl+p is Pi's own key (it cycles models back): Pi skips an extension's shortcut on it. Choose another key.",
    ],
    [
      "alt+x",
      "alt+x is a form's own key (it refuses a question that waits): it would not reach the form. Choose another key.",
    ],
    ["alt+h", "alt+h is a form's own key (it folds a form): it would not reach the form. Choose another key."],
    ["ctrl+alt+a+b", '"ctrl+alt+a+b" is not a key Pi can bind. Choose another key.'],
  ])("%s is refused and not saved", async (key, reason) => {
    const { said, stored } = await run(key);
    expect(said.split("\n")[0]).toBe(reason);
    expect(stored.stored.waitingKey).toBeUndefined();
  });

  it.each(["ctrl+d", "ctrl+z", "ctrl+p", "ctrl+o", "ctrl+t", "ctrl+g", "ctrl+x", "ctrl+k"])(
    "%s is Pi's own",
    async (key) => {
      expect((await run(key)).said).toMatch(
        new RegExp(`^${key.replace("+", "\\+")} is Pi's own key \\(it [^)]+\\): Pi skips`),
      );
    },
  );

  it.each(["alt+a", "f6", "ctrl+shift+q", "alt+m", "ctrl+alt+h"])("%s is saved", async (key) => {
    const { said, stored } = await run(key);
    expect(said).toMatch(/^The key that opens a waiting question: Alt\+A/);
    expect(stored.settings.waitingKey).toBe(key);
  });

  it("the form's own fold and refuse keys are the ones refused", async () => {
    const { FOLD_KEY } = await import("../renderers/terminal/keymap.js");
    const { keyProblem, REFUSE_KEY } = await import("../tools/waiting-names.js");
    expect(keyProblem(FOLD_KEY)).toMatch(/^alt\+h is a form's own key/);
    expect(keyProblem(REFUSE_KEY)).toMatch(/^alt\+x is a form's own key/);
  });

  it.each([["ctrl+m"], ["ctrl+c"], ["alt+x"], [5]])(
    "a stored %p is never bound: Alt+A is, and the session's start says why",
    async (key) => {
      const x = await extension(null, { settings: { waitingKey: key } });
      expect([...x.pi.shortcuts.keys()]).toEqual(["alt+a"]);
      await x.pi.fire("session_start", { type: "session_start", reason: "startup" }, x.ctx);
      expect(x.notices.filter((n) => n.includes("waitingKey"))).toEqual([
        expect.stringMatching(
          new RegExp(
            `^pi-formchart: waitingKey not used: "?${String(key).replace("+", "\\+")}"? is .+ Alt\\+A opens questions that wait\\.$`,
          ),
        ),
      ]);
    },
  );
});
