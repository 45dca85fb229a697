/**
 * The normalized form model every tool maps onto.
 *
 * A `FormSpec` is what the statechart factory consumes: every default is
 * already applied, every id is unique, every question knows its kind. Tools
 * translate their own parameter shapes into this one, so the engine has a
 * single input language.
 */

import type { Condition } from "../schemas/conditions.js";
import { questionId } from "../schemas/rules.js";
import type { Picks } from "./picks.js";
import { type CountRule, DEFAULT_TEXT_RULE, type TextRule } from "./text-rules.js";

export type QuestionKind = "single" | "multi" | "text";

/** When a question is shown: always, never, or when all conditions on earlier answers hold. */
export type Visibility = { kind: "always" } | { kind: "never" } | { kind: "when"; conditions: Condition[] };

export interface OptionSpec {
  /** Text shown in the list and echoed to the model. */
  label: string;
  /** Stable value reported in `details`; falls back to the label. */
  value: string;
  /** Optional one-line explanation shown under the label. */
  description?: string;
  /** Longer explanation. */
  details?: string;
  /** A note from whoever wrote the form (not the person answering). */
  note?: string;
  /** The author recommends this option. */
  recommended?: boolean;
  /** A few lines or a fenced code block shown while the option is highlighted. */
  preview?: string;
}

/** Extra explanation around a question's prompt (rich forms). */
export interface QuestionContent {
  body?: string;
  context?: string;
  recommendation?: string;
  caveats?: string;
}

export interface QuestionSpec extends QuestionContent {
  /** Stable id reported in results (`q1`, `q2` … when the author gave none). */
  id: string;
  /** Short tab-bar label (`Q1`, `Q2` … by default). */
  label: string;
  /** The full question text. */
  prompt: string;
  kind: QuestionKind;
  options: OptionSpec[];
  /** Offer a "Type something." row for a free-text answer. */
  allowOther: boolean;
  /** A required question blocks Submit until it is answered. */
  required: boolean;
  /** After an answer, move on to the next question (tabbed forms only). */
  autoAdvance: boolean;
  visibility: Visibility;
  /** Checks on the typed answer of a `text` question. */
  text?: TextRule;
  /** Hint shown in an empty editor. */
  placeholder?: string;
  /** The person may write a note on a predefined option. */
  notes: boolean;
  /** How many choices a multi-select takes before Enter is accepted. */
  count?: CountRule;
  /** The answer the form opens with (a default): chosen options, or a typed answer's text. */
  initial?: Picks;
}

export interface FormSpec {
  title?: string;
  /** Context shown under the title. */
  description?: string;
  questions: QuestionSpec[];
  /** Milliseconds to wait (a cancellable countdown) before the form is shown. */
  waitMs?: number;
  /**
   * Milliseconds the form waits for the person's first key once it is shown;
   * at the end it closes with the answers given and, for open questions, the
   * recommended option. Any key stops the clock for good.
   */
  timeoutMs?: number;
  /** Show the review screen even for a single question. */
  alwaysReview?: boolean;
  /** The review screen has a field for additional notes. */
  additionalNotes?: boolean;
  /** The review screen offers to decline (refuse to answer), distinct from cancelling. */
  declinable?: boolean;
}

/** Authoring shape accepted by `normalizeForm`: everything but prompt and options is optional. */
export interface QuestionInput extends QuestionContent {
  id?: string;
  label?: string;
  prompt: string;
  options: Array<{
    label: string;
    value?: string;
    description?: string;
    details?: string;
    note?: string;
    recommended?: boolean;
    preview?: string;
  }>;
  allowOther?: boolean;
  multiple?: boolean;
  /** Overrides `multiple`; `text` asks for a typed answer only. */
  kind?: QuestionKind;
  required?: boolean;
  autoAdvance?: boolean;
  /** Show only when all of these hold (already parsed and checked). */
  when?: Condition[];
  /** `true` always shows, `false` always hides; wins over `when`. */
  on?: boolean;
  text?: Partial<TextRule>;
  placeholder?: string;
  notes?: boolean;
  count?: CountRule;
  initial?: Picks;
}

export interface FormInput {
  title?: string;
  description?: string;
  questions: QuestionInput[];
  waitMs?: number;
  timeoutMs?: number;
  alwaysReview?: boolean;
  additionalNotes?: boolean;
  declinable?: boolean;
}

function visibilityOf(q: QuestionInput): Visibility {
  if (q.on === true) return { kind: "always" };
  if (q.on === false) return { kind: "never" };
  if (q.when && q.when.length > 0) return { kind: "when", conditions: q.when };
  return { kind: "always" };
}

