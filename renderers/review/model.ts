/**
 * What a form's review page shows, from the replayed routes (`replay.ts`):
 * the keys on every edge, the events each state refuses, each state's screen
 * (at the end of the shortest route into it), the coverage the path tests
 * check, and the tool's result after the shortest submit and cancel.
 */

import { formDiagram } from "../graph.js";
import { undecided } from "../inspect/boundaries.js";
import { missedBy } from "../inspect/coverage.js";
import { stepCondition } from "./condition-words.js";
import { addKeys, addTwinDigits, byEvent, keyList } from "./keys.js";
import { eventLoopTurns, replayRoutes } from "./replay.js";
import type {
  ReviewEdge,
  ReviewForm,
  ReviewKeyRow,
  ReviewModel,
  ReviewOptions,
  ReviewResult,
  ReviewState,
  ReviewStep,
  ReviewTransition,
} from "./types.js";

export const REVIEW_WIDTHS = [60, 80, 120];

export async function reviewModel(form: ReviewForm, options: ReviewOptions = {}): Promise<ReviewModel> {
  const { spec } = form;
  const widths = options.widths ?? REVIEW_WIDTHS;
  const width = options.width ?? (widths.includes(80) ? 80 : widths[0]);
  const height = options.height ?? 30;
  // Inside Pi the event loop has a turn between the parts of the work (and within the long ones).
  const turn = eventLoopTurns();
  const diagram = formDiagram(spec);
  await turn();
  const replay = await replayRoutes(form, widths, height, options);
  const { machine, steps, routes, results, total } = replay;
  addTwinDigits(spec, steps);

  const { edges, edgesOf, transitionKeys } = drawnEdges(diagram, steps);
  await turn();
  const byPath = new Map(diagram.states.map((s) => [s.id, s.path]));

  // When each step's event leads where it led, from the guards of the transitions taken.
  for (const step of steps) {
    if (step.parent < 0 || step.refused) continue;
    const taken = step.transitions.flatMap((t) => {
      const i = edgesOf.get(t)?.[0];
      return i === undefined ? [] : [edges[i]];
    });
    step.when = stepCondition(spec, taken, steps[step.parent].state, step.state, step.raw?.type);
    await turn();
  }

  const { stateRoutes, transitionRoutes } = routeCounts(steps, routes, edges);
  await turn();
  const keyRows = keyRowsOf(steps);
  await turn();

  /** The step nearest the start that passes `test` (-1 when none does). */
  const shortest = (test: (step: ReviewStep) => boolean) => {
    let best = -1;
    steps.forEach((step, id) => {
      if (test(step) && (best < 0 || step.depth < steps[best].depth)) best = id;
    });
    return best;
  };
  const states: ReviewState[] = diagram.states.map((s) => {
    const state: ReviewState = {
      id: s.path,
      dot: s.id,
      label: s.label,
      kind: s.kind,
      step: s.kind === "compound" ? -1 : shortest((step) => step.state === s.path),
      routes: s.kind === "compound" ? 0 : (stateRoutes.get(s.path) ?? 0),
      keys: [...(keyRows.get(s.path)?.values() ?? [])].sort(byEvent),
    };
    if (s.detail) state.detail = s.detail;
    if (s.parent) state.parent = byPath.get(s.parent);
    if (s.initial) state.initial = byPath.get(s.initial);
    return state;
  });

  edges.push(...refusedLoops(states));
  await turn();

  const missed = missedBy(machine, total, spec);
  const { definition } = missed;
  const defined = definition.states.size + definition.transitions.size + definition.conditions.size;
  const coveredCount = defined - missed.states.length - missed.transitions.length - missed.conditions.length;
  const transitions: ReviewTransition[] = [...definition.transitions].map((id) => {
    const [node, event] = id.split(" ");
    return {
      id,
      from: node.replace(/^form\.?/, "") || "(any state)",
      event,
      to: (edgesOf.get(id) ?? []).map((i) => byPath.get(edges[i].to) ?? edges[i].to),
      keys: transitionKeys.get(id) ?? [],
      routes: transitionRoutes.get(id) ?? 0,
    };
  });

  const resultOf = (step: number): ReviewResult | undefined => {
    const result = results.get(step);
    if (step < 0 || !result) return undefined;
    const route = routes.findIndex((r) => r.includes(step));
    const answered = form.answer ? form.answer(result) : { text: "", details: result };
    return { route, text: answered.text, details: answered.details };
  };
  const submitStep = shortest((s) => s.state === "submitted");
  const cancelStep = shortest((s) => s.state === "cancelled" && s.event === "CANCEL");

  const model: ReviewModel = {
    name: form.name ?? "form",
    title: spec.title ?? spec.questions[0]?.prompt ?? "",
    widths,
    width,
    height,
    initial: steps[0].state,
    states,
    edges,
    steps,
    routes,
    rows: replay.rows,
    screens: replay.screens,
    coverage: {
      states: {
        covered: definition.states.size - missed.states.length,
        total: definition.states.size,
        missed: missed.states,
      },
      transitions: {
        covered: definition.transitions.size - missed.transitions.length,
        total: definition.transitions.size,
        missed: missed.transitions,
      },
      conditions: {
        covered: definition.conditions.size - missed.conditions.length,
        total: definition.conditions.size,
        missed: missed.conditions,
      },
      unknown: undecided(spec),
      routes: routes.length,
      percent: Math.round((1000 * coveredCount) / defined) / 10,
      table: transitions,
    },
  };
  if (form.tool) model.tool = form.tool;
  const submit = resultOf(submitStep);
  const cancel = resultOf(cancelStep);
  if (submit) model.submit = submit;
  if (cancel) model.cancel = cancel;
  return model;
}

