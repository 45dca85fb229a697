/**
 * What a form's review page shows, computed by replaying every generated
 * route on the real form component.
 *
 * Contract: the routes are the ones the path tests replay
 * (`machines/paths.ts`); each is driven through a `FormComponent` with the
 * terminal theme, and after every step the page keeps the key(s) that send
 * the event where the form stands (the keymap's own inverse, in the names
 * the help line uses), the state reached, the transitions taken and the
 * screen at each width. Routes share their beginnings, so steps are kept as
 * a tree: a step is its parent step plus one event. From the steps follow
 * the keys on every edge of the statechart, the events each state refuses,
 * the screen of each state (at the end of the shortest route into it), the
 * coverage table the path tests check, and the tool's result (model-facing
 * text and `details`) at the end of the shortest submitting route and of the
 * shortest cancel.
 */
import type { AnyStateMachine, InspectionEvent } from "xstate";
import type { FormEvent, FormResult } from "../../machines/context.js";
import type { DiagramEdge } from "../../machines/diagram.js";
import { createFormMachine } from "../../machines/form.js";
import {
  COOLDOWN_DONE,
  findRoutes,
  missedBy,
  newCoverage,
  recordMicrosteps,
  type Snap,
  TIME_UP,
} from "../../machines/paths.js";
import type { FormSpec } from "../../machines/spec.js";
import { FormComponent } from "../component.js";
import { formDiagram } from "../graph.js";
import { keyName, keysForEvent } from "../keymap.js";
import { ansiTheme } from "../theme.js";
import { stepCondition } from "./condition-words.js";
import { ScreenTable } from "./screens.js";

/** A form to review: its spec and, when known, the tool's mapping of a result to what the model reads. */
export interface ReviewForm {
  spec: FormSpec;
  answer?: (result: FormResult) => { text: string; details: unknown };
  /** What the page calls the form (an example's name). */
  name?: string;
  /** The tool that shows it. */
  tool?: string;
}

export interface ReviewOptions {
  /** The widths a reviewer can switch between. */
  widths?: number[];
  /** The width shown first. */
  width?: number;
  /** The rows the form may use. */
  height?: number;
  /** Called as the routes are replayed: how many are done, of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Called now and then while the routes are searched: how many snapshots were looked at so far. */
  onSearch?: (looked: number) => void;
}

export const REVIEW_WIDTHS = [60, 80, 120];

/** One step of a route: the event sent from the parent step, and where it led. */
export interface ReviewStep {
  /** The step before (-1 for the form as it opens). */
  parent: number;
  /** The event, readable: `CONFIRM`, `MOVE +1`, `TYPE "Blue"`. */
  event: string;
  /** The keys that send it there, as the help line names them. */
  keys: string[];
  /** The leaf state reached (`q2.choosing`). */
  state: string;
  /** The drawn edges taken (indexes into `edges`). */
  edges: number[];
  /** The transitions taken (ids as in the coverage table). */
  transitions: string[];
  /** The screen after the step at each width (indexes into `screens`). */
  screens: number[];
  /** No transition fired: the form ignored the event. */
  refused: boolean;
  depth: number;
  /** When the event leads there, in the form's words (`Size is 4 or more (4 or 5)`); "" when always. */
  when: string;
}

export interface ReviewKeyRow {
  event: string;
  keys: string[];
  /** Where it led: a state path, `stays`, or `refused`; when it does (in words); a step that shows it. */
  outcomes: Array<{ to: string; when: string; step: number }>;
}

export interface ReviewState {
  /** The state path, also its anchor (`#state-q2.choosing`). */
  id: string;
  /** The node or cluster name in the drawn statechart. */
  dot: string;
  label: string;
  detail?: string;
  kind: "atomic" | "compound" | "final";
  parent?: string;
  /** A compound state's initial leaf. */
  initial?: string;
  /** The last step of the shortest route into the state (-1: never reached). */
  step: number;
  /** How many generated routes pass through it. */
  routes: number;
  /** The events sent from here along the routes, with their keys and where they led. */
  keys: ReviewKeyRow[];
}

export interface ReviewEdge extends DiagramEdge {
  /** The keys that took this edge along the routes (for eventless and raised transitions: the key that led to them). */
  keys: string[];
  /** How many routes take it. */
  routes: number;
}

export interface ReviewResult {
  /** The route (index into `routes`) whose end this is. */
  route: number;
  text: string;
  details: unknown;
}

export interface ReviewTransition {
  id: string;
  from: string;
  event: string;
  /** Target states, or empty for a transition that stays. */
  to: string[];
  keys: string[];
  routes: number;
}