/** The label of the free-text row, as the person sees it: a typed answer, or in a multi-select one more choice. */
export const OTHER_LABEL = "Type something.";
const ADD_LABEL = "Add your own answer";

export function otherLabel(q: QuestionSpec): string {
  return q.kind === "multi" ? ADD_LABEL : OTHER_LABEL;
}

/** Apply defaults: ids `q1…`, labels `Q1…`, `allowOther` on, single-select, required, auto-advance. */
export function normalizeForm(input: FormInput): FormSpec {
  const questions = input.questions.map((q, i): QuestionSpec => {
    const options = q.options.map((o) => {
      const option: OptionSpec = { label: o.label, value: o.value ?? o.label };
      if (o.description) option.description = o.description;
      if (o.details) option.details = o.details;
      if (o.note) option.note = o.note;
      if (o.recommended) option.recommended = true;
      if (o.preview?.trim()) option.preview = o.preview;
      return option;
    });
    const kind: QuestionKind = q.kind ?? (q.multiple ? "multi" : "single");
    const required = q.required !== false;
    const question: QuestionSpec = {
      id: questionId(q.id, i),
      label: q.label && q.label.trim() !== "" ? q.label : `Q${i + 1}`,
      prompt: q.prompt,
      kind,
      options: kind === "text" ? [] : options,
      allowOther: kind === "text" ? false : q.allowOther !== false,
      required,
      autoAdvance: q.autoAdvance !== false,
      visibility: visibilityOf(q),
      notes: q.notes === true && kind !== "text",
    };
    for (const field of ["body", "context", "recommendation", "caveats"] as const)
      if (q[field]) question[field] = q[field];
    if (kind === "text") question.text = { ...DEFAULT_TEXT_RULE, ...q.text, required };
    if (q.placeholder) question.placeholder = q.placeholder;
    if (q.count && kind === "multi") question.count = { ...q.count };
    if (q.initial) question.initial = { options: [...q.initial.options], custom: [...q.initial.custom] };
    return question;
  });
  const spec: FormSpec = { questions };
  if (input.title) spec.title = input.title;
  if (input.description) spec.description = input.description;
  if (input.waitMs !== undefined && input.waitMs > 0) spec.waitMs = input.waitMs;
  if (input.timeoutMs !== undefined && input.timeoutMs > 0) spec.timeoutMs = input.timeoutMs;
  if (input.alwaysReview) spec.alwaysReview = true;
  if (input.additionalNotes) spec.additionalNotes = true;
  if (input.declinable) spec.declinable = true;
  return spec;
}

/**
 * A typed answer that is one line: a number, an email, a date, a value of a
 * string format, or one a pattern describes (an id, a ticket number, a slug).
 * Its editor takes no line breaks and its help offers none; the one place
 * both ask.
 */
export function singleLine(q: QuestionSpec): boolean {
  const rule = q.text;
  if (q.kind !== "text" || rule === undefined) return false;
  return rule.type !== "text" || rule.format !== undefined || rule.pattern !== undefined;
}

/**
 * A form with more than one question (or a review screen) shows tabs and a
 * Submit tab; so does one that can be declined, since Decline is on that tab.
 */
export function isTabbed(spec: FormSpec): boolean {
  return spec.questions.length > 1 || spec.alwaysReview === true || spec.declinable === true;
}

/**
 * How an option is named to a person or the model: `2. Staging`, or for a
 * numbered scale whose label is its own position (ratings) `4 (Very good)`.
 */
export function optionText(q: QuestionSpec, index: number): string {
  const o = q.options[index];
  if (isScaleOption(q, index)) return `${o.label} (${o.description})`;
  return `${index + 1}. ${o.label}`;
}

/** An option whose label is just its 1-based position and whose description names it (a rating). */
export function isScaleOption(q: QuestionSpec, index: number): boolean {
  const o = q.options[index];
  return o.label === String(index + 1) && !!o.description;
}

/**
 * The row `y` or `n` answers with: a single-select whose two options are
 * Yes and No (a `yes_no` question, a boolean field) answers with one of them
 * by its initial. Undefined for any other question, and for one that takes
 * notes (there `n` writes a note).
 */
export function yesNoRow(q: QuestionSpec, key: "y" | "n"): number | undefined {
  if (q.kind !== "single" || q.notes || q.options.length !== 2) return undefined;
  const labels = q.options.map((o) => o.label.trim().toLowerCase());
  if (!labels.includes("yes") || !labels.includes("no")) return undefined;
  return labels.indexOf(key === "y" ? "yes" : "no");
}