type Diagram = ReturnType<typeof formDiagram>;

/** The keys on every drawn edge and every transition, from the steps that took it (each step learns its edges). */
function drawnEdges(diagram: Diagram, steps: ReviewStep[]) {
  const edges: ReviewEdge[] = diagram.edges.map((e, i) => ({ ...e, id: `edge-${i}`, keys: [], routes: 0 }));
  const edgesOf = new Map<string, number[]>();
  edges.forEach((e, i) => {
    edgesOf.set(e.transition, [...(edgesOf.get(e.transition) ?? []), i]);
  });
  const transitionKeys = new Map<string, string[]>();
  for (const step of steps) {
    for (const t of step.transitions) {
      addKeys(transitionKeys.get(t) ?? transitionKeys.set(t, []).get(t)!, step.keys);
      for (const i of edgesOf.get(t) ?? []) {
        if (!step.edges.includes(i)) step.edges.push(i);
        addKeys(edges[i].keys, step.keys);
      }
    }
  }
  return { edges, edgesOf, transitionKeys };
}

/** How many routes pass through each state and take each transition (and, counted on the edges, each edge). */
function routeCounts(steps: readonly ReviewStep[], routes: readonly number[][], edges: ReviewEdge[]) {
  const stateRoutes = new Map<string, number>();
  const transitionRoutes = new Map<string, number>();
  for (const route of routes) {
    const states = new Set<string>([steps[0].state]);
    const transitions = new Set<string>(steps[0].transitions);
    const taken = new Set<number>();
    for (const id of route) {
      states.add(steps[id].state);
      for (const t of steps[id].transitions) transitions.add(t);
      for (const e of steps[id].edges) taken.add(e);
    }
    for (const s of states) stateRoutes.set(s, (stateRoutes.get(s) ?? 0) + 1);
    for (const t of transitions) transitionRoutes.set(t, (transitionRoutes.get(t) ?? 0) + 1);
    for (const e of taken) edges[e].routes++;
  }
  return { stateRoutes, transitionRoutes };
}

/** What each state does with each event sent from it: the keys, and where it led (or that it stayed or was refused). */
function keyRowsOf(steps: readonly ReviewStep[]) {
  const keyRows = new Map<string, Map<string, ReviewKeyRow>>();
  steps.forEach((step, id) => {
    if (step.parent < 0) return;
    const from = steps[step.parent].state;
    const rows = keyRows.get(from) ?? keyRows.set(from, new Map()).get(from)!;
    const row =
      rows.get(step.event) ?? rows.set(step.event, { event: step.event, keys: [], outcomes: [] }).get(step.event)!;
    addKeys(row.keys, step.keys);
    const to = step.refused ? "refused" : step.state === from ? "stays" : step.state;
    const when = to === "stays" || to === "refused" ? "" : step.when;
    if (!row.outcomes.some((o) => o.to === to && o.when === when)) row.outcomes.push({ to, when, step: id });
  });
  return keyRows;
}

function refusedLoops(states: readonly ReviewState[]): ReviewEdge[] {
  const loops: ReviewEdge[] = [];
  for (const s of states) {
    const refused = s.keys.filter((row) => row.keys.length && row.outcomes.some((o) => o.to === "refused"));
    if (!refused.length) continue;
    loops.push({
      from: s.dot,
      to: s.dot,
      label: `ignores ${refused.map((row) => `${keyList(row.keys)} (${row.event})`).join(", ")}`,
      transition: "",
      id: `refused-${s.dot}`,
      refused: true,
      keys: refused.flatMap((row) => row.keys),
      routes: 0,
    });
  }
  return loops;
}
