/**
 * The engine's warm-up after the session starts (tools/state.ts schedules
 * it): draw a small form once, off screen, and run each tool's argument
 * check once, so that the first form a person sees costs what later ones
 * cost. Pi handles input and draws between the steps, so its UI never
 * stalls; nothing is shown and nothing is kept.
 */
import { normalizeForm } from "../../machines/spec.js";
import { FormComponent } from "../../renderers/terminal/component.js";
import { plainTheme } from "../../renderers/theme.js";
import { FORM_TOOLS } from "./catalog.js";

/** Let Pi handle input and draw before the next step. */
const yieldToPi = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A small tabbed form: one single-choice and one multi-choice question. */
const WARM_UP_FORM = normalizeForm({
  questions: [
    { prompt: "Which one?", options: [{ label: "One" }, { label: "Two", description: "The second" }] },
    { prompt: "Which apply?", options: [{ label: "A" }, { label: "B" }], multiple: true },
  ],
});

/**
 * Build a statechart, start it, draw it and move once, off screen: the code
 * every form runs is then compiled and its first use paid. Nothing is shown
 * and nothing is kept.
 */
function drawOnce(): void {
  const host = { requestRender() {}, terminal: { rows: 24, columns: 80 } };
  const form = new FormComponent({ spec: WARM_UP_FORM, host, theme: plainTheme, done() {} });
  form.render(80);
  form.handleInput("\x1b[B");
  form.render(80);
  form.dispose();
}

export async function warmUp(): Promise<void> {
  await yieldToPi();
  drawOnce();
  await yieldToPi();
  for (const tool of FORM_TOOLS) tool.check({});
}
