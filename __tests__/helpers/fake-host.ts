/**
 * Stand-ins for what Pi gives a form: a host that counts render requests and
 * a form factory that drives a session's `FormComponent` like the engine and
 * Pi's `ctx.ui.custom` do.
 */
import { visibleWidth } from "@earendil-works/pi-tui";
import type { FormOutcome, FormResult } from "../../machines/context.js";
import { FormSession, type SessionOptions } from "../../machines/session.js";
import type { FormSpec } from "../../machines/spec.js";
import { FormComponent } from "../../renderers/terminal/component.js";
import type { FormHost, TerminalOptions } from "../../renderers/terminal/options.js";
import { type FormTheme, plainTheme } from "../../renderers/theme.js";

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
  session: FormSession;
  results: FormResult[];
  /** Everything the form left by, `results` with its context and error. */
  outcomes: FormOutcome[];
  press(...keys: string[]): void;
}

export type OpenOptions = Omit<SessionOptions, "spec"> & TerminalOptions & { host?: FormHost; theme?: FormTheme };

/** What `session` ends with, pushed the moment it closes (the promise settles a turn later). */
export function heard(session: FormSession, outcomes: FormOutcome[] = [], results: FormResult[] = []) {
  session.watch(() => {
    const outcome = session.settled;
    if (outcome && !outcomes.includes(outcome)) {
      outcomes.push(outcome);
      results.push(outcome.result);
    }
  });
  return { outcomes, results };
}

/** A session of `spec` on a focused terminal component; what it ends with is in `results` the moment it closes. */
export function openForm(spec: FormSpec, options: OpenOptions = {}): OpenForm {
  const results: FormResult[] = [];
  const outcomes: FormOutcome[] = [];
  const { restore, snapshot, inspect, notice, host = fakeHost(), theme = plainTheme, ...terminal } = options;
  const session = new FormSession({ spec, restore, snapshot, inspect, notice });
  heard(session, outcomes, results);
  const form = new FormComponent(session, host, theme, terminal);
  form.focused = true;
  return {
    form,
    session,
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
