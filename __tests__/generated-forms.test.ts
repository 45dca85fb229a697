/**
 * Forms nobody wrote down: fast-check generates the arguments each tool
 * accepts (helpers/form-arbitraries.ts), the tool makes its form from them,
 * and for each form
 * - the routes the search finds (renderers/inspect/paths.ts), replayed on a
 *   pure model actor, take every state node, every transition and every
 *   condition outcome at its boundaries;
 * - there are no more routes than the chart has places for a route to end
 *   (`routeBound`): the count grows with the questions, not with the product
 *   of their answers;
 * - a few of the routes, drawn by fast-check, replay on the real component
 *   with the key bytes the keymap binds, each step where the route says the
 *   chart stands and where a model actor fed the same events stands, each
 *   frame within a terminal width fast-check draws.
 * The quick loop (FUZZ_SEED=42, FUZZ_RUNS=30) checks 3 small forms per tool;
 * `npm test` checks FUZZ_RUNS/25 (40) per tool (about 70 s of CPU) and two near the `question`
 * tool's limit, under seed 1 unless FUZZ_SEED names another (it prints the
 * seed; FUZZ_SEED=random draws one). The seed is fixed so that CI judges the
 * change, not the draw (docs/architecture.md#tests). A form the search cannot
 * decide (`undecided`: a rule no drawn text passes) fails, its reason said. A
 * form that failed, shrunk by fast-check, stays below as a fixed case.
 */
import { afterAll, describe, expect, it, jest } from "@jest/globals";
import fc from "fast-check";
import type { AnyStateMachine } from "xstate";
import { holds } from "../machines/conditions.js";
import { createFormMachine } from "../machines/form.js";
import type { FormSpec } from "../machines/spec.js";
import { undecided } from "../renderers/inspect/boundaries.js";
import { type Coverage, definitionOf, missedBy, newCoverage } from "../renderers/inspect/coverage.js";
import { formEvents } from "../renderers/inspect/events.js";
import { generatePaths, type Route } from "../renderers/inspect/paths.js";
import { patternTexts } from "../renderers/inspect/samples.js";
import { prepareWith } from "../schemas/aliases.js";
import { formTool, prepareFormFile } from "../tools/engine/catalog.js";
import { nearLimit, TOOL_CALLS, type ToolCall } from "./helpers/form-arbitraries.js";
import { replayPath, routesCoverage } from "./helpers/paths.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED =
  process.env.FUZZ_SEED === "random" ? Date.now() % 2 ** 31 : process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 1;
const FORMS = Math.max(3, Math.ceil(RUNS / 25));
/** Routes replayed on the component per form. */
const SAMPLE = 3;

/** The form of a call, or the question its refusal says no answer could show. */
function prepared(call: ToolCall): { spec: FormSpec } | { neverShown: string } {
  const result = prepareFormFile(call);
  if (result.ok) return { spec: result.form.spec };
  const never = /^"([^"]+)" when .* so it would never be shown \[invalid_condition\]$/.exec(result.message);
  if (!never) throw new Error(`the generated call was refused: ${result.message}\n${JSON.stringify(call)}`);
  return { neverShown: never[1] };
}

/** The first question of an accepted form no tried answers show, or undefined. */
function neverShownOf(spec: FormSpec): string | undefined {
  const k = spec.questions.findIndex((q, j) => q.visibility.kind === "when" && !someAnswersShow(spec, j));
  return k >= 0 ? spec.questions[k].id : undefined;
}

/**
 * Every set of a choice's options (the empty one too), each as the values it answers with; past
 * five options, the sets of at most two (a condition on a multi-select wants one of its values, or
 * none; two conditions on it, two).
 */
function answerSets(q: FormSpec["questions"][number]): string[][] {
  const values = q.options.map((o) => o.value);
  if (q.kind !== "multi") return values.map((v) => [v]);
  if (values.length > 5) return [[], ...values.flatMap((v, i) => [[v], ...values.slice(i + 1).map((w) => [v, w])])];
  return Array.from({ length: 2 ** values.length }, (_, bits) => values.filter((_, i) => bits & (2 ** i)));
}

