/**
 * What the server tells a form's page, and what the page sends back: the
 * shapes both sides compile against. A view is text and the events each
 * control sends; the page lays it out and sends what a control carries (a
 * typed answer's text is the one thing it adds), so it works out no answer
 * of its own.
 */

/** An event of the chart's, as JSON (`{type:"SELECT",row:2}`), or a waiting question's PUT_BACK or REFUSE. */
export type SentEvent = { readonly type: string } & Readonly<Record<string, string | number>>;
export type Send = readonly SentEvent[];

export interface RowView {
  /** `option`, a typed choice (`chip`), or the row that takes a typed answer (`other`). */
  kind: "option" | "chip" | "other";
  label: string;
  /** Ticked (a multi-select), or the answer given (a single choice). */
  chosen: boolean;
  recommended: boolean;
  /** The chart's highlight: where Enter, a note and Space act. */
  highlighted: boolean;
  description?: string;
  details?: string;
  authorNote?: string;
  ownNote?: string;
  /** Its lines: prose, or code (a diff's added and removed lines told apart); fences left out. */
  preview?: Array<{ text: string; code: boolean; tone?: "added" | "removed" }>;
  /** Chosen or ticked: the digit's event. */
  select: Send;
  /** The highlight brought here (focus on the row). */
  focus: Send;
  /** A note written on this option, where notes are taken. */
  note?: Send;
}

export interface EditorView {
  /** Which editor: a question's typed answer, an option's note, the additional notes; kept while it is open. */
  id: string;
  label: string;
  text: string;
  multiline: boolean;
  placeholder?: string;
  /** What the answer must be, in words. */
  rule?: string;
  /** The checks the text fails now; empty once it passes. */
  problems: string[];
  /** Said when the text passes (`Looks good.`). */
  good?: string;
  save: string;
  /** Closes the editor without saving (back to the options), where that is not the form's own cancel. */
  close?: string;
}

export interface QuestionView {
  kind: "question";
  q: number;
  prompt: string;
  body?: string;
  context?: string;
  recommendation?: string;
  caveats?: string;
  /** Radio buttons, checkboxes, or a typed answer alone. */
  choice: "single" | "multi" | "text";
  required: boolean;
  /** `Choose 2 to 4.` */
  count?: string;
  rows: RowView[];
  /** Rows of a very long list not laid out, before and after those shown. */
  above: number;
  below: number;
  editor?: EditorView;
  /** Under the row it belongs to (a note, a typed answer in a list), or the question's own field. */
  editorAt?: number;
  buttons: ButtonView[];
}

export interface ReviewView {
  kind: "review";
  entries: Array<{
    label: string;
    text: string;
    status: "answered" | "unanswered" | "skipped";
    highlighted: boolean;
    /** Goes to the question (its number key). */
    select: Send;
    focus: Send;
  }>;
  notes?: string;
  editor?: EditorView;
  /** Whether Submit submits now, and what it says. */
  ready: boolean;
  status: string;
  buttons: ButtonView[];
}

export interface ButtonView {
  label: string;
  send: Send;
  /** The main action where it shows. */
  primary?: boolean;
}

export type BodyView =
  | QuestionView
  | ReviewView
  | { kind: "message"; text: string; buttons: ButtonView[] }
  | { kind: "done"; text: string };

export interface PageView {
  /** The form's step: a control whose events move relative to it sends it, and is refused once the form moved on. */
  version: number;
  /** The rows PgUp and PgDn move, as in the terminal. */
  pageRows: number;
  title?: string;
  description?: string;
  notice?: string;
  /** What the form says now: answers dropped by a change. */
  alerts: string[];
  /** The clock that closes the form unless the person acts, and the button that stops it. */
  clock?: { text: string; seconds: number; stop: Send };
  /** A tabbed form's questions and its Submit tab. */
  tabs?: Array<{ label: string; answered: boolean; current: boolean; submit?: boolean; send: Send }>;
  /** `2 of 5 answered`. */
  progress?: string;
  body: BodyView;
}

/** What the server answers a page's events: closed by them, or why they did nothing. */
export interface ActAnswer {
  closed?: boolean;
  why?: string;
  /** The form's step once the events were taken: a view from before it does not hold them yet. */
  version?: number;
}
