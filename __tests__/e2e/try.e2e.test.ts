/**
 * `/formchart try` in the real pi: an example completed by name, opened as a
 * model's call opens it, answered with real keys; the transcript shows what
 * the model would have received, and the scripted model is asked nothing.
 */
import { describe, expect, it } from "@jest/globals";
import { startPi, usePiSessions } from "./session.js";

usePiSessions();

describe("/formchart try in the real pi", () => {
  it("opens an example completed by name, shows what the model would get, and sends it nothing", async () => {
    const { model, term } = await startPi([{ text: "no request was expected" }], "try", { width: 120, height: 36 });
    term.type("/formchart try sing");
    // The completion list offers the example by its name.
    await term.waitFor("→ single");
    term.press("Tab");
    await term.waitFor("/formchart try single");
    term.press("Enter");
    await term.waitFor("Which database should the new service use?");
    term.press("2");
    const screen = await term.waitFor("nothing was sent to the model");
    expect(screen).toContain("Tried single (question)");
    expect(screen).toContain("Q1: user selected: 2. SQLite");
    expect(screen).toMatch(/details: .*answers: 1 item/);
    // Pi is idle again, with its editor, and the model was never asked.
    term.type("still idle");
    await term.waitFor("still idle");
    expect(model.requests).toHaveLength(0);
  });
});