/**
 * Whether some answers to the questions before it show question `k`, tried one by one: each shown
 * question left unanswered or given each set of its options, a typed answer each value any
 * condition of the form names, the numbers beside it, a pattern's letters (and the empty text and
 * one none names), a typed multi-select as
 * meeting anything, a hidden question unanswered. The refusal's own rule, by another road.
 */
function someAnswersShow(spec: FormSpec, k: number): boolean {
  const ANY = Symbol("typed");
  // An empty typed text is no answer: left unanswered, tried already.
  const conditions = spec.questions.flatMap((q) => (q.visibility.kind === "when" ? q.visibility.conditions : []));
  const named = [
    ...new Set(
      [
        "none of them",
        ...conditions.flatMap((c) => [c.value ?? []].flat()),
        // Texts a pattern draws (`^[0-9a-f]{7,40}$`: a hash).
        ...conditions.flatMap((c) => (c.operator === "matches" ? patternTexts(String(c.value)) : [])),
      ].flatMap((v) => {
        const n = Number(v);
        const near = v.trim() !== "" && Number.isFinite(n) ? [n - 1, n - 0.5, n + 0.5, n + 1].map(String) : [];
        // A pattern's own letters (`^cho`, `a$`: `cho`, `a`).
        return [v, ...v.split(",").map((part) => part.trim()), ...near, v.replace(/[\^$.*+?()[\]{}|\\]/g, "")];
      }),
    ),
  ].filter((v) => v.trim() !== "");
  const answers: Array<string[] | typeof ANY | undefined> = [];
  const shown = (j: number) => {
    const v = spec.questions[j].visibility;
    if (v.kind !== "when") return v.kind === "always";
    return v.conditions.every((c) => {
      const given = answers[spec.questions.findIndex((q) => q.id === c.field)];
      return given === ANY || (given !== undefined && holds(c, given));
    });
  };
  // Only the answers a condition reads matter; the others are left unanswered.
  const read = new Set(
    spec.questions.flatMap((q) => (q.visibility.kind === "when" ? q.visibility.conditions.map((c) => c.field) : [])),
  );
  const from = (j: number): boolean => {
    if (j === k) return shown(k);
    const q = spec.questions[j];
    const choices: Array<string[] | typeof ANY | undefined> =
      !shown(j) || !read.has(q.id)
        ? [undefined]
        : q.kind === "multi" && q.allowOther
          ? [ANY]
          : [undefined, ...answerSets(q), ...(q.kind === "text" || q.allowOther ? named.map((v) => [v]) : [])];
    return choices.some((given) => {
      answers[j] = given;
      return from(j + 1);
    });
  };
  return from(0);
}

/**
 * Where a route can end: the search keeps a route only where its last step reached something no
 * earlier step had, so there are at most as many as there are such things. They are the chart's
 * states, transitions and condition outcomes, and, for each atomic state, the keys offered there
 * (each leading by one set of transitions or refused, one more than its candidates). The keys
 * offered at a state are bounded by the most any snapshot on the routes offers: a fixed set plus
 * a digit per deciding option, at most nine. Every term grows with the questions alone.
 */
function routeBound(spec: FormSpec, machine: AnyStateMachine, routes: readonly Route[]): number {
  const { states, transitions, conditions } = definitionOf(machine, spec);
  const events = formEvents(spec);
  const keys = Math.max(...routes.flatMap((r) => r.steps.map((s) => events(s.state).length)));
  let ends = 0;
  const visit = (node: AnyStateMachine["root"]) => {
    const children = Object.values(node.states) as Array<AnyStateMachine["root"]>;
    if (children.length === 0) {
      let candidates = 0;
      for (let n: AnyStateMachine["root"] | undefined = node; n; n = n.parent)
        for (const list of n.transitions.values()) candidates = Math.max(candidates, list.length);
      ends += keys * (candidates + 1);
    }
    children.forEach(visit);
  };
  visit(machine.root);
  return states.size + transitions.size + conditions.size + ends;
}

const table: string[] = [];
/** Milliseconds of CPU this process has used. */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const started = cpu();

