/** The shapes of a review page's model (model.ts) and of a diff (diff.ts); those the page's script reads too are client/data.ts's. */
import type { FormEvent, FormResult } from "../../machines/context.js";
import type { FormSpec } from "../../machines/spec.js";
import type { DiagramEdge } from "../inspect/diagram.js";
import type { KeyRowData, ResultData, StateData } from "./client/data.js";

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
  widths?: number[];
  width?: number;
  height?: number;
  onProgress?: (done: number, total: number) => void;
  /** Called now and then while the routes are searched: snapshots looked at so far. */
  onSearch?: (looked: number) => void;
}

export interface ReviewStep {
  /** -1 for the form as it opens. */
  parent: number;
  /** The event as sent (none for the form as it opens): what a diff replays on the other form. */
  raw?: FormEvent;
  /** Readable: `CONFIRM`, `MOVE +1`, `TYPE "Blue"`. */
  event: string;
  keys: string[];
  state: string;
  edges: number[];
  transitions: string[];
  /** The screen after the step at each width (indexes into `screens`). */
  screens: number[];
  refused: boolean;
  depth: number;
  /** When the event leads there, in the form's words (`Size is 4 or more (4 or 5)`); "" when always. */
  when: string;
}

/** The model's key row: the page's, its keys not yet joined into a label. */
export interface ReviewKeyRow extends Omit<KeyRowData, "keys"> {
  keys: string[];
}

/** The model's state: the page's, less the words the page names it by, plus the diagram's label. */
export interface ReviewState extends Omit<StateData, "words" | "keys"> {
  label: string;
  keys: ReviewKeyRow[];
}

export interface ReviewEdge extends DiagramEdge {
  /** The keys that took this edge along the routes (for eventless and raised transitions: the key that led to them). */
  keys: string[];
  routes: number;
}

export interface ReviewResult extends ResultData {
  details: unknown;
}

export interface ReviewTransition {
  id: string;
  from: string;
  event: string;
  /** Empty for a transition that stays. */
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
    /** Every outcome of every condition at its boundaries (renderers/inspect/boundaries.ts). */
    conditions: { covered: number; total: number; missed: string[] };
    /** What the search cannot decide, each with why (renderers/inspect/boundaries.ts `undecided`). */
    unknown: string[];
    routes: number;
    percent: number;
    table: ReviewTransition[];
  };
  submit?: ReviewResult;
  cancel?: ReviewResult;
}

/** A state's screen before and after (the serializer's rows); a side without the state has none. */
export interface ScreenPair {
  state: string;
  /** None when only the screen changed. */
  question?: "added" | "removed" | "changed";
  oldRows?: string[];
  newRows?: string[];
}

export interface Changed {
  old: string;
  new: string;
}

export interface FormDiff {
  old: { name: string; questions: number; states: number; routes: number };
  new: { name: string; questions: number; states: number; routes: number };
  questions: { added: string[]; removed: string[]; changed: Changed[] };
  states: { added: string[]; removed: string[] };
  edges: { added: string[]; removed: string[]; changed: Changed[] };
  screens: ScreenPair[];
  /**
   * Every route of either form that ends elsewhere or with another result on
   * the other (`outcome`), those first; the first `ROUTE_SCREENS` carry both
   * end screens. The page reads every count and list of its own off them.
   */
  routes: Array<{
    events: string;
    old: string;
    new: string;
    /** Ends in another state (by question id), not only with another result. */
    elsewhere: boolean;
    /** Where the two forms first part: `Size 3: before → Team · options (q3.choosing), after → …`. */
    differs: string;
    outcome?: true;
    /** What the model receives after the route (after `enters` presses of Enter, when it leaves both forms open). */
    text?: Changed;
    enters?: number;
    /** The route is this: `the shortest submit of the form before the change`. */
    end?: string;
    oldRows?: string[];
    newRows?: string[];
  }>;
  routesCompared: number;
  /** Where the pages of the two forms are, for links (relative to the page of the change). */
  pages?: { old: string; new: string };
  /** The newer form's chart (SVG), what changed marked. */
  chart?: string;
}
