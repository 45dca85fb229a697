/**
 * A step that only assigns is taken without XState's microstep, and ends
 * where XState's own step ends: the same state and context, the same
 * transition reported to an inspector. Wherever the step does more (an
 * eventless transition it enables, a raised event, a spawned actor, a guard
 * that throws), XState takes it. The path tests hold every route of every
 * example to this; these are the cases the form's chart has few of.
 */
import { describe, expect, it, jest } from "@jest/globals";
import { type AnyStateMachine, assign, createActor, createMachine, type InspectionEvent, raise, setup } from "xstate";
import type { FormContext } from "../machines/context.js";
import { formMachine } from "../machines/form.js";
import { withQuickSteps } from "../machines/quick-steps.js";
import { type FormSpec, normalizeForm } from "../machines/spec.js";

/** A counter whose `INC` only assigns; `always` leaves for `big` once the count reaches 3. */
const counter = () =>
  setup({
    types: {} as { context: { n: number; log: string[] } },
    guards: {
      reachedThree: ({ context }) => context.n >= 3,
      broken: () => JSON.parse("{") as boolean,
    },
  }).createMachine({
    id: "c",
    context: { n: 0, log: [] },
    initial: "small",
    states: {
      small: {
        always: { guard: "reachedThree", target: "big" },
        on: {
          INC: { actions: assign({ n: ({ context }) => context.n + 1 }) },
          SHOUT: { actions: [assign({ log: ({ context }) => [...context.log, "a"] }), raise({ type: "INC" })] },
          SPAWN: { actions: assign({ log: ({ spawn }) => [String(Boolean(spawn(createMachine({}))))] }) },
          BAD: { guard: "broken", actions: assign({ n: 99 }) },
        },
      },
      big: { on: { INC: { actions: assign({ n: ({ context }) => context.n + 10 }) } } },
    },
  });

type Event = { type: string };

/** The same events to a plain actor and to one whose machine takes quick steps: both snapshots after each. */
function both(make: () => AnyStateMachine, events: Event[]) {
  const plain = createActor(make()).start();
  const quickLog: InspectionEvent[] = [];
  const quick = createActor(withQuickSteps(make()), { inspect: (e) => quickLog.push(e) }).start();
  const steps = events.map((event) => {
    const before = quick.getSnapshot();
    plain.send(event);
    quick.send(event);
    return { before, plain: plain.getSnapshot(), quick: quick.getSnapshot() };
  });
  return { steps, quickLog };
}

const taken = (log: InspectionEvent[]) =>
  log.flatMap((e) =>
    e.type === "@xstate.microstep" ? (e as { _transitions: Array<{ eventType: string }> })._transitions : [],
  );