/** Everything the file asserts of one form; `picks` choose the routes replayed on the component, `width` their width. */
function checkForm(name: string, call: ToolCall, picks: number[], width: number): void {
  const form = prepared(call);
  if ("neverShown" in form) {
    // Refused: the same arguments built without the refusal show that question for no answers.
    const tool = formTool(call.tool)!;
    const checked = tool.check(tool.folds?.length ? prepareWith(...tool.folds)(call.arguments) : call.arguments);
    if (!checked.ok) throw new Error(checked.error.message);
    const spec = tool.form(checked.value);
    expect(
      someAnswersShow(
        spec,
        spec.questions.findIndex((q) => q.id === form.neverShown),
      ),
    ).toBe(false);
    table.push(
      `${name.padEnd(20)} ${String(spec.questions.length).padStart(3)} q refused: "${form.neverShown}" is never shown`,
    );
    return;
  }
  const { spec } = form;
  // The door let through a question no answer shows: no route can reach it. The form, to keep as a fixed case.
  const never = neverShownOf(spec);
  if (never) throw new Error(`accepted, yet no tried answers show "${never}": ${JSON.stringify(call)}`);
  // What the search cannot decide is neither covered nor missed: the form, to keep as a fixed case.
  const unknown = undecided(spec);
  if (unknown.length > 0) throw new Error(`unknown: ${unknown.join("; ")}: ${JSON.stringify(call)}`);
  try {
    routeAndReplay(name, spec, picks, width);
  } catch (error) {
    throw new Error(`${JSON.stringify(call)}\n${(error as Error).message}`);
  }
}

function routeAndReplay(name: string, spec: FormSpec, picks: number[], width: number): void {
  const machine = createFormMachine(spec) as unknown as AnyStateMachine;
  const t0 = cpu();
  const routes = generatePaths(spec, machine);
  const t1 = cpu();
  const clock = Boolean(spec.waitMs || spec.timeoutMs);
  if (clock) jest.useFakeTimers({ doNotFake: ["performance"] });
  try {
    const missed = missedBy(machine, routesCoverage(spec, routes), spec);
    expect({ states: missed.states, transitions: missed.transitions, conditions: missed.conditions }).toEqual({
      states: [],
      transitions: [],
      conditions: [],
    });
    const t2 = cpu();
    const bound = routeBound(spec, machine, routes);
    expect(routes.length).toBeLessThanOrEqual(bound);
    const sample = [...new Set(picks.map((p) => p % routes.length))].slice(0, SAMPLE);
    const replayed: Coverage = newCoverage();
    for (const i of sample) replayPath(spec, routes[i].steps, replayed, { width });
    const t3 = cpu();
    const ms = (t: number) => `${Math.round(t)}`.padStart(5);
    table.push(
      `${name.padEnd(20)} ${String(spec.questions.length).padStart(3)} q ${String(routes.length).padStart(5)} routes ≤ ${String(bound).padStart(6)}  ${sample.length} replayed at width ${String(width).padEnd(3)} ms: search ${ms(t1 - t0)} cover ${ms(t2 - t1)} replay ${ms(t3 - t2)}`,
    );
  } finally {
    if (clock) jest.useRealTimers();
  }
}

const sampled = fc.record({
  picks: fc.array(fc.nat(), { minLength: SAMPLE, maxLength: SAMPLE }),
  width: fc.integer({ min: 20, max: 160 }),
});

describe(`generated forms (seed ${SEED})`, () => {
  it.each(Object.keys(TOOL_CALLS))(
    `${FORMS} %s forms are routed through everything and replay`,
    (tool) => {
      fc.assert(
        fc.property(TOOL_CALLS[tool], sampled, (call, { picks, width }) => {
          checkForm(tool, call, picks, width);
        }),
        { numRuns: FORMS, seed: SEED },
      );
    },
    120_000,
  );

  (process.env.QUICK ? it.skip : it)(
    "2 question forms near the tool's limit of 50 questions are routed through everything and replay",
    () => {
      fc.assert(
        fc.property(nearLimit(), sampled, (call, { picks, width }) => {
          checkForm("question, near limit", call, picks, width);
        }),
        { numRuns: 2, seed: SEED },
      );
    },
    300_000,
  );
});

