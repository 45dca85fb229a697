/**
 * Replaying generated routes on the real component.
 *
 * machines/paths.ts enumerates routes through a form's statechart; each route
 * is replayed here on the real `FormComponent` with the key bytes the keymap
 * binds to each event, beside a pure model actor fed the same events.
 */
import { expect, jest } from "@jest/globals";
import { createActor } from "xstate";
import type { FormEvent, FormResult } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import { COOLDOWN_DONE, type Coverage, recordMicrosteps, TIME_UP } from "../../machines/paths.js";
import type { FormSpec } from "../../machines/spec.js";
import { openForm, overflowingLines } from "./fake-host.js";
import { bytesForEvent } from "./keys.js";

const F12 = "\x1b[24~";

export interface ReplayOptions {
  width: number;
  height?: number;
}

/**
 * Replay one generated path on the real component: press the bound keys for
 * each step, and check after every step that the component's machine is where
 * a pure model actor fed the same events is, that every rendered line fits,
 * and finally the result `done` got.
 */
export function replayPath(
  spec: FormSpec,
  steps: Array<{ event: { type: string }; state: unknown }>,
  coverage: Coverage,
  options: ReplayOptions,
): void {
  const model = createActor(createFormMachine(spec), { input: { spec } }).start();
  const { form, results } = openForm(spec, {
    inspect: recordMicrosteps(coverage),
    maxHeight: () => options.height ?? 40,
  });
  const route: string[] = [];
  for (const step of steps) {
    const event = step.event as FormEvent;
    if (event.type === (COOLDOWN_DONE as string)) {
      // Both actors run on jest's fake clock: let the delay run out for both.
      route.push("(cooldown over)");
      jest.advanceTimersByTime(spec.waitMs ?? 0);
    } else if (event.type === (TIME_UP as string)) {
      // Nobody pressed a key: the answer clock runs out for both.
      route.push("(timeout)");
      jest.advanceTimersByTime(spec.timeoutMs ?? 0);
    } else if (event.type === "STOP_CLOCK") {
      // The first key the person presses stops the clock: one bound to nothing (F12) does only that.
      route.push("(a key stops the clock)");
      model.send(event);
      form.handleInput(F12);
    } else if (event.type.startsWith("xstate.")) {
      continue;
    } else {
      route.push(JSON.stringify(event));
      model.send(event);
      if (event.type === "ABORT") form.abort();
      else form.handleInput(bytesForEvent(event, form.keyContext(), form.keybindings));
    }
    const expected = model.getSnapshot();
    const actual = form.snapshot;
    expect({ route, value: actual.value, context: actual.context }).toEqual({
      route,
      value: expected.value,
      context: expected.context,
    });
    if (actual.status === "active") expect(overflowingLines(form.render(options.width), options.width)).toEqual([]);
  }
  const end = model.getSnapshot();
  expect(results).toEqual(end.status === "done" ? [end.output as FormResult] : []);
  model.stop();
  form.dispose();
}
