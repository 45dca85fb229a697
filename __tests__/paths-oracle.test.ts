/**
 * @xstate/graph checks the route search: on every example form (its
 * traversal fits its limit on each), every state node and transition its
 * shortest paths take is taken by the routes of renderers/inspect/paths.ts, and every
 * one of those routes stays on @xstate/graph's model (each event one the
 * model offers at that snapshot, each snapshot where the model's logic takes
 * it). The quick loop (QUICK=1) checks the examples whose traversal is quick
 * and branching; `npm test` checks them all.
 */
import { describe, expect, it } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { createFormMachine } from "../machines/form.js";
import { generatePaths } from "../renderers/inspect/paths.js";
import { offModel, oraclePaths, taken } from "./helpers/graph-oracle.js";

/** The examples whose traversal takes @xstate/graph seconds: `npm test` only (branching stays in for its conditions). */
const SLOW = ["custom-answers", "demo", "form-signup", "previews", "questionnaire", "rich", "timeout"];
const names = process.env.QUICK ? exampleNames().filter((name) => !SLOW.includes(name)) : exampleNames();

describe.each(names)("example %s", (name) => {
  it("is routed through everything @xstate/graph's shortest paths reach, on @xstate/graph's model", () => {
    const loaded = loadFormFile(name);
    if (!loaded.ok) throw new Error(loaded.message);
    const { spec } = loaded.form;
    const machine = createFormMachine(spec) as unknown as AnyStateMachine;
    const oracle = oraclePaths(spec, machine);
    expect(oracle).toBeDefined();
    const routes = generatePaths(spec, machine);
    const theirs = taken(spec, machine, oracle ?? []);
    const ours = taken(spec, machine, routes);
    expect(theirs.transitions.size).toBeGreaterThan(0);
    expect([...theirs.states].filter((id) => !ours.states.has(id))).toEqual([]);
    expect([...theirs.transitions].filter((id) => !ours.transitions.has(id))).toEqual([]);
    expect(routes.map((route) => offModel(spec, machine, route)).filter(Boolean)).toEqual([]);
  }, 60_000);
});