/**
 * Forms the properties found routes missing on, kept. The seek: with questions 2, 3, 7 and 12
 * required, an answer given on the review screen once 2, 3 and 7 are answered passes 7–11 on to 12;
 * the search looked only a short walk around where answering 7 left the person (question 8), five
 * tabs from the review screen. (Shrunk by fast-check; the options' shapes are as it left them.)
 */
const SEEK_PAST_ANSWERED: ToolCall = {
  tool: "question",
  arguments: {
    questions: [
      { id: "q1", prompt: "Question 1?", options: [{ label: "Option 1.1" }] },
      { id: "q2", prompt: "Question 2?", options: [{ label: "Option 2.1" }], required: true },
      { id: "q3", prompt: "Question 3?", options: [{ label: "Option 3.1" }], required: true },
      { id: "q4", prompt: "Question 4?", options: ["Option 4.1"] },
      { id: "q5", prompt: "Question 5?", options: [{ label: "Option 5.1" }] },
      { id: "q6", prompt: "Question 6?", options: [{ label: "Option 6.1" }] },
      { id: "q7", prompt: "Question 7?", options: [{ label: "Option 7.1" }], required: true },
      { id: "q8", prompt: "Question 8?", options: [{ label: "Option 8.1" }] },
      { id: "q9", prompt: "Question 9?", options: [{ label: "Option 9.1" }] },
      { id: "q10", prompt: "Question 10?", options: [{ label: "Option 10.1" }] },
      { id: "q11", prompt: "Question 11?", options: [{ label: "Option 11.1" }] },
      { id: "q12", prompt: "Question 12?", options: [{ label: "Option 12.1" }], required: true },
    ],
  },
};

/**
 * 50 questions of mixed kinds (2–5 options, 6 multi-selects, 5 required, previews on 4): Esc on an
 * untouched question 15 and 24 never cancelled outright, as the review screen's answer carried the
 * person there with an answer given before tabbing reached them untouched.
 */
const MIXED_50: ToolCall = {
  tool: "question",
  arguments: {
    questions: Array.from({ length: 50 }, (_, i) => ({
      id: `q${i + 1}`,
      prompt: `Question ${i + 1}?`,
      ...([3, 9, 17, 26, 38, 44].includes(i) ? { multiple: true } : {}),
      ...([2, 14, 23, 35, 47].includes(i) ? { required: true } : {}),
      options: Array.from({ length: 2 + (i % 4) }, (_, j) => ({
        label: `Option ${i + 1}.${j + 1}`,
        ...([5, 19, 29, 41].includes(i) ? { preview: `code ${i}.${j}\nline two` } : {}),
      })),
    })),
  },
};

/**
 * A multi-select of three with at most one pick: `i` fits only once two are picked. Moving from the
 * picked option to an unpicked one looked to the search like staying, so no route picked a second.
 */
const INVERT_PAST_MAX: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: {
      type: "object",
      properties: {
        f1: { type: "array", items: { type: "string", enum: ["m1", "m2", "m3"] }, maxItems: 1 },
        f2: { type: "array", items: { type: "string", enum: ["m1"] } },
      },
      required: [],
    },
  },
};

/** Five options, at most one: `i` fits only once four are picked, one toggle at a time. */
const INVERT_PAST_MAX_OF_FIVE: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: {
      type: "object",
      properties: {
        f1: { type: "array", items: { type: "string", enum: ["m1", "m2", "m3", "m4", "m5"] }, maxItems: 1 },
        f2: { type: "string", title: "Text" },
      },
      required: [],
    },
  },
};

/** A required number of at most 1: every sample the search typed (`Blue`, `42`, …) was refused. */
const NUMBER_AT_MOST_1: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: { type: "object", properties: { f1: { type: "number", maximum: 1 } }, required: ["f1"] },
  },
};

/**
 * Two required questions, only the second going on by itself: a seek starts only from the second's
 * answer, so it never finds the first answered and the second open. The chart had a move past the
 * first while seeking that nothing could take.
 */
const SEEK_NEVER_PASSES: ToolCall = {
  tool: "questionnaire",
  arguments: {
    questions: [
      { id: "b1", label: "B1", prompt: "Branch question 1?", options: ["choice 1a", "choice 1b"], autoAdvance: false },
      { id: "b2", label: "B2", prompt: "Branch question 2?", options: ["choice 2a", "choice 2b"] },
    ],
  },
};

