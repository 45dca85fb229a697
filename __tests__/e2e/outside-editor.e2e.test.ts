/**
 * Pi's external-editor key in the real `pi`, in a real terminal (tmux): on a
 * form's free-text row Ctrl+G hands the text to $VISUAL (a script that
 * writes a known text and records what it was given), the form comes back
 * holding that text, and the model reads it as the typed answer.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const dir = mkdtempSync(join(tmpdir(), "formchart-visual-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const given = join(dir, "given.txt");
const editor = join(dir, "editor.sh");
writeFileSync(editor, `#!/bin/sh\ncp "$1" '${given}'\nprintf 'Written in my editor\\n' > "$1"\n`);
chmodSync(editor, 0o755);

const args = { question: "Which cache?", options: [{ label: "Redis" }, { label: "None" }] };

describe("the external-editor key in the real pi", () => {
  it("writes a free-text answer in $VISUAL and sends it to the model as typed", async () => {
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: args }] }],
      "outside",
      { width: 100, height: 32 },
      [],
      { VISUAL: editor },
    );
    prompt("ask about the cache");
    await term.waitFor("Which cache?");
    term.press("End", "Enter");
    await term.waitFor("Shift+Enter new line");
    term.type("draft");
    await term.waitFor("draft");
    term.press("C-g");
    await term.waitFor("Written in my editor");
    expect(readFileSync(given, "utf8")).toBe("draft");
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["Q1: user wrote: Written in my editor"]);
  });
});
