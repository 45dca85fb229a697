/**
 * Generated path tests: every route @xstate/graph finds through each form is
 * replayed with real key bytes on the real component, and the routes
 * together must take every state and every transition of the machine.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { createFormMachine } from "../machines/form.js";
import { type FormSpec, normalizeForm } from "../machines/spec.js";
import { checkBranchArgs } from "../schemas/qwizard.js";
import { checkRichArgs } from "../schemas/rich.js";
import { inputSpec, questionnaireSpec } from "../tools/qwizard.js";
import { normalizeRich, richFormSpec } from "../tools/rich.js";
import { definitionOf, formTestModel, newCoverage, replayPath } from "./helpers/paths.js";

function branchSpec(): FormSpec {
  const checked = checkBranchArgs({
    questions: [
      { id: "deploy", prompt: "Deploy today?", type: "yes_no", options: [] },
      { id: "env", label: "Target", prompt: "Where to?", when: "deploy equals Yes", options: [{ label: "staging" }, { label: "prod" }] },
      { id: "why", label: "Reason", prompt: "Why wait?", when: { field: "deploy", operator: "not_equals", value: "Yes" }, allowOther: false, options: [{ label: "Review" }, { label: "Freeze" }] },
      { id: "score", label: "Score", prompt: "Confidence?", type: "rating", options: [], when: ["deploy is_not_empty", "env in staging, prod"] },
    ],
  });
  if (!checked.ok) throw new Error(checked.error.message);
  return questionnaireSpec(checked.value);
}

function richSpec(): FormSpec {
  const checked = checkRichArgs({
    title: "Release",
    questions: [
      { id: "target", prompt: "Where should we deploy?", allowOther: true, recommendation: "Staging first.", options: [{ label: "Production", value: "prod", note: "Friday freeze" }, { label: "Staging", value: "stage", recommended: true }] },
      { id: "checks", type: "checkbox", prompt: "Which checks?", options: [{ label: "Unit" }, { label: "Lint" }] },
      { id: "why", type: "text", prompt: "Anything else?", required: false },
    ],
  });
  if (!checked.ok) throw new Error(checked.error.message);
  return richFormSpec(normalizeRich(checked.value));
}

const forms: Record<string, { spec: FormSpec; fakeTimers?: boolean }> = {
  "single select": {
    spec: normalizeForm({ questions: [{ prompt: "Which database?", options: [{ label: "PostgreSQL", description: "relational" }, { label: "SQLite" }] }] }),
  },
  "single multi-select": {
    spec: normalizeForm({ questions: [{ prompt: "Which checks?", multiple: true, options: [{ label: "Unit" }, { label: "Lint" }] }] }),
  },
  "tabbed single + multi + fixed options": {
    spec: normalizeForm({
      questions: [
        { id: "db", label: "数据库", prompt: "Which database? 🗄️", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
        { id: "checks", label: "Checks", prompt: "Which checks?", multiple: true, options: [{ label: "Unit" }, { label: "Lint" }] },
        { id: "size", label: "Size", prompt: "How big?", allowOther: false, options: [{ label: "S" }, { label: "L" }] },
      ],
    }),
  },
  "tabbed with an optional multi-select": {
    spec: normalizeForm({
      questions: [
        { prompt: "Pick one", options: [{ label: "A" }, { label: "B" }], autoAdvance: false },
        { prompt: "Extras?", multiple: true, required: false, allowOther: false, options: [{ label: "X" }, { label: "Y" }] },
      ],
    }),
  },
  "branching (question_branch)": { spec: branchSpec() },
  "typed date (question_input)": { spec: inputSpec({ question: "Release date?", type: "date" }) },
  "rich review (ask_rich_questions)": { spec: richSpec() },
  "throttled (question_throttle)": {
    spec: { ...normalizeForm({ questions: [{ prompt: "Still on track?", options: [{ label: "Yes" }, { label: "Blocked" }] }] }), waitMs: 5000 },
    fakeTimers: true,
  },
};

const table: string[] = [];

describe.each(Object.entries(forms))("%s", (name, { spec, fakeTimers }) => {
  const machine = createFormMachine(spec) as unknown as AnyStateMachine;
  const started = Date.now();
  const paths = formTestModel(spec, machine).getShortestPaths();
  const coverage = newCoverage();

  if (fakeTimers) {
    beforeEach(() => {
      jest.useFakeTimers();
    });
    afterEach(() => {
      jest.useRealTimers();
    });
  }

  it(`replays all ${paths.length} generated paths on the component with key bytes`, () => {
    paths.forEach((path, i) => replayPath(spec, path.steps, coverage, { width: 20 + ((i * 37) % 100) }));
  });

  it("covers every state and every transition", () => {
    const definition = definitionOf(machine);
    const missingStates = [...definition.states].filter((s) => !coverage.states.has(s));
    const missingTransitions = [...definition.transitions].filter((t) => !coverage.transitions.has(t));
    table.push(
      `${name.padEnd(40)} states ${definition.states.size - missingStates.length}/${definition.states.size}  transitions ${definition.transitions.size - missingTransitions.length}/${definition.transitions.size}  paths ${paths.length}  ${Date.now() - started} ms`,
    );
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });
});

afterAll(() => {
  console.log(`Generated path coverage\n${table.join("\n")}`);
});