/**
 * An optional yes/no whose default is Yes: Esc asks first only once No is picked, and moving to No
 * looked to the search like staying on Yes, so no route picked it.
 */
const YES_BY_DEFAULT: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: {
      type: "object",
      properties: { f1: { type: "boolean", title: "Agree?", default: true } },
      required: [],
    },
  },
};

/** The only required question is a yes/no answered No by default: nothing can leave it open, so nothing seeks it. */
const REQUIRED_ANSWERED_BY_DEFAULT: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: {
      type: "object",
      properties: { f1: { type: "string", title: "Text" }, f2: { type: "boolean", title: "Agree?", default: false } },
      required: ["f2"],
    },
  },
};

/**
 * The second question, the only one going on by itself, is shown only once the first is answered
 * `choice 1a`: its answer can never leave the first open, so no seek ever starts from the review screen.
 */
const SHOWN_ONLY_AFTER: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", label: "B1", prompt: "Branch question 1?", options: ["choice 1a", "choice 1b"], autoAdvance: false },
      {
        id: "b2",
        label: "B2",
        prompt: "Branch question 2?",
        options: ["choice 2a", "choice 2b"],
        when: [{ field: "b1", operator: "equals", value: "choice 1a" }],
      },
    ],
  },
};

/** One choice of one option, picked by default: nothing can be entered, so Esc has nothing to ask about. */
const ONE_OPTION_BY_DEFAULT: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: { type: "object", properties: { f1: { type: "string", enum: ["c1"], default: "c1" } }, required: [] },
  },
};

/**
 * Question 4 is shown once question 2 is typed below -1 and question 3 answered `choice 3b`: the
 * search told states apart by which questions were shown, so a typed `-2` waiting for the second
 * condition merged with an option that meets neither, and no route met both.
 */
const TWO_CONDITIONS_AT_ONCE: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", label: "B1", prompt: "Branch question 1?", options: ["choice 1a", "choice 1b"] },
      { id: "b2", label: "B2", prompt: "Branch question 2?", options: ["choice 2a", "choice 2b"] },
      { id: "b3", label: "B3", prompt: "Branch question 3?", options: ["choice 3a", "choice 3b", "choice 3c"] },
      {
        id: "b4",
        label: "B4",
        prompt: "Branch question 4?",
        options: ["choice 4a", "choice 4b"],
        when: [
          { field: "b2", operator: "lt", value: -1 },
          { field: "b3", operator: "equals", value: "choice 3b" },
        ],
      },
    ],
  },
};

/** `equals true` on a yes/no, as a model writes it: it meant Yes, and compared with "Yes" it never held. */
const YES_NO_AS_BOOLEAN: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", label: "B1", prompt: "Branch question 1?", type: "yes_no", options: [] },
      {
        id: "b2",
        label: "B2",
        prompt: "Branch question 2?",
        options: ["choice 2a", "choice 2b"],
        when: [{ field: "b1", operator: "equals", value: true }],
      },
      { id: "b3", label: "B3", prompt: "Branch question 3?", options: ["choice 3a", "choice 3b"] },
    ],
  },
};

/**
 * A required number its default answers: only emptying its editor leaves it open, and the search
 * only typed on after the default, so no seek from the review screen ever stopped at it.
 */
const REQUIRED_NUMBER_BY_DEFAULT: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: {
      type: "object",
      properties: {
        f1: { type: "array", items: { type: "string", enum: ["m1"] } },
        f2: { type: "number", default: 1 },
      },
      required: ["f2"],
    },
  },
};

/**
 * Question 3 wants question 1 answered Yes and question 2 answered `2`, and question 2 is shown only
 * when question 1 is answered No: no answers show it, and the tool says so.
 */
