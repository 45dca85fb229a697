/**
 * Generated path tests for every example form and for large generated forms.
 *
 * renderers/inspect/paths.ts finds the routes through each form's statechart; every
 * route is replayed on the real component with the key bytes the keymap binds
 * (see helpers/paths.ts), and the routes together must take every state node,
 * every transition of the machine and every outcome of every condition at its
 * boundaries: the coverage table printed at the end must read 100 % in each
 * column, or the test fails.
 *
 * The quick loop (QUICK=1) replays a fixed sample instead: the routes that
 * together still take all of that, and a few more, drawn with PATHS_SEED
 * (default 1), and compares the two route searches on two examples; `npm
 * test` replays every route and compares on all six, and adds forms at the
 * tools' limits (50 questions, 20 rich questions). The routes of a form
 * without a clock are replayed each step once (`replaySharedSteps`).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { answerValues } from "../machines/context.js";
import { createFormMachine } from "../machines/form.js";
import { type FormSpec, normalizeForm, type QuestionInput } from "../machines/spec.js";
import { missedBy, newCoverage } from "../renderers/inspect/coverage.js";
import { findRoutes, generatePaths } from "../renderers/inspect/paths.js";
import { withoutPrefixes } from "../renderers/inspect/prefixes.js";
import { branchingWithEveryOperator, questionsAtLimit, richAtLimit } from "./helpers/limit-forms.js";
import { coveringSample, replayPath, replaySharedSteps } from "./helpers/paths.js";

function example(name: string): FormSpec {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.form.spec;
}

/** A tabbed form of `n` questions with `m` options each. */
function tabbed(n: number, m: number): FormSpec {
  return normalizeForm({
    questions: Array.from({ length: n }, (_, i) => ({
      prompt: `Question ${i + 1}?`,
      options: Array.from({ length: m }, (_, j) => ({ label: `Option ${i + 1}.${j + 1}` })),
      multiple: i % 3 === 1,
    })),
  });
}

/** `n` questions, each after the first shown only when the one before it was answered "Go". */
function chain(n: number): FormSpec {
  const questions: QuestionInput[] = Array.from({ length: n }, (_, i) => ({
    id: `s${i + 1}`,
    prompt: `Step ${i + 1}?`,
    allowOther: false,
    options: [{ label: "Go" }, { label: "Stop" }],
    when: i === 0 ? undefined : [{ field: `s${i}`, operator: "equals", value: "Go" }],
  }));
  return normalizeForm({ questions });
}

/** Larger generated forms: left out of the quick loop (QUICK=1), always in `npm test`. */
const large: Array<[string, FormSpec]> = [
  ["generated 6 questions × 5 options", tabbed(6, 5)],
  ["generated 8-question branching chain", chain(8)],
  ["50 question questions (the tool's limit)", questionsAtLimit()],
  ["20 ask_rich_questions questions", richAtLimit()],
];

const forms: Array<[string, FormSpec]> = [
  ...exampleNames().map((name): [string, FormSpec] => [`example ${name}`, example(name)]),
  [
    "optional multi-select, no auto-advance",
    normalizeForm({
      questions: [
        { prompt: "Pick one", options: [{ label: "A" }, { label: "B" }], autoAdvance: false },
        {
          prompt: "Extras?",
          multiple: true,
          required: false,
          allowOther: false,
          options: [{ label: "X" }, { label: "Y" }],
        },
      ],
    }),
  ],
  [
    "a default answer shows a conditional question",
    normalizeForm({
      questions: [
        {
          id: "go",
          prompt: "Go ahead?",
          allowOther: false,
          options: [{ label: "Go" }, { label: "Stop" }],
          initial: { options: [0], custom: [] },
        },
        {
          prompt: "How?",
          options: [{ label: "Fast" }, { label: "Slow" }],
          when: [{ field: "go", operator: "equals", value: "Go" }],
        },
      ],
    }),
  ],
  ["4 question_branch questions, every operator", branchingWithEveryOperator()],
  ...(process.env.QUICK ? [] : large),
];

const table: string[] = [];
const SEED = Number(process.env.PATHS_SEED ?? 1);
/** Routes replayed beyond those the sample needs to cover the chart. */
const EXTRA = 2;
/** The quick loop compares the route searches on fewer examples; `npm test` on all of them. */
const quickly = (names: string[], quick: string[]) =>
  process.env.QUICK ? names.filter((n) => quick.includes(n)) : names;

