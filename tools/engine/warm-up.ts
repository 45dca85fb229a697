/**
 * The engine's warm-up after the session starts: a small form drawn off
 * screen and each tool's check run once, so the first form costs what later
 * ones cost. Pi handles input between the steps, so its UI never stalls.
 */
import { getKeybindings } from "@earendil-works/pi-tui";
import { FormSession } from "../../machines/session.js";
import { normalizeForm } from "../../machines/spec.js";
import { TerminalScreen } from "../../renderers/terminal/screen.js";
import { plainTheme } from "../../renderers/theme.js";
import { FORM_TOOLS } from "./catalog.js";

const yieldToPi = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A small tabbed form: one single-choice and one multi-choice question. */
const WARM_UP_FORM = normalizeForm({
  questions: [
    { prompt: "Which one?", options: [{ label: "One" }, { label: "Two", description: "The second" }] },
    { prompt: "Which apply?", options: [{ label: "A" }, { label: "B" }], multiple: true },
  ],
});

function drawOnce(): void {
  const session = new FormSession({ spec: WARM_UP_FORM });
  const screen = new TerminalScreen(session, { theme: plainTheme, keybindings: getKeybindings() });
  screen.render(80, 20, false);
  screen.key("\x1b[B");
  screen.render(80, 20, false);
  session.dispose();
}

export async function warmUp(): Promise<void> {
  await yieldToPi();
  drawOnce();
  await yieldToPi();
  for (const tool of FORM_TOOLS) tool.check({});
}
