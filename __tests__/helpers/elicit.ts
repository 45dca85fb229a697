/**
 * A Pi context for `elicit()` whose forms are answered with key bytes: each
 * form that opens takes the next list of keys from the script, pressed on the
 * real component.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { createEventBus } from "@earendil-works/pi-coding-agent";
import { createFormchart } from "../../tools/index.js";
import { fakePi, fakeUiContext } from "./fake-pi.js";
import { tempAgentDir } from "./temp.js";

export interface ScriptedUi {
  ctx: ExtensionContext;
  /** How many forms opened. */
  opened(): number;
  /** The screen of each form once its keys had been pressed. */
  screens: (readonly string[])[];
}

/** A context whose n-th form is answered with `script[n]` (and left open when the script has no entry). */
export function scriptedUi(script: string[][], entries: unknown[] = []): ScriptedUi {
  const screens: (readonly string[])[] = [];
  let n = 0;
  const { ctx, opened } = fakeUiContext((component) => {
    const keys = script[n++] ?? [];
    for (const key of keys) component.handleInput(key);
    screens.push(component.render(100));
  }, entries);
  return { ctx: ctx as unknown as ExtensionContext, opened, screens };
}

/** The extension loaded into a fake Pi with a real event bus: `elicit()` and the channel use its form state. */
export function loadExtension() {
  const pi = fakePi();
  const bus = createEventBus();
  (pi.api as { events: unknown }).events = bus;
  createFormchart({ agentDir: tempAgentDir() })(pi.api);
  return { ...pi, bus };
}

/** Key bytes, as a terminal sends them. */
export const K = {
  enter: "\r",
  esc: "\x1b",
  tab: "\t",
  shiftTab: "\x1b[Z",
  down: "\x1b[B",
  up: "\x1b[A",
  space: " ",
  backspace: "\x7f",
} as const;