export interface ReviewModel {
  name: string;
  tool?: string;
  title: string;
  widths: number[];
  width: number;
  height: number;
  initial: string;
  states: ReviewState[];
  edges: ReviewEdge[];
  steps: ReviewStep[];
  /** Every generated route, as its steps (the opening step 0 left out). */
  routes: number[][];
  rows: string[];
  screens: number[][];
  coverage: {
    states: { covered: number; total: number; missed: string[] };
    transitions: { covered: number; total: number; missed: string[] };
    routes: number;
    percent: number;
    table: ReviewTransition[];
  };
  submit?: ReviewResult;
  cancel?: ReviewResult;
}

const host = (height: number) => ({ requestRender() {}, terminal: { rows: height + 4, columns: 120 } });

/** An event as the page writes it. */
export function eventText(event: { type: string } & Record<string, unknown>): string {
  const e = event as FormEvent;
  switch (e.type) {
    case "MOVE":
      return `MOVE ${e.delta > 0 ? "+" : ""}${e.delta}`;
    case "MOVE_TO":
      return `MOVE_TO ${e.to}`;
    case "SELECT":
      return `SELECT row ${e.row + 1}`;
    case "TYPE":
    case "SUBMIT_TEXT":
      return `${e.type} ${JSON.stringify(e.text)}`;
    case "ABORT":
      return "ABORT (call aborted)";
    case "STOP_CLOCK":
      return "STOP_CLOCK (the first key)";
    default:
      if ((event.type as string) === TIME_UP) return "after the timeout";
      return event.type === COOLDOWN_DONE ? "after the cooldown" : event.type;
  }
}

/** The leaf state of a snapshot, as a path (`q2.choosing`, `submitted`). */
function leafOf(snapshot: Snap): string {
  const nodes = snapshot._nodes.filter((n) => n.type === "atomic" || n.type === "final");
  const leaf = nodes[nodes.length - 1];
  return leaf ? leaf.id.replace(/^form\.?/, "") : "";
}

/** Keys merged without repeats, in the order first seen. */
function addKeys(into: string[], keys: readonly string[]): void {
  for (const k of keys) if (!into.includes(k)) into.push(k);
}

/** The longest stretch a review page's build keeps the event loop to itself. */
const YIELD_EVERY_MS = 10;

/**
 * A pause for long work inside Pi: a promise that waits for the event loop's
 * next turn once the work has run `YIELD_EVERY_MS` since the last one, so Pi
 * keeps reading keys and drawing (the progress line); nothing before that.
 */
export function eventLoopTurns(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since <= YIELD_EVERY_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}

