/**
 * What a review page carries for its script: the JSON in its `#review-data`
 * element, written by `pageData` (renderers/review/page.ts). Types only, and
 * the source of the shapes the model shares with it (renderers/review/types.ts):
 * the script may import nothing but its own folder.
 */

/** Where an event sent from a state led: a state path, `stays` or `refused`; when (in words); a step that shows it. */
export interface OutcomeData {
  to: string;
  when: string;
  step: number;
}

/** An event sent from a state along the routes, with its keys as one label (`Enter / Tab`). */
export interface KeyRowData {
  event: string;
  keys: string;
  outcomes: OutcomeData[];
}

export interface StateData {
  /** The state path, also its anchor (`#state-q2.choosing`). */
  id: string;
  /** The node or cluster name in the drawn statechart. */
  dot: string;
  /** The state as the person knows it (`Split · options`). */
  words: string;
  detail?: string;
  kind: "atomic" | "compound" | "final";
  parent?: string;
  /** A compound state's initial leaf. */
  initial?: string;
  /** The last step of the shortest route into the state (-1: never reached). */
  step: number;
  /** How many routes pass through it. */
  routes: number;
  keys: KeyRowData[];
}

export interface ChartEdgeData {
  id: string;
  from: string;
  to: string;
  /** The events the machine names for it, for hovering. */
  events: string;
}

/** One drawn chart's edges, and the edge each step takes in it (-1: none). */
export interface ChartData {
  edges: ChartEdgeData[];
  edgeOf: number[];
}

/** A step as a row of numbers, its texts indexes into `strings`. */
export type StepRow = [
  parent: number,
  event: number,
  state: number,
  key: number,
  keys: number,
  screens: number[],
  refused: 0 | 1,
  when: number,
];

export interface ResultData {
  /** The route (index into `routes`) whose end this is. */
  route: number;
  text: string;
}

export interface PageData {
  name: string;
  widths: number[];
  width: number;
  initial: string;
  states: StateData[];
  charts: Record<string, ChartData>;
  strings: string[];
  steps: StepRow[];
  routes: number[][];
  /** Terminal rows as escaped markup, and each screen as indexes into them. */
  rows: string[];
  screens: number[][];
  submit?: ResultData;
  cancel?: ResultData;
}

/** A step as the script uses it, its texts looked up. */
export interface Step {
  id: number;
  parent: number;
  event: string;
  state: string;
  /** The first key that sends the event ("" when none does). */
  key: string;
  keys: string;
  screens: number[];
  refused: boolean;
  when: string;
}