const NEVER_SHOWN_THROUGH_ANOTHER: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", label: "B1", prompt: "Branch question 1?", type: "yes_no", options: [], required: false },
      {
        id: "b2",
        label: "B2",
        prompt: "Branch question 2?",
        options: ["2", "4", "6", "8"],
        allowOther: false,
        required: false,
        when: [{ field: "b1", operator: "equals", value: "No" }],
      },
      {
        id: "b3",
        label: "B3",
        prompt: "Branch question 3?",
        options: ["3", "6", "9"],
        allowOther: false,
        when: [
          { field: "b1", operator: "equals", value: "Yes" },
          { field: "b2", operator: "equals", value: "2" },
        ],
      },
    ],
  },
};

/**
 * A required choice and a required number its default answers: a seek passes the choice only once
 * it is answered and the number emptied, and the search had kept the number answered throughout.
 */
const CHOICE_THEN_EMPTIED_NUMBER: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: {
      type: "object",
      properties: {
        f1: { type: "array", items: { type: "string", enum: ["m1", "m2"] }, minItems: 1, maxItems: 1 },
        f2: { type: "number", default: 1 },
      },
      required: ["f1", "f2"],
    },
  },
};

/** Two required fields with defaults and an optional one between: the seek passes both once the last is emptied. */
const TWO_DEFAULTS_ONE_EMPTIED: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: {
      type: "object",
      properties: {
        f1: { type: "string", format: "date", default: "2024-02-29" },
        f2: { type: "number" },
        f3: { type: "number", default: 1 },
      },
      required: ["f1", "f3"],
    },
  },
};

/**
 * Questions 2 and 4 are required and shown once question 1 is `choice 1a`: answering question 1
 * opens them, so a seek passing question 3 needs it answered after the others were, and the search
 * only ever answered required questions, never opened them.
 */
const OPENED_BY_AN_ANSWER: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", label: "B1", prompt: "Branch question 1?", options: ["choice 1a", "choice 1b"], required: false },
      {
        id: "b2",
        label: "B2",
        prompt: "Branch question 2?",
        options: ["choice 2a", "choice 2b"],
        required: true,
        autoAdvance: false,
        when: [{ field: "b1", operator: "equals", value: "choice 1a" }],
      },
      { id: "b3", label: "B3", prompt: "Branch question 3?", type: "rating", options: [] },
      {
        id: "b4",
        label: "B4",
        prompt: "Branch question 4?",
        options: ["4", "8"],
        autoAdvance: true,
        when: [{ field: "b1", operator: "equals", value: "choice 1a" }],
      },
    ],
  },
};

/**
 * Question 4 wants question 1 typed `Blue` and question 2 answered, and question 2 is shown only
 * when question 1 is `choice 1a`: one answer cannot be both, so no answers show it.
 */
const ONE_TYPED_ANSWER_TWO_VALUES: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", label: "B1", prompt: "Branch question 1?", options: ["choice 1a", "choice 1b"], required: false },
      {
        id: "b2",
        label: "B2",
        prompt: "Branch question 2?",
        options: ["choice 2a", "choice 2b"],
        when: [{ field: "b1", operator: "equals", value: "choice 1a" }],
      },
      {
        id: "b3",
        label: "B3",
        prompt: "Branch question 3?",
        options: ["4", "8"],
        when: [
          { field: "b1", operator: "equals", value: "Blue" },
          { field: "b2", operator: "equals", value: "choice 2a" },
        ],
      },
    ],
  },
};

/**
 * Question 2 is required and shown once question 1 is rated, question 4 required throughout: a seek
 * passes question 2 only when it was answered while question 4 was still open, and the search had
 * answered question 4 first.
 */
const ANSWERED_WHILE_A_LATER_IS_OPEN: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", label: "B1", prompt: "Branch question 1?", type: "rating", options: [], required: false },
      {
        id: "b2",
        label: "B2",
        prompt: "Branch question 2?",
        options: ["choice 2a", "choice 2b", "choice 2c"],
        autoAdvance: false,
        when: [{ field: "b1", operator: "is_not_empty" }],
      },
      {
        id: "b3",
        label: "B3",
        prompt: "Branch question 3?",
        type: "multi",
        options: ["choice 3a", "choice 3b", "choice 3c"],
        required: false,
        autoAdvance: false,
      },
      { id: "b4", label: "B4", prompt: "Branch question 4?", options: ["choice 4a", "choice 4b"], autoAdvance: false },
    ],
  },
};

