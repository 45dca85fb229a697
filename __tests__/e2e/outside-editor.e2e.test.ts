/**
 * Pi's external-editor key in the real `pi`, in a real terminal (tmux): on a
 * form's free-text row Ctrl+G hands the text to $VISUAL (a script that
 * writes a known text and records what it was given), the form comes back
 * holding that text, and the model reads it as the typed answer; Pi 1.x's
 * `externalEditor` setting comes before $VISUAL, as for Pi's own key.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { EVERY_TOOL } from "./pi-home.js";
import { HOST } from "./pi-host.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const dir = mkdtempSync(join(tmpdir(), "formchart-visual-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const given = join(dir, "given.txt");
const editor = join(dir, "editor.sh");
writeFileSync(editor, `#!/bin/sh\ncp "$1" '${given}'\nprintf 'Written in my editor\\n' > "$1"\n`);
chmodSync(editor, 0o755);

const visual = join(dir, "visual.sh");
writeFileSync(visual, `#!/bin/sh\nprintf 'Written by VISUAL\\n' > "$1"\n`);
chmodSync(visual, 0o755);

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
    await prompt("ask about the cache");
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

  it(`runs ${HOST.current ? "Pi's externalEditor setting before $VISUAL" : "$VISUAL: Pi 0.73 has no externalEditor setting"}`, async () => {
    const files = { ...EVERY_TOOL, "settings.json": JSON.stringify({ externalEditor: editor }) };
    const { model, term, prompt } = await startPi(
      [{ toolCalls: [{ name: "question", arguments: args }] }],
      "outside-setting",
      { width: 100, height: 32 },
      [],
      { VISUAL: visual },
      files,
    );
    await prompt("ask about the cache");
    await term.waitFor("Which cache?");
    term.press("End", "Enter");
    await term.waitFor("Shift+Enter new line");
    term.press("C-g");
    const written = HOST.current ? "Written in my editor" : "Written by VISUAL";
    await term.waitFor(written);
    term.press("Enter");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([`Q1: user wrote: ${written}`]);
  });
});
