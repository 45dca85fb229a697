/** The normalized form every tool maps onto: defaults applied, ids unique, every question knowing its kind. */
import type { Condition } from "../schemas/conditions.js";
import { questionId } from "../schemas/rules.js";
import type { Picks } from "./picks.js";
import { type CountRule, DEFAULT_TEXT_RULE, type TextRule } from "./text-rules.js";

export type QuestionKind = "single" | "multi" | "text";

export type Visibility = { kind: "always" } | { kind: "never" } | { kind: "when"; conditions: Condition[] };

export interface OptionSpec {
  label: string;
  /** Reported in `details`; falls back to the label. */
  value: string;
  description?: string;
  details?: string;
  /** From the author, not the person answering. */
  note?: string;
  recommended?: boolean;
  preview?: string;
}

export interface QuestionContent {
  body?: string;
  context?: string;
  recommendation?: string;
  caveats?: string;
}

export interface QuestionSpec extends QuestionContent {
  id: string;
  label: string;
  prompt: string;
  kind: QuestionKind;
  options: OptionSpec[];
  allowOther: boolean;
  required: boolean;
  autoAdvance: boolean;
  visibility: Visibility;
  text?: TextRule;
  placeholder?: string;
  notes: boolean;
  count?: CountRule;
  /** A default answer: chosen options, or a typed answer's text. */
  initial?: Picks;
}

export interface FormSpec {
  title?: string;
  description?: string;
  questions: QuestionSpec[];
  /** A cancellable countdown before the form is shown. */
  waitMs?: number;
  /** Until the first key: then the form closes with the answers given and the recommended options. */
  timeoutMs?: number;
  alwaysReview?: boolean;
  additionalNotes?: boolean;
  declinable?: boolean;
}

/** Authoring shape accepted by `normalizeForm`: everything but prompt and options is optional. */
export interface QuestionInput extends QuestionContent {
  id?: string;
  label?: string;
  prompt: string;
  options: Array<Omit<OptionSpec, "value"> & { value?: string }>;
  allowOther?: boolean;
  multiple?: boolean;
  /** Overrides `multiple`. */
  kind?: QuestionKind;
  required?: boolean;
  autoAdvance?: boolean;
  when?: Condition[];
  /** Wins over `when`. */
  on?: boolean;
  text?: Partial<TextRule>;
  placeholder?: string;
  notes?: boolean;
  count?: CountRule;
  initial?: Picks;
}

export interface FormInput extends Omit<FormSpec, "questions"> {
  questions: QuestionInput[];
}

function visibilityOf(q: QuestionInput): Visibility {
  if (q.on === true) return { kind: "always" };
  if (q.on === false) return { kind: "never" };
  if (q.when && q.when.length > 0) return { kind: "when", conditions: q.when };
  return { kind: "always" };
}

export const OTHER_LABEL = "Type something.";
const ADD_LABEL = "Add your own answer";

export function otherLabel(q: QuestionSpec): string {
  return q.kind === "multi" ? ADD_LABEL : OTHER_LABEL;
}

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

/** A typed answer of one line (a number, a format, a pattern): its editor and its help both ask here. */
export function singleLine(q: QuestionSpec): boolean {
  const rule = q.text;
  if (q.kind !== "text" || rule === undefined) return false;
  return rule.type !== "text" || rule.format !== undefined || rule.pattern !== undefined;
}

/** Tabs and a Submit tab; a declinable form has them too, since Decline is on that tab. */
export function isTabbed(spec: FormSpec): boolean {
  return spec.questions.length > 1 || spec.alwaysReview === true || spec.declinable === true;
}

/** `2. Staging`, or on a rating scale `4 (Very good)`. */
export function optionText(q: QuestionSpec, index: number): string {
  const o = q.options[index];
  if (isScaleOption(q, index)) return `${o.label} (${o.description})`;
  return `${index + 1}. ${o.label}`;
}

/** A rating: the label is its 1-based position and the description names it. */
export function isScaleOption(q: QuestionSpec, index: number): boolean {
  const o = q.options[index];
  return o.label === String(index + 1) && !!o.description;
}

/** The Yes/No row `y` or `n` answers with; not where the question takes notes (there `n` writes a note). */
export function yesNoRow(q: QuestionSpec, key: "y" | "n"): number | undefined {
  if (q.kind !== "single" || q.notes || q.options.length !== 2) return undefined;
  const labels = q.options.map((o) => o.label.trim().toLowerCase());
  if (!labels.includes("yes") || !labels.includes("no")) return undefined;
  return labels.indexOf(key === "y" ? "yes" : "no");
}