/**
 * Twelve questions, four required (the second typed, the last two at the end): the phased search
 * left untaken the seek that passes the required multi-select q18, answered, on to q19; the same
 * seek in the 19-question form seed 1 drew needed more than a longer walk from a partly answered form.
 */
const SEEK_PAST_A_LATE_MULTI_SELECT: ToolCall = {
  tool: "question",
  arguments: {
    questions: [
      { id: "q1", prompt: "Question 1?", required: true, allowOther: false, options: ["Option 1.1"] },
      { id: "q5", prompt: "Question 5?", required: true, allowOther: true, options: ["Option 5.1"] },
      { id: "q6", prompt: "Question 6?", multiple: true, options: ["Option 6.1"] },
      { id: "q7", prompt: "Question 7?", multiple: true, allowOther: false, options: ["Option 7.1"] },
      { id: "q8", prompt: "Question 8?", allowOther: true, options: ["Option 8.1"] },
      { id: "q9", prompt: "Question 9?", multiple: true, allowOther: false, options: ["Option 9.1"] },
      { id: "q10", prompt: "Question 10?", allowOther: true, options: ["Option 10.1"] },
      { id: "q11", prompt: "Question 11?", options: ["Option 11.1"] },
      { id: "q12", prompt: "Question 12?", multiple: true, options: ["Option 12.1"] },
      { id: "q13", prompt: "Question 13?", allowOther: true, options: ["Option 13.1"] },
      {
        id: "q18",
        prompt: "Question 18?",
        multiple: true,
        required: true,
        allowOther: false,
        options: ["Option 18.1"],
      },
      { id: "q19", prompt: "Question 19?", required: true, options: ["Option 19.1"] },
    ],
  },
};

/**
 * A question switched off (`on: false`) is never shown, yet the chart keeps its states: the
 * coverage counted them, and what leads into them, though no route can take them.
 */
const SWITCHED_OFF: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", prompt: "Branch question 1?", options: ["1", "2"] },
      { id: "b2", prompt: "Branch question 2?", type: "rating", options: [], on: false },
      { id: "b3", prompt: "Branch question 3?", options: ["choice 3a", "choice 3b"] },
    ],
  },
};

/**
 * Ten options, and a second question switched off: the chart kept the seek from the review screen
 * to the first question and the move past it, which no answer could start (the question off was
 * the only other one an answer could seek from).
 */
const ALL_BUT_ONE_OFF: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      {
        id: "b1",
        prompt: "Branch question 1?",
        options: Array.from({ length: 10 }, (_, j) => `choice 1${"abcdefghij"[j]}`),
      },
      { id: "b2", prompt: "Branch question 2?", options: ["choice 2a", "choice 2b"], on: false },
    ],
  },
};

/**
 * Seed 4: `is_empty` on a required multi-select that takes a typed answer. The door lets it through
 * (a typed multi-select may meet anything) and the tried answers show it, yet no route gave the
 * one typed answer `is_empty` holds on, `(no response)`, so question 4 was never reached.
 */
const EMPTY_TYPED_MULTI: ToolCall = {
  tool: "question_branch",
  arguments: {
    questions: [
      { id: "b1", prompt: "Branch question 1?", options: ["1", "2", "3"], required: false, autoAdvance: false },
      { id: "b2", prompt: "Branch question 2?", type: "multi", options: ["2", "4"], allowOther: true },
      { id: "b3", prompt: "Branch question 3?", type: "yes_no", options: [], allowOther: true },
      { id: "b4", prompt: "Branch question 4?", options: ["4", "8"], allowOther: true, when: "b2 is_empty" },
    ],
  },
};

/** Seed 4: two required multi-selects, the second answered by default: the seek past the first is never taken. */
const TWO_REQUIRED_MULTI_ONE_BY_DEFAULT: ToolCall = {
  tool: "ask_form",
  arguments: {
    message: "Fill in these fields.",
    schema: {
      type: "object",
      properties: {
        f1: { type: "boolean", title: "Agree?" },
        f2: { type: "array", items: { type: "string", enum: ["m1"] } },
        f3: { type: "array", items: { type: "string", enum: ["m1"] }, default: ["m1"] },
        f4: { type: "string", format: "email" },
      },
      required: ["f2", "f3"],
    },
  },
};

