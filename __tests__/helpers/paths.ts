/**
 * Replaying generated routes on the real component.
 *
 * renderers/inspect/paths.ts enumerates routes through a form's statechart; each route
 * is replayed here on the real `FormComponent` with the key bytes the keymap
 * binds to each event, beside a pure model actor fed the same events.
 */
import { expect, jest } from "@jest/globals";
import { createActor } from "xstate";
import type { FormEvent, FormResult } from "../../machines/context.js";
import { createFormMachine } from "../../machines/form.js";
import type { FormSnapshot } from "../../machines/position.js";
import type { FormSpec } from "../../machines/spec.js";
import { type Coverage, newCoverage, recordMicrosteps } from "../../renderers/inspect/coverage.js";
import { COOLDOWN_DONE, TIME_UP } from "../../renderers/inspect/events.js";
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
    inspect: recordMicrosteps(coverage, spec),
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
      if (event.type === "ABORT") form.session.abort();
      else
        for (const input of bytesForEvent(event, form.screen.keyContext(), form.screen.keybindings))
          form.handleInput(input);
    }
    const expected = model.getSnapshot();
    const actual = form.session.snapshot;
    expect({ route, value: actual.value, context: actual.context }).toEqual({
      route,
      value: expected.value,
      context: expected.context,
    });
    // Where the route says the chart stands after this step.
    const charted = step.state as FormSnapshot | undefined;
    if (charted) expect({ route, value: actual.value }).toEqual({ route, value: charted.value });
    if (actual.status === "active") expect(overflowingLines(form.render(options.width), options.width)).toEqual([]);
  }
  const end = model.getSnapshot();
  expect(results).toEqual(end.status === "done" ? [end.output as FormResult] : []);
  model.stop();
  form.dispose();
}

/**
 * Replay every route as `replayPath` does (the bound keys pressed on the real
 * component, each step checked against a pure model actor, every frame
 * fitting its width, the result `done` got), each step once: a route that
 * starts with steps an earlier route took goes on from where that one stood
 * after them, its component and model actor started from their snapshots
 * there. Routes share long beginnings (a route to question 40 starts with the
 * way to question 39): route by route, those are replayed once per route.
 * Forms with a clock are replayed route by route, on jest's clock.
 */
export function replaySharedSteps(
  spec: FormSpec,
  routes: ReadonlyArray<{ steps: ReadonlyArray<{ event: { type: string } }> }>,
  coverage: Coverage,
  width: (route: number) => number,
): void {
  if (spec.waitMs || spec.timeoutMs) throw new Error("a form with a clock is replayed route by route");
  const machine = createFormMachine(spec);
  /** The component's snapshot and the model actor's (the same chart) after some steps. */
  interface Stood {
    form: FormSnapshot;
    model: FormSnapshot;
  }
  /** The steps taken so far as a tree, one event (its JSON) a branch: where the component and the model stood after them. */
  interface Taken {
    stood?: Stood;
    next: Map<string, Taken>;
  }
  const taken: Taken = { next: new Map() };
  routes.forEach((route, i) => {
    const events = route.steps.map((step) => step.event as FormEvent).filter((e) => !e.type.startsWith("xstate."));
    // Go on from the longest beginning of this route taken before, short of the whole route.
    let node = taken;
    let known = 0;
    let at: Stood | undefined;
    while (known < events.length - 1) {
      const next = node.next.get(JSON.stringify(events[known]));
      if (!next?.stood) break;
      node = next;
      at = next.stood;
      known++;
    }
    const actor = createActor(machine, { input: { spec }, ...(at ? { snapshot: at.model } : {}) }).start();
    const { form, results } = openForm(spec, {
      inspect: recordMicrosteps(coverage, spec),
      maxHeight: () => 40,
      ...(at ? { snapshot: at.form } : {}),
    });
    const done: string[] = events.slice(0, known).map((e) => JSON.stringify(e));
    try {
      for (const [n, event] of events.entries()) {
        if (n < known) continue;
        done.push(JSON.stringify(event));
        actor.send(event);
        if (event.type === "ABORT") form.session.abort();
        else
          for (const input of bytesForEvent(event, form.screen.keyContext(), form.screen.keybindings))
            form.handleInput(input);
        const expected = actor.getSnapshot();
        const actual = form.session.snapshot;
        expect({ route: done, value: actual.value, context: actual.context }).toEqual({
          route: done,
          value: expected.value,
          context: expected.context,
        });
        if (actual.status === "active") expect(overflowingLines(form.render(width(i)), width(i))).toEqual([]);
        const key = JSON.stringify(event);
        const next: Taken = node.next.get(key) ?? { next: new Map() };
        node.next.set(key, next);
        next.stood = { form: actual, model: expected };
        node = next;
      }
      const end = actor.getSnapshot();
      expect(results).toEqual(end.status === "done" ? [end.output as FormResult] : []);
    } finally {
      actor.stop();
      form.dispose();
    }
  });
}

