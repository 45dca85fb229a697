/**
 * Pi's external-editor key (Ctrl+G unless remapped) in every editor a form
 * opens: the text goes to $VISUAL in a file, comes back as if typed, and
 * meets the same checks as typing.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { KeyId } from "@earendil-works/pi-tui";
import { afterEach, describe, expect, it } from "@jest/globals";
import { normalizeForm, type QuestionInput } from "../machines/spec.js";
import type { KeyMatcher } from "../renderers/terminal/keymap.js";
import { plainText } from "../renderers/text.js";
import { fakeHost, KEY, openForm } from "./helpers/fake-host.js";
import { tempAgentDir } from "./helpers/temp.js";

const CTRL_G = "\x07";
const dir = tempAgentDir();

/** A shell script used as the editor: `body` runs with the file as $1. */
function editorScript(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const writes = (text: string) => editorScript(`writes-${text.length}`, `printf '%s\\n' '${text}' > "$1"`);
const upper = editorScript("upper", `tr a-z A-Z < "$1" > "$1.new" && mv "$1.new" "$1"`);
const broken = editorScript("broken", "exit 3");

const saved = { VISUAL: process.env.VISUAL, EDITOR: process.env.EDITOR };
afterEach(() => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

/** A form on a host that gives the terminal up and takes it back, each call recorded. */
function openOn(questions: QuestionInput[], keybindings?: KeyMatcher) {
  const calls: string[] = [];
  let back: () => void = () => {};
  const host = {
    ...fakeHost(30, 80),
    stop: () => calls.push("stop"),
    start: () => {
      calls.push("start");
      back();
    },
  };
  const open = openForm(normalizeForm({ questions }), { host, ...(keybindings ? { keybindings } : {}) });
  /** Press the key and wait until the editor has exited and the form holds the text. */
  const outside = async (key = CTRL_G) => {
    const returned = new Promise<void>((resolve) => {
      back = resolve;
    });
    open.press(key);
    await returned;
    // The text is taken back in the same turn as the terminal.
    await Promise.resolve();
  };
  const screen = () => open.form.render(80).map(plainText).join("\n");
  return { ...open, calls, outside, screen };
}

const textQuestion = (text: QuestionInput["text"] = { type: "text" }): QuestionInput => ({
  prompt: "Describe it",
  options: [],
  kind: "text",
  text,
});

describe("the external-editor key", () => {
  it("writes a typed answer in $VISUAL, gives the terminal up meanwhile, and submits what was written", async () => {
    process.env.VISUAL = writes("written outside");
    const f = openOn([textQuestion()]);
    await f.outside();
    expect(f.calls).toEqual(["stop", "start"]);
    expect(f.screen()).toContain("written outside");
    f.press(KEY.enter);
    expect(f.results[0].answers[0].custom).toEqual(["written outside"]);
  });

  it("hands the editor what was typed so far", async () => {
    process.env.VISUAL = upper;
    const f = openOn([textQuestion()]);
    f.press("d", "r", "a", "f", "t");
    await f.outside();
    f.press(KEY.enter);
    expect(f.results[0].answers[0].custom).toEqual(["DRAFT"]);
  });

  it("reads $EDITOR when $VISUAL is not set", async () => {
    delete process.env.VISUAL;
    process.env.EDITOR = writes("from EDITOR");
    const f = openOn([textQuestion()]);
    await f.outside();
    f.press(KEY.enter);
    expect(f.results[0].answers[0].custom).toEqual(["from EDITOR"]);
  });

  it("keeps a one-line field on one line and checks what comes back as it checks typing", async () => {
    process.env.VISUAL = editorScript("two-lines", `printf '4\\n2\\n' > "$1"`);
    const f = openOn([textQuestion({ type: "number", minimum: 0, maximum: 100 })]);
    await f.outside();
    expect(f.screen()).toContain("4 2");
    expect(f.screen()).toMatch(/✗/);
    f.press(KEY.enter);
    expect(f.results).toEqual([]);
  });

  it("writes the free-text row of a list, and a note on an option", async () => {
    process.env.VISUAL = writes("my own");
    const f = openOn([
      { prompt: "Pick", options: [{ label: "A" }, { label: "B" }], notes: true },
      { prompt: "Then", options: [{ label: "C" }] },
    ]);
    f.press("n");
    await f.outside();
    f.press(KEY.enter, KEY.end, KEY.enter);
    await f.outside();
    f.press(KEY.enter, KEY.shiftTab);
    expect(f.screen()).toContain("✎ my own");
    f.press(KEY.tab, KEY.enter, KEY.enter);
    expect(f.results[0].answers[0].custom).toEqual(["my own"]);
    expect(f.results[0].notes[0]).toEqual({ 0: "my own" });
  });

  it("writes the additional notes of the review screen", async () => {
    process.env.VISUAL = writes("notes from outside");
    const calls: string[] = [];
    let back: () => void = () => {};
    const host = { ...fakeHost(30, 80), stop: () => calls.push("stop"), start: () => back() };
    const spec = normalizeForm({
      questions: [{ prompt: "Pick", options: [{ label: "A" }] }],
      additionalNotes: true,
      alwaysReview: true,
    });
    const f = openForm(spec, { host });
    f.press("1", "n");
    const returned = new Promise<void>((resolve) => {
      back = resolve;
    });
    f.press(CTRL_G);
    await returned;
    await Promise.resolve();
    f.press(KEY.enter, KEY.enter);
    expect(calls).toEqual(["stop"]);
    expect(f.results[0].additionalText).toBe("notes from outside");
  });

  it("leaves the text as it was and says why when the editor fails", async () => {
    process.env.VISUAL = broken;
    const f = openOn([textQuestion()]);
    f.press("k", "e", "p", "t");
    await f.outside();
    expect(f.screen()).toMatch(/exited with 3; the text is as\s+it was/);
    f.press(KEY.enter);
    expect(f.results[0].answers[0].custom).toEqual(["kept"]);
  });

  it("says how to name an editor when none is set, and keeps the terminal", () => {
    delete process.env.VISUAL;
    delete process.env.EDITOR;
    const f = openOn([textQuestion()]);
    f.press(CTRL_G);
    expect(f.calls).toEqual([]);
    expect(f.screen()).toContain("Set $VISUAL or $EDITOR");
  });

  it("follows the person's binding of Pi's action", async () => {
    process.env.VISUAL = writes("remapped");
    const kb: KeyMatcher = {
      getKeys: (binding) => (binding === ("app.editor.external" as never) ? ["ctrl+t" as KeyId] : []),
    };
    const f = openOn([textQuestion()], kb);
    f.press(CTRL_G);
    expect(f.calls).toEqual([]);
    await f.outside("\x14");
    expect(f.screen()).toContain("remapped");
  });
});

describe("the external-editor key in the help line", () => {
  it("is named in a typed answer, on the free-text row and in a note, in the person's binding", () => {
    const text = openOn([textQuestion()]);
    expect(text.screen()).toContain("Ctrl+G your editor");
    const list = openOn([{ prompt: "Pick", options: [{ label: "A" }], notes: true }]);
    expect(list.screen()).not.toContain("your editor");
    list.press("n");
    expect(list.screen()).toContain("Ctrl+G your editor");
    list.press(KEY.enter, KEY.end, KEY.enter);
    expect(list.screen()).toContain("Ctrl+G your editor");
    const kb: KeyMatcher = {
      getKeys: (binding) => (binding === ("app.editor.external" as never) ? ["ctrl+t" as KeyId] : []),
    };
    expect(openOn([textQuestion()], kb).screen()).toContain("Ctrl+T your editor");
  });
});