describe("forms the properties found a route missing on", () => {
  it.each<[string, ToolCall, number[], number]>([
    ["a lone option picked by default: Esc cancels outright", ONE_OPTION_BY_DEFAULT, [0, 1, 2], 30],
    [
      "no seek from an answer to a question shown only after the required one is answered",
      SHOWN_ONLY_AFTER,
      [0, 1, 2],
      30,
    ],
    ["a required yes/no answered by default is never sought", REQUIRED_ANSWERED_BY_DEFAULT, [0, 1, 2], 30],
    ["a yes/no answered Yes by default: No picked, then Esc asks first", YES_BY_DEFAULT, [0, 1, 2], 30],
    ["a multi-select of at most one: invert once two are picked", INVERT_PAST_MAX, [0, 1, 2], 20],
    ["five options, at most one: invert once four are picked", INVERT_PAST_MAX_OF_FIVE, [0, 0, 0], 20],
    ["a number of at most 1: typed within its rule and outside it", NUMBER_AT_MOST_1, [0, 1, 2], 40],
    ["a seek that can never pass the first question has no move for it", SEEK_NEVER_PASSES, [0, 1, 2], 20],
    ["two conditions on two questions met one after the other", TWO_CONDITIONS_AT_ONCE, [0, 50, 100], 40],
    ["a yes/no's condition written as a boolean", YES_NO_AS_BOOLEAN, [0, 1, 2], 40],
    ["a required number answered by default, emptied and sought", REQUIRED_NUMBER_BY_DEFAULT, [0, 1, 2], 40],
    ["a question no answers show, refused", NEVER_SHOWN_THROUGH_ANOTHER, [0, 1, 2], 40],
    ["a required choice answered, then a required number emptied", CHOICE_THEN_EMPTIED_NUMBER, [0, 1, 2], 40],
    ["two required defaults, the last emptied", TWO_DEFAULTS_ONE_EMPTIED, [0, 1, 2], 40],
    ["required questions an answer opens, then a seek past them", OPENED_BY_AN_ANSWER, [0, 1, 2], 40],
    ["one typed answer wanted as two values, refused", ONE_TYPED_ANSWER_TWO_VALUES, [0, 1, 2], 40],
    ["a required question answered while a later one is open", ANSWERED_WHILE_A_LATER_IS_OPEN, [0, 1, 2], 40],
    ["a question switched off is only passed", SWITCHED_OFF, [0, 1, 2], 40],
  ])("%s", (name, call, picks, width) => {
    checkForm(name.slice(0, 20), call, picks, width);
  });

  // The phased search missed these (see each form's comment).
  it("12 questions, a required multi-select before the last: the seek past it", () => {
    checkForm("seek past late multi", SEEK_PAST_A_LATE_MULTI_SELECT, [0, 1, 2], 60);
  });
  it("is_empty on a required typed multi-select: never emptied while shown", () => {
    checkForm("empty typed multi", EMPTY_TYPED_MULTI, [0, 1, 2], 20);
  });
  it("two required multi-selects, the second by default: the seek past the first", () => {
    checkForm("two multi, a default", TWO_REQUIRED_MULTI_ONE_BY_DEFAULT, [0, 1, 2], 20);
  });
  it("the only question left on, the other switched off: the seek to it", () => {
    checkForm("all but one off", ALL_BUT_ONE_OFF, [0, 1, 2], 20);
  });

  (process.env.QUICK ? it.skip : it)(
    "12 questions, 4 required: the seek from the review screen past the answered ones",
    () => {
      checkForm("seek past answered", SEEK_PAST_ANSWERED, [0, 7, 99], 60);
    },
  );

  (process.env.QUICK ? it.skip : it)(
    "50 questions of mixed kinds: Esc on an untouched required question",
    () => {
      checkForm("mixed 50", MIXED_50, [3, 500, 1000], 80);
    },
    120_000,
  );
});

afterAll(() => {
  console.log(
    `Generated forms, seed ${SEED} (FUZZ_SEED=${SEED} repeats them), ${Math.round(cpu() - started)} ms CPU\n${table.join("\n")}`,
  );
});