/** What one route takes of the chart, on a pure model actor fed its events (no component: cheap). */
export function routeCoverage(spec: FormSpec, steps: ReadonlyArray<{ event: { type: string } }>): Coverage {
  const coverage = newCoverage();
  const model = createActor(createFormMachine(spec), {
    input: { spec },
    inspect: recordMicrosteps(coverage, spec),
  }).start();
  for (const { event } of steps) {
    if (event.type === (COOLDOWN_DONE as string)) jest.advanceTimersByTime(spec.waitMs ?? 0);
    else if (event.type === (TIME_UP as string)) jest.advanceTimersByTime(spec.timeoutMs ?? 0);
    else if (!event.type.startsWith("xstate.")) model.send(event as FormEvent);
  }
  model.stop();
  return coverage;
}

/**
 * What a set of routes takes of the chart, on pure model actors (no component): each step once, a
 * route going on from where the longest beginning it shares with an earlier one left the model.
 * Forms with a clock go route by route (`routeCoverage`, on jest's clock).
 */
export function routesCoverage(
  spec: FormSpec,
  routes: ReadonlyArray<{ steps: ReadonlyArray<{ event: { type: string } }> }>,
): Coverage {
  const coverage = newCoverage();
  if (spec.waitMs || spec.timeoutMs) {
    for (const route of routes) {
      const one = routeCoverage(spec, route.steps);
      for (const part of ["states", "transitions", "conditions"] as const)
        for (const id of one[part]) coverage[part].add(id);
    }
    return coverage;
  }
  const machine = createFormMachine(spec);
  interface Taken {
    stood?: FormSnapshot;
    next: Map<string, Taken>;
  }
  const taken: Taken = { next: new Map() };
  for (const route of routes) {
    const events = route.steps.map((step) => step.event as FormEvent).filter((e) => !e.type.startsWith("xstate."));
    let node = taken;
    let known = 0;
    while (known < events.length && node.next.get(JSON.stringify(events[known]))?.stood) {
      node = node.next.get(JSON.stringify(events[known]))!;
      known++;
    }
    const actor = createActor(machine, {
      input: { spec },
      inspect: recordMicrosteps(coverage, spec),
      ...(node.stood ? { snapshot: node.stood } : {}),
    }).start();
    for (const event of events.slice(known)) {
      actor.send(event);
      const key = JSON.stringify(event);
      const next: Taken = node.next.get(key) ?? { next: new Map() };
      node.next.set(key, next);
      next.stood = actor.getSnapshot();
      node = next;
    }
    actor.stop();
  }
  return coverage;
}

/**
 * A fixed sample of routes that takes every state node, transition and
 * condition outcome the whole set takes: routes in an order shuffled by `seed`, each kept when it
 * takes something the kept ones have not, then `extra` more drawn with the
 * same seed. The same seed always picks the same routes.
 */
export function coveringSample<R extends { steps: ReadonlyArray<{ event: { type: string } }> }>(
  spec: FormSpec,
  routes: readonly R[],
  { seed, extra }: { seed: number; extra: number },
): R[] {
  let state = seed >>> 0;
  // mulberry32: a small seeded generator, so the sample is the same on every run.
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = routes.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const taken = newCoverage();
  const kept: number[] = [];
  const rest: number[] = [];
  for (const i of order) {
    const { states, transitions, conditions } = routeCoverage(spec, routes[i].steps);
    const adds =
      [...states].some((s) => !taken.states.has(s)) ||
      [...transitions].some((t) => !taken.transitions.has(t)) ||
      [...conditions].some((c) => !taken.conditions.has(c));
    if (!adds) {
      rest.push(i);
      continue;
    }
    kept.push(i);
    for (const s of states) taken.states.add(s);
    for (const t of transitions) taken.transitions.add(t);
    for (const c of conditions) taken.conditions.add(c);
  }
  kept.push(...rest.slice(0, extra));
  return kept.sort((a, b) => a - b).map((i) => routes[i]);
}