export async function reviewModel(form: ReviewForm, options: ReviewOptions = {}): Promise<ReviewModel> {
  const { spec } = form;
  const widths = options.widths ?? REVIEW_WIDTHS;
  const width = options.width ?? (widths.includes(80) ? 80 : widths[0]);
  const height = options.height ?? 30;
  const machine = createFormMachine(spec) as unknown as AnyStateMachine;
  const turn = eventLoopTurns();
  let looked = 0;
  const paths = await findRoutes(spec, machine, () => {
    looked++;
    const waiting = turn();
    if (waiting) options.onSearch?.(looked);
    return waiting;
  });
  const diagram = formDiagram(spec);
  const table = new ScreenTable();
  const total = newCoverage();
  const current = newCoverage();
  const recordTotal = recordMicrosteps(total);
  const recordCurrent = recordMicrosteps(current);
  const inspect = (e: InspectionEvent) => {
    recordTotal(e);
    recordCurrent(e);
  };

  const steps: ReviewStep[] = [];
  const stepIds = new Map<string, number>();
  const results = new Map<number, FormResult>();
  const routes: number[][] = [];
  const screensOf = async (component: FormComponent) => {
    const out: number[] = [];
    for (const w of widths) out.push(await table.add(component.render(w), w));
    return out;
  };

  try {
    for (const [index, path] of paths.entries()) {
      const waiting = turn();
      if (waiting) await waiting;
      options.onProgress?.(index, paths.length);
      let finished: FormResult | undefined;
      current.transitions.clear();
      const component = new FormComponent({
        spec,
        host: host(height),
        theme: ansiTheme,
        done: (result) => {
          finished = result;
        },
        maxHeight: () => height,
        inspect,
      });
      component.focused = true;
      try {
        if (steps.length === 0) {
          steps.push({
            parent: -1,
            event: "the form opens",
            keys: [],
            state: leafOf(component.snapshot),
            edges: [],
            transitions: [...current.transitions],
            screens: await screensOf(component),
            refused: false,
            depth: 0,
            when: "",
          });
        }
        let at = 0;
        const route: number[] = [];
        for (const { event: raw } of path.steps) {
          const waiting = turn();
          if (waiting) await waiting;
          const event = raw as FormEvent;
          if (event.type.startsWith("xstate.") && (event.type as string) !== COOLDOWN_DONE) continue;
          const keys = keysOf(event, component);
          current.transitions.clear();
          if (event.type === "ABORT") component.abort();
          else if (event.type === "TYPE")
            component.handleInput(event.text.slice(component.keyContext().editorText().length));
          else component.actor.send(event as never);
          const key = `${at}\u0000${JSON.stringify(event)}`;
          let id = stepIds.get(key);
          if (id === undefined) {
            id = steps.length;
            stepIds.set(key, id);
            steps.push({
              parent: at,
              event: eventText(event),
              keys,
              state: leafOf(component.snapshot),
              edges: [],
              transitions: [...current.transitions],
              screens: await screensOf(component),
              refused: current.transitions.size === 0,
              depth: steps[at].depth + 1,
              when: "",
            });
          }
          if (finished && !results.has(id)) results.set(id, finished);
          route.push(id);
          at = id;
        }
        routes.push(route);
      } finally {
        component.dispose();
      }
    }
  } finally {
    table.dispose();
  }

  // Shorter routes first (a stable sort keeps the generated order among equals).
  routes.sort((a, b) => a.length - b.length);

  // The keys on every drawn edge, from the steps that took it.
  const edges: ReviewEdge[] = diagram.edges.map((e, i) => ({ ...e, id: `edge-${i}`, keys: [], routes: 0 }));
  const edgesOf = new Map<string, number[]>();
  edges.forEach((e, i) => {
    edgesOf.set(e.transition, [...(edgesOf.get(e.transition) ?? []), i]);
  });
  const byPath = new Map(diagram.states.map((s) => [s.id, s.path]));
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

  // When each step's event leads where it led, from the guards of the transitions taken.
  for (const step of steps) {
    if (step.parent < 0 || step.refused) continue;
    const taken = step.transitions.flatMap((t) => {
      const i = edgesOf.get(t)?.[0];
      return i === undefined ? [] : [edges[i]];
    });
    step.when = stepCondition(spec, taken, steps[step.parent].state, step.state);
  }

  // How many routes pass through each state and take each transition and edge.
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

  // What each state does with each event sent from it.
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

  // Events a state ignores, drawn as one greyed loop on it.
  for (const s of states) {
    const refused = s.keys.filter((row) => row.keys.length && row.outcomes.some((o) => o.to === "refused"));
    if (!refused.length) continue;
    edges.push({
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

  const missed = missedBy(machine, total);
  const { definition } = missed;
  const coveredCount =
    definition.states.size + definition.transitions.size - missed.states.length - missed.transitions.length;
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
    rows: table.rows,
    screens: table.screens,
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
      routes: routes.length,
      percent: Math.round((1000 * coveredCount) / (definition.states.size + definition.transitions.size)) / 10,
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

/** The keys that send `event` where the component stands, named as the help line names them. */
function keysOf(event: FormEvent, component: FormComponent): string[] {
  if (event.type === "TYPE") {
    const typed = event.text.slice(component.keyContext().editorText().length);
    return [`typed ${JSON.stringify(typed)}`];
  }
  if ((event.type as string) === COOLDOWN_DONE || event.type === "ABORT") return [];
  if ((event.type as string) === TIME_UP) return [];
  if (event.type === "STOP_CLOCK") return ["any key"];
  return keysForEvent(event, component.keyContext(), component.keybindings).map(keyName);
}

/** The order events are listed in: as the help line lists keys, then by row. */
const EVENT_ORDER = [
  "MOVE",
  "MOVE_TO",
  "SELECT",
  "TOGGLE",
  "CONFIRM",
  "NOTE",
  "TYPE",
  "SUBMIT_TEXT",
  "NEXT_TAB",
  "PREV_TAB",
  "CANCEL",
  "after",
  "ABORT",
];

function byEvent(a: ReviewKeyRow, b: ReviewKeyRow): number {
  const rank = (row: ReviewKeyRow) => {
    const i = EVENT_ORDER.indexOf(row.event.split(" ")[0]);
    return i < 0 ? EVENT_ORDER.length : i;
  };
  return rank(a) - rank(b) || (a.event < b.event ? -1 : a.event > b.event ? 1 : 0);
}

/** Alternative keys for one event, for a label: `Enter`, `Tab / →`, digits in a run as `1–5`. */
export function keyList(keys: readonly string[]): string {
  const isDigit = (k: string) => /^[1-9]$/.test(k);
  const digits = [...new Set(keys.filter(isDigit).map(Number))].sort((a, b) => a - b);
  const out = keys.filter((k) => !isDigit(k));
  let start = 0;
  for (let i = 1; i <= digits.length; i++) {
    if (i < digits.length && digits[i] === digits[i - 1] + 1) continue;
    const run = digits.slice(start, i);
    out.push(run.length >= 3 ? `${run[0]}–${run[run.length - 1]}` : run.join(" "));
    start = i;
  }
  return out.join(" / ");
}
