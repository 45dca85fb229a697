/**
 * Forms written by hand from docs/api.md and docs/authoring-questions.md alone, as a model that
 * never saw the generator of generated-forms.test.ts writes them (__tests__/fixtures/handwritten/):
 * every tool, options past the ninth and past the hundredth, multi-selects with counts, typed
 * answers of their own, patterns (anchors, alternation, Unicode classes, POSIX classes, `\x{…}`,
 * `\Q…\E`, inline flags), numbers with decimals and negatives, dates, e-mails, conditions of every
 * operator and alias, arrays of them, `on`, `branch`, timeouts, previews, notes and schemas.
 *
 * For each, as the review page computes it: the routes the search finds take every state,
 * transition and condition outcome, nothing is left `unknown`, and every route replays to where it
 * says it ends on a model actor; routes that together take everything replay on the real component
 * with the key bytes a person presses.
 * The forms under refused/ are ones the docs say are refused, each with the category it gets.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, jest } from "@jest/globals";
import { type AnyStateMachine, createActor } from "xstate";
import type { FormEvent } from "../machines/context.js";
import { createFormMachine } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";
import { undecided } from "../renderers/inspect/boundaries.js";
import { missedBy, newCoverage } from "../renderers/inspect/coverage.js";
import { generatePaths, type Route } from "../renderers/inspect/paths.js";
import { prepareFormFile } from "../tools/engine/catalog.js";
import { coveringSample, replayPath, replaySharedSteps, routesCoverage } from "./helpers/paths.js";

const DIR = join(import.meta.dirname, "fixtures", "handwritten");
const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const forms = readdirSync(DIR).filter((f) => f.endsWith(".json"));
const refused = readdirSync(join(DIR, "refused")).filter((f) => f.endsWith(".json"));

/** Each route's events fed to a model actor end where its last step says. */
function endsWhereClaimed(spec: FormSpec, routes: readonly Route[]): void {
  const machine = createFormMachine(spec);
  for (const route of routes) {
    const actor = createActor(machine, { input: { spec } }).start();
    for (const { event } of route.steps) if (!event.type.startsWith("xstate.")) actor.send(event as FormEvent);
    const claimed = route.steps.at(-1)?.state as { value: unknown } | undefined;
    expect({ route: route.steps.map((s) => s.event.type), value: actor.getSnapshot().value }).toEqual({
      route: route.steps.map((s) => s.event.type),
      value: claimed?.value,
    });
    actor.stop();
  }
}

describe("forms written from the docs alone", () => {
  it("are at least 40, each a tool call", () => {
    expect(forms.length).toBeGreaterThanOrEqual(40);
  });

  it.each(forms)(
    "%s: routes take everything, nothing unknown, each replays to its end",
    (file) => {
      const prepared = prepareFormFile(read(join(DIR, file)));
      if (!prepared.ok) throw new Error(prepared.message);
      const { spec } = prepared.form;
      expect(undecided(spec)).toEqual([]);
      const machine = createFormMachine(spec) as unknown as AnyStateMachine;
      const routes = generatePaths(spec, machine);
      if (spec.waitMs || spec.timeoutMs) {
        // The clock's delays run out on jest's clock, route by route; each step where the route says.
        jest.useFakeTimers({ doNotFake: ["performance"] });
        try {
          const missed = missedBy(machine, routesCoverage(spec, routes), spec);
          expect([...missed.states, ...missed.transitions, ...missed.conditions]).toEqual([]);
          for (const route of coveringSample(spec, routes, { seed: 1, extra: 0 }))
            replayPath(spec, route.steps, newCoverage(), { width: 60 });
        } finally {
          jest.useRealTimers();
        }
        return;
      }
      const missed = missedBy(machine, routesCoverage(spec, routes), spec);
      expect([...missed.states, ...missed.transitions, ...missed.conditions]).toEqual([]);
      endsWhereClaimed(spec, routes);
      replaySharedSteps(spec, coveringSample(spec, routes, { seed: 1, extra: 0 }), newCoverage(), () => 60);
    },
    30_000,
  );
});

describe("forms the docs say are refused", () => {
  it.each(refused)("%s: refused with its category, nothing opened", (file) => {
    const { refused: category, ...call } = read(join(DIR, "refused", file));
    const prepared = prepareFormFile(call);
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) expect(prepared.message).toMatch(new RegExp(`\\[${category}\\]$`));
  });
});