describe("quick steps", () => {
  it("an assign alone ends where XState's step ends, keeps the states it was in, and is reported as taken", () => {
    const { steps, quickLog } = both(counter, [{ type: "INC" }, { type: "INC" }]);
    for (const s of steps) {
      expect({ value: s.quick.value, context: s.quick.context }).toEqual({
        value: s.plain.value,
        context: s.plain.context,
      });
      // Taken without the microstep: the tags are the same Set (XState builds new ones on every step it takes).
      expect(s.quick.tags).toBe(s.before.tags);
    }
    expect(steps.map((s) => s.quick.context.n)).toEqual([1, 2]);
    expect(taken(quickLog).map((t) => t.eventType)).toEqual(["INC", "INC"]);
  });

  it("an assign that enables an eventless transition is XState's step, which takes it", () => {
    const { steps } = both(counter, [{ type: "INC" }, { type: "INC" }, { type: "INC" }, { type: "INC" }]);
    expect(steps.map((s) => [s.quick.value, s.quick.context.n])).toEqual([
      ["small", 1],
      ["small", 2],
      ["big", 3],
      ["big", 13],
    ]);
    for (const s of steps) expect(s.quick.value).toEqual(s.plain.value);
  });

  it("a raised event, a spawn and a guard that throws are XState's to handle, with XState's outcome", () => {
    const { steps } = both(counter, [{ type: "SHOUT" }, { type: "SPAWN" }]);
    expect(steps[0].quick.context).toEqual({ n: 1, log: ["a"] });
    expect(steps[1].quick.context).toEqual(steps[1].plain.context);
    expect(steps[1].quick.context.log).toEqual(["true"]);
    const quick = createActor(withQuickSteps(counter()));
    const errors: unknown[] = [];
    quick.subscribe({ error: (e) => errors.push(e) });
    quick.start();
    quick.send({ type: "BAD" });
    expect(String(errors[0])).toContain("Unable to evaluate guard 'broken' in transition for event 'BAD'");
  });

  it("a step to other states that only assigns takes XState's exit, transition and entry actions in XState's order", () => {
    const log = (line: string) => ({ type: "log" as const, params: { line } });
    const rooms = () =>
      setup({
        types: {} as { context: { log: string[] } },
        actions: { log: assign(({ context }, p: { line: string }) => ({ log: [...context.log, p.line] })) },
      }).createMachine({
        id: "r",
        context: { log: [] },
        initial: "a",
        states: {
          a: { tags: "left", exit: log("exit a"), on: { GO: { target: "b", actions: log("go") } } },
          b: {
            tags: "right",
            entry: log("enter b"),
            exit: log("exit b"),
            initial: "b1",
            states: { b1: { entry: log("enter b1"), exit: log("exit b1"), on: { BACK: { target: "#r.a" } } } },
          },
        },
      });
    const events = ["GO", "BACK", "GO", "BACK", "GO"].map((type) => ({ type }));
    const { steps, quickLog } = both(rooms, events);
    for (const s of steps)
      expect({ value: s.quick.value, context: s.quick.context, tags: [...s.quick.tags] }).toEqual({
        value: s.plain.value,
        context: s.plain.context,
        tags: [...s.plain.tags],
      });
    expect(steps[4].quick.context.log.slice(-4)).toEqual(["exit a", "go", "enter b", "enter b1"]);
    expect(steps[3].quick.context.log.slice(-2)).toEqual(["exit b1", "exit b"]);
    // Taken without the microstep: the same move gives the same tags each time.
    expect(steps[2].quick.tags).toBe(steps[0].quick.tags);
    expect(steps[4].quick.tags).toBe(steps[0].quick.tags);
    expect(taken(quickLog).map((t) => t.eventType)).toEqual(["GO", "BACK", "GO", "BACK", "GO"]);
  });

  it("forms of one spec start from one snapshot; a restored draft, a timer or an eventless way in start each on its own", () => {
    const spec = normalizeForm({ questions: [{ prompt: "Pick", options: [{ label: "A" }, { label: "B" }] }] });
    const start = (input: { spec: FormSpec; restore?: FormContext }) =>
      createActor(formMachine(input.spec), { input }).start();
    const first = start({ spec }).getSnapshot();
    expect(start({ spec }).getSnapshot()).toBe(first);
    const restored = start({ spec, restore: { ...first.context, cursors: [1] } }).getSnapshot();
    expect(restored.context.cursors).toEqual([1]);
    expect(start({ spec }).getSnapshot().context.cursors).toEqual([0]);

    // Each timed form runs its own clock.
    jest.useFakeTimers();
    try {
      const timed = { ...spec, timeoutMs: 1000 };
      const forms = [start({ spec: timed }), start({ spec: timed })];
      jest.advanceTimersByTime(1000);
      expect(forms.map((f) => f.getSnapshot().context.outcome)).toEqual(["timed_out", "timed_out"]);
    } finally {
      jest.useRealTimers();
    }

    // An eventless transition on the way in is taken, and reported, by every form.
    const entering = () =>
      withQuickSteps(
        setup({
          types: {} as { context: { n: number }; input: { spec: { n: number } } },
          guards: { big: ({ context }) => context.n >= 3 },
        }).createMachine({
          context: ({ input }) => ({ n: input.spec.n }),
          initial: "small",
          states: { small: { always: { guard: "big", target: "big" } }, big: {} },
        }),
      );
    const machine = entering();
    const input = { spec: { n: 3 } };
    for (let i = 0; i < 2; i++) {
      const log: InspectionEvent[] = [];
      const actor = createActor(machine, { input, inspect: (e) => log.push(e) }).start();
      expect(actor.getSnapshot().value).toBe("big");
      expect(taken(log).map((t) => t.eventType)).toEqual([""]);
    }
  });

  it("the form's ↑/↓ is a quick step that every form of a shape shares", () => {
    const spec = normalizeForm({ questions: [{ prompt: "Pick", options: [{ label: "A" }, { label: "B" }] }] });
    const actor = createActor(formMachine(spec), { input: { spec } }).start();
    const before = actor.getSnapshot();
    actor.send({ type: "MOVE", delta: 1 });
    const after = actor.getSnapshot();
    expect(after.context.cursors).toEqual([1]);
    expect(after.tags).toBe(before.tags);
  });
});
