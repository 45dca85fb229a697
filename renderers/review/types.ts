/**
 * The shapes of a review page's model (renderers/review/model.ts makes it):
 * the form under review, the steps of its routes as a tree, the states with
 * the keys that leave them, the drawn edges, the coverage and the results.
 */
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

/** One step of a route: the event sent from the parent step, and where it led. */
export interface ReviewStep {
  /** The step before (-1 for the form as it opens). */
  parent: number;
  /** The event as sent (none for the form as it opens): what a diff replays on the other form. */
  raw?: FormEvent;
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
  /** How many routes take it. */
  routes: number;
}

export interface ReviewResult extends ResultData {
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
    /** Every outcome of every condition at its boundaries (renderers/inspect/boundaries.ts). */
    conditions: { covered: number; total: number; missed: string[] };
    routes: number;
    percent: number;
    table: ReviewTransition[];
  };
  submit?: ReviewResult;
  cancel?: ReviewResult;
}
