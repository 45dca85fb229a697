/** What every part of the page's script shares; `go` and `render` are main.ts's. */
import type { ChartData, PageData, StateData, Step } from "./data.js";
import { byId, el } from "./dom.js";

/** What the panel shows: a state, or a step of a route. */
export type Current = { kind: "state"; state: string } | { kind: "route"; route: number; index: number };

export interface Review {
  data: PageData;
  steps: Step[];
  states: Map<string, StateData>;
  byDot: Map<string, StateData>;
  width: number;
  current: Current;
  /** Show what a link names, and make it the page's address. */
  go(hash: string): void;
  render(): void;
}

/** One chart of the page (overview, states, states with loops), with its pan and zoom. */
export interface Chart {
  view: string;
  scroller: HTMLElement;
  svg: SVGSVGElement;
  data: ChartData;
  natural: { width: number; height: number };
  zoom: number;
  nodes: Map<string, SVGGElement>;
  fitted: boolean;
}

export function readReview(): Review {
  const data = JSON.parse(byId("review-data").textContent ?? "") as PageData;
  // Steps arrive as rows of numbers (see pageData in page.ts).
  const steps = data.steps.map(
    ([parent, event, state, key, keys, screens, refused, when], id): Step => ({
      id,
      parent,
      event: data.strings[event],
      state: data.strings[state],
      key: data.strings[key],
      keys: data.strings[keys],
      screens,
      refused: refused === 1,
      when: data.strings[when],
    }),
  );
  return {
    data,
    steps,
    states: new Map(data.states.map((s) => [s.id, s])),
    byDot: new Map(data.states.map((s) => [s.dot, s])),
    width: data.width,
    current: { kind: "state", state: data.initial },
    go() {},
    render() {},
  };
}

export function screen(review: Review, stepId: number): HTMLDivElement {
  const { data, width } = review;
  const step = review.steps[stepId];
  const rows = data.screens[step.screens[data.widths.indexOf(width)]];
  const term = el("div", "term");
  term.dataset.width = String(width);
  term.style.setProperty("--cols", String(width));
  term.innerHTML = rows.map((r) => `<div>${data.rows[r]}</div>`).join("");
  return term;
}

/** A state, or for a compound state its initial leaf. */
export function leafOf(review: Review, id: string): StateData | undefined {
  let s = review.states.get(id);
  while (s && s.kind === "compound" && s.initial) s = review.states.get(s.initial);
  return s;
}

export function ancestors(review: Review, s: StateData): StateData[] {
  const out: StateData[] = [];
  for (let p = s.parent && review.states.get(s.parent); p; p = p.parent && review.states.get(p.parent)) out.push(p);
  return out;
}

/** The first key that sends a step's event, or when none does, what happened (`after the cooldown`). */
export const stepKey = (step: Step) => step.key || step.event.replace(/^[A-Z_]+ \((.*)\)$/, "$1");

/** A state as the person knows it (`Size · options`), its path when the page has no words for it. */
export const stateName = (review: Review, id: string) => review.states.get(id)?.words ?? id;

/** The first route through a step, and the step's place in it (1 = after the first key). */
export function routeThrough(review: Review, stepId: number): { route: number; index: number } | undefined {
  if (stepId === 0) return { route: 0, index: 0 };
  for (let r = 0; r < review.data.routes.length; r++) {
    const i = review.data.routes[r].indexOf(stepId);
    if (i >= 0) return { route: r, index: i + 1 };
  }
  return undefined;
}
