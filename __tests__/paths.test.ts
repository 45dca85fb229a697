/**
 * Generated path tests: every route @xstate/graph finds through the single and
 * tabbed forms is replayed with real key bytes on the real component, and the
 * routes together must take every state and every transition of the machine.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { createFormMachine } from "../machines/form.js";
import { type FormSpec, normalizeForm } from "../machines/spec.js";
import { definitionOf, formTestModel, newCoverage, replayPath } from "./helpers/paths.js";

const forms: Record<string, FormSpec> = {
  "single select": normalizeForm({
    questions: [{ prompt: "Which database?", options: [{ label: "PostgreSQL", description: "relational" }, { label: "SQLite" }] }],
  }),
  "single multi-select": normalizeForm({
    questions: [{ prompt: "Which checks?", multiple: true, options: [{ label: "Unit" }, { label: "Lint" }] }],
  }),
  "tabbed single + multi + fixed options": normalizeForm({
    questions: [
      { id: "db", label: "数据库", prompt: "Which database? 🗄️", options: [{ label: "PostgreSQL" }, { label: "SQLite" }] },
      { id: "checks", label: "Checks", prompt: "Which checks?", multiple: true, options: [{ label: "Unit" }, { label: "Lint" }] },
      { id: "size", label: "Size", prompt: "How big?", allowOther: false, options: [{ label: "S" }, { label: "L" }] },
    ],
  }),
  "tabbed with an optional multi-select": normalizeForm({
    questions: [
      { prompt: "Pick one", options: [{ label: "A" }, { label: "B" }], autoAdvance: false },
      { prompt: "Extras?", multiple: true, required: false, allowOther: false, options: [{ label: "X" }, { label: "Y" }] },
    ],
  }),
};

const table: string[] = [];

describe.each(Object.entries(forms))("%s", (name, spec) => {
  const machine = createFormMachine(spec) as unknown as AnyStateMachine;
  const started = Date.now();
  const paths = formTestModel(spec, machine).getShortestPaths();
  const coverage = newCoverage();

  it(`replays all ${paths.length} generated paths on the component with key bytes`, () => {
    paths.forEach((path, i) => replayPath(spec, path.steps, coverage, { width: 20 + ((i * 37) % 100) }));
  });

  it("covers every state and every transition", () => {
    const definition = definitionOf(machine);
    const missingStates = [...definition.states].filter((s) => !coverage.states.has(s));
    const missingTransitions = [...definition.transitions].filter((t) => !coverage.transitions.has(t));
    table.push(
      `${name.padEnd(40)} states ${coverage.states.size}/${definition.states.size}  transitions ${definition.transitions.size - missingTransitions.length}/${definition.transitions.size}  paths ${paths.length}  ${Date.now() - started} ms`,
    );
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });
});

afterAll(() => {
  console.log(`Generated path coverage\n${table.join("\n")}`);
});
