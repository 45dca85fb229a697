/**
 * The mouse inside the real `pi`, in tmux: with the setting on, the demo form
 * is answered with clicks alone; with it off, clicks change nothing. Where
 * the terminal keeps the mouse (Pi 0.73, Pi 1.x inline) the form reports it
 * only while it is open; a full-screen Pi 1.x reports the mouse itself and
 * hands the form its events, and its own mouse tracking is as it was when
 * the form closes (tmux's flags for the pane say what the program asked for).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { toolResults } from "../../scripts/fake-model.js";
import { PROJECT_ROOT } from "./pi-home.js";
import { HOST } from "./pi-host.js";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

const demo = JSON.parse(readFileSync(join(PROJECT_ROOT, "examples", "demo.json"), "utf8"));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FLAGS = ["mouse_any_flag", "mouse_sgr_flag", "mouse_button_flag"];
const flags = (term: { flag(name: string): string }) => FLAGS.map((f) => `${f}=${term.flag(f)}`);

describe("the mouse in the real pi", () => {
  it("with the setting on, the demo form is answered with the mouse alone", async () => {
    const { model, term, prompt } = await startPi([{ toolCalls: [{ name: "question", arguments: demo }] }], "mouse");
    // A slash command: the first Enter may only accept the completion Pi offers.
    term.type("/formchart mouse on");
    await pause(400);
    term.press("Enter");
    await pause(400);
    if (!term.screen().includes("Mouse in forms: on")) term.press("Enter");
    await term.waitFor("Mouse in forms: on");
    const before = flags(term);
    // A full-screen Pi tracks the mouse itself; inline, nothing does until a form asks.
    expect(term.flag("mouse_any_flag")).toBe(HOST.fullScreen ? "1" : "0");
    await prompt("refactor?");
    await term.waitFor("› 1. API layer");
    expect(term.flag("mouse_any_flag")).toBe("1");
    expect(term.flag("mouse_sgr_flag")).toBe("1");
    term.click("2. Data access");
    await term.waitFor("Which checks must pass");
    term.click("1. Unit tests");
    await term.waitFor("[x] 1. Unit tests");
    term.click("3. Lint");
    await term.waitFor("[x] 3. Lint");
    term.click("□ Branch");
    await term.waitFor("What should the branch be called?");
    term.click("2. refactor/layers");
    await term.waitFor("Ready. Press Enter to submit.");
    term.click("✓ Submit");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual([
      "Scope: user selected: 2. Data access (with its preview)\nChecks: user selected: 1. Unit tests, 3. Lint\nBranch: user selected: 2. refactor/layers",
    ]);
    // The form is gone: the terminal reports the mouse as it did before the form.
    await pause(300);
    expect(flags(term)).toEqual(before);
  });

  it("with the setting off, a click changes nothing and reporting stays off", async () => {
    const { model, term, prompt } = await startPi([{ toolCalls: [{ name: "question", arguments: demo }] }], "nomouse");
    const before = flags(term);
    await prompt("refactor?");
    await term.waitFor("› 1. API layer");
    expect(flags(term)).toEqual(before);
    term.click("2. Data access");
    await pause(500);
    expect(term.screen()).toContain("› 1. API layer");
    term.press("Escape");
    await model.waitForRequests(2);
    expect(toolResults(model.requests[1])).toEqual(["User cancelled the form without answering."]);
  });
});
