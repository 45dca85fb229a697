/**
 * Stand-ins for what Pi gives a form: a host that counts render requests and
 * a form factory that drives `FormComponent` like Pi's `ctx.ui.custom` does.
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import type { FormOutcome, FormResult } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import { FormComponent } from "../../renderers/terminal/component.js";
import type { FormComponentOptions } from "../../renderers/terminal/options.js";
import { plainTheme } from "../../renderers/theme.js";

export function fakeHost(rows = 40, columns = 100) {
  return {
    renders: 0,
    terminal: { rows, columns },
    requestRender() {
      this.renders++;
    },
  };
}

export interface OpenForm {
  form: FormComponent;
  results: FormResult[];
  /** Everything the form left by, `results` with its context and error. */
  outcomes: FormOutcome[];
  press(...keys: string[]): void;
}

export function openForm(spec: FormSpec, options: Partial<FormComponentOptions> = {}): OpenForm {
  const results: FormResult[] = [];
  const outcomes: FormOutcome[] = [];
  const form = new FormComponent({
    spec,
    host: fakeHost(),
    theme: plainTheme,
    done: (outcome) => {
      outcomes.push(outcome);
      results.push(outcome.result);
    },
    ...options,
  });
  form.focused = true;
  return {
    form,
    results,
    outcomes,
    press: (...keys) =>
      keys.forEach((k) => {
        form.handleInput(k);
      }),
  };
}

/** Every line of a render must fit the width, or pi-tui throws on the next paint. */
export function overflowingLines(lines: readonly string[], width: number): string[] {
  return lines.filter((l) => visibleWidth(l) > width);
}

export const KEY = {
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  enter: "\r",
  esc: "\x1b",
  tab: "\t",
  shiftTab: "\x1b[Z",
  space: " ",
  home: "\x1b[H",
  end: "\x1b[F",
} as const;