describe.each(forms)("%s", (name, spec) => {
  const machine = createFormMachine(spec) as unknown as AnyStateMachine;
  if (spec.waitMs || spec.timeoutMs) {
    // The throttle countdown and the answer clock run on jest's clock.
    beforeEach(() => {
      jest.useFakeTimers({ doNotFake: ["performance"] });
    });
    afterEach(() => {
      jest.useRealTimers();
    });
  }

  it("every generated route replays on the component and together they cover the whole chart", () => {
    const started = performance.now();
    const all = generatePaths(spec, machine);
    const paths = process.env.QUICK ? coveringSample(spec, all, { seed: SEED, extra: EXTRA }) : all;
    const generated = performance.now();
    const coverage = newCoverage();
    const width = (i: number) => 20 + ((i * 37) % 100);
    if (!spec.waitMs && !spec.timeoutMs) replaySharedSteps(spec, paths, coverage, width);
    else
      paths.forEach((path, i) => {
        replayPath(spec, path.steps, coverage, { width: width(i) });
      });
    const missed = missedBy(machine, coverage, spec);
    const { definition } = missed;
    const share = (all: Set<string>, missing: string[]) => `${all.size - missing.length}/${all.size}`;
    const ms = (t: number) => `${Math.round(t)} ms`.padStart(8);
    table.push(
      `${name.padEnd(42)} ${share(definition.states, missed.states).padStart(7)} ${share(definition.transitions, missed.transitions).padStart(11)} ${share(definition.conditions, missed.conditions).padStart(10)} ${(paths.length === all.length ? String(all.length) : `${paths.length}/${all.length}`).padStart(9)} ${ms(generated - started)} ${ms(performance.now() - generated)}`,
    );
    expect(missed.states).toEqual([]);
    expect(missed.transitions).toEqual([]);
    expect(missed.conditions).toEqual([]);
    // About one route per transition: the search keeps a step only where it reaches something new.
    expect(all.length).toBeLessThanOrEqual(2 * definition.transitions.size);
  }, 120_000);
});

describe("the routes", () => {
  const events = (paths: ReadonlyArray<{ steps: ReadonlyArray<{ event: unknown }> }>) =>
    paths.map((p) => p.steps.map((step) => JSON.stringify(step.event)));

  it.each(quickly(["demo", "branching", "timeout", "throttled", "rich", "form-signup"], ["timeout", "throttled"]))(
    "of example %s are found the same by the search that can pause, which pauses after every node",
    async (name) => {
      const spec = example(name);
      const machine = createFormMachine(spec) as unknown as AnyStateMachine;
      let pauses = 0;
      const found = await findRoutes(spec, machine, () => {
        pauses++;
        return pauses % 50 === 0 ? new Promise<void>((resolve) => setImmediate(resolve)) : undefined;
      });
      expect(events(found)).toEqual(events(generatePaths(spec, machine)));
      expect(pauses).toBeGreaterThan(found.length / 4);
    },
    60_000,
  );

  it("of example branching give Size each answer at a condition's boundary: 3 and 4 for `size gte 4` and `size lt 4`", () => {
    const spec = example("branching");
    const machine = createFormMachine(spec) as unknown as AnyStateMachine;
    const sizes = new Set(
      generatePaths(spec, machine).flatMap((route) =>
        route.steps.flatMap((step) =>
          step.state.context.answered[0] ? [answerValues(spec, step.state.context, "size")?.join()] : [],
        ),
      ),
    );
    expect([...sizes].sort()).toEqual(expect.arrayContaining(["3", "4"]));
  });

  // Slow (about 5 s under jest): npm test only.
  (process.env.QUICK ? it.skip : it)(
    "grow with the questions, not with the product of their answers: twice the questions, about twice the routes",
    () => {
      const routes = (n: number) => {
        const spec = questionsAtLimit(n);
        return generatePaths(spec, createFormMachine(spec) as unknown as AnyStateMachine).length;
      };
      expect(routes(50) / routes(25)).toBeLessThan(2.3);
    },
    60_000,
  );

  it("leave out a route that starts another, and the second of two equal ones", () => {
    const route = (...names: string[]) => ({ steps: names.map((type) => ({ event: { type } })) });
    const kept = withoutPrefixes([
      route("a"),
      route("a", "b"),
      route("c"),
      route("a", "b", "c"),
      route("c"),
      route("a", "x"),
    ]);
    expect(events(kept)).toEqual([
      ['{"type":"a"}', '{"type":"b"}', '{"type":"c"}'],
      ['{"type":"a"}', '{"type":"x"}'],
      ['{"type":"c"}'],
    ]);
  });
});

afterAll(() => {
  const head = `${"machine".padEnd(42)} ${"states".padStart(7)} ${"transitions".padStart(11)} ${"conditions".padStart(10)} ${"paths".padStart(9)} ${"generate".padStart(8)} ${"replay".padStart(8)}`;
  console.log(`Generated path coverage\n${head}\n${table.join("\n")}`);
});
