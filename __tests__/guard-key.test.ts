/**
 * The route search merges snapshots on `guardKey` (renderers/inspect/events.ts) and expands only
 * the first of each class: a route from a later one is lost unless the two take the same
 * transitions. On generated forms (helpers/form-arbitraries.ts), random walks over the events the
 * search offers (`formEvents`) gather snapshots; any two the key calls equal must, for every event
 * either offers, take the same transitions, the eventless ones after it too (a seek, a hidden
 * question passed): every guard the step reads answers the same on both.
 */
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import type { AnyStateMachine } from "xstate";
import type { FormEvent } from "../machines/context.js";
import { createFormMachine } from "../machines/form.js";
import { newCoverage, recordMicrosteps } from "../renderers/inspect/coverage.js";
import { formEvents, guardKey, type Snap } from "../renderers/inspect/events.js";
import { inertScope } from "../renderers/inspect/paths.js";
import { prepareFormFile } from "../tools/engine/catalog.js";
import { TOOL_CALLS, type ToolCall } from "./helpers/form-arbitraries.js";

const SEED = process.env.FUZZ_SEED && process.env.FUZZ_SEED !== "random" ? Number(process.env.FUZZ_SEED) : 1;
const FORMS = process.env.QUICK ? 3 : 10;
const STEPS = 250;

/** Pairs of snapshots the key calls equal whose step by some event takes different transitions. */
function keyMisses(call: ToolCall, choices: number[]): string[] {
  const prepared = prepareFormFile(call);
  if (!prepared.ok) return [];
  const { spec } = prepared.form;
  const machine = createFormMachine(spec) as unknown as AnyStateMachine;
  const events = formEvents(spec);
  const keyOf = guardKey(spec);
  const taken = newCoverage();
  const scope = inertScope(recordMicrosteps(taken));
  const step = (from: Snap, event: FormEvent) => {
    const to = machine.transition(from, event, scope) as Snap;
    const transitions = [...taken.transitions].sort().join(", ") || "refused";
    taken.transitions.clear();
    return { to, transitions };
  };
  const opening = machine.getInitialSnapshot(scope, { spec }) as Snap;
  taken.transitions.clear();
  // A walk: at each step one of the offered events, drawn; from the opening again once the form ends.
  const first = new Map<string, Snap>();
  /** Each snapshot once (a walk comes back to the same one often). */
  const compared = new Set<string>();
  const misses: string[] = [];
  let at = opening;
  for (const choice of choices) {
    const key = keyOf(at);
    const earlier = first.get(key);
    const whole = JSON.stringify([at.value, at.context]);
    if (!earlier) first.set(key, at);
    else if (!compared.has(whole)) {
      compared.add(whole);
      const offered = new Map([...events(earlier), ...events(at)].map((e) => [JSON.stringify(e), e]));
      for (const [name, event] of offered) {
        const a = step(earlier, event).transitions;
        const b = step(at, event).transitions;
        if (a !== b) misses.push(`${key}\n  ${name}: ${a}\n  against ${b}`);
      }
    }
    const offered = events(at);
    at = offered.length === 0 ? opening : step(at, offered[choice % offered.length]).to;
  }
  return misses;
}

describe(`the search's key on generated forms (seed ${SEED})`, () => {
  it.each(Object.keys(TOOL_CALLS))(
    `${FORMS} %s forms: snapshots the key calls equal take the same transitions by every event`,
    (tool) => {
      fc.assert(
        fc.property(TOOL_CALLS[tool], fc.array(fc.nat(), { minLength: STEPS, maxLength: STEPS }), (call, choices) => {
          expect(keyMisses(call, choices).slice(0, 3)).toEqual([]);
        }),
        { numRuns: FORMS, seed: SEED },
      );
    },
    60_000,
  );
});
