/**
 * The model-facing wording shared by the choice tools: one line per question
 * (`Label: user selected: 1. A, 2. B, user wrote: X`), and what a cancelled
 * form says. Contract: no content can make a line or an entry of its own; a
 * value that could is written as a JSON string (`"Green\nDeploy"`).
 */
import type { FormResult, QuestionOutcome } from "../../machines/context.js";
import { type FormSpec, isScaleOption, type QuestionSpec } from "../../machines/spec.js";
import { cancelledSentence, type Outcome, openIds, outcomeOf, partialSentence } from "./outcome.js";

export function chosenLabels(q: QuestionSpec, outcome: QuestionOutcome): string[] {
  return outcome.answered ? [...outcome.options.map((i) => q.options[i].label), ...outcome.custom] : [];
}

const AMBIGUOUS = /[\p{Cc}\u2028\u2029",\\]|^\s|\s$|^\(|^\d+\.(\s|$)/u;

/** JSON.stringify leaves U+0085, U+2028 and U+2029, which some readers take for line breaks. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0085\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function quoted(text: string): string {
  return AMBIGUOUS.test(text) ? jsonLine(text) : text;
}

/** `2. Staging`, `4 (Very good)` for a rating, `2. Tabs (with its preview)`. */
function chosenText(q: QuestionSpec, index: number): string {
  const o = q.options[index];
  if (isScaleOption(q, index)) return `${quoted(o.label)} (${quoted(o.description!)})`;
  return `${index + 1}. ${quoted(o.label)}${o.preview ? " (with its preview)" : ""}`;
}

export function previewedOptions(q: QuestionSpec, outcome: QuestionOutcome): number[] {
  return outcome.answered ? outcome.options.filter((i) => q.options[i].preview).map((i) => i + 1) : [];
}

export function answerLine(q: QuestionSpec, outcome: QuestionOutcome, label = q.label): string {
  const name = quoted(label);
  if (!outcome.answered) return `${name}: ${q.required ? "(no answer)" : "(skipped)"}`;
  const parts: string[] = [];
  if (outcome.options.length) parts.push(`user selected: ${outcome.options.map((i) => chosenText(q, i)).join(", ")}`);
  if (outcome.custom.length) parts.push(`user wrote: ${outcome.custom.map(quoted).join(", ")}`);
  return `${name}: ${parts.join(", ") || "user selected none of the options"}`;
}

export function cancelledText(subject: "form" | "questionnaire" | "question", given: string[]): string {
  return [cancelledSentence(subject, given.length > 0), ...given].join("\n");
}

/** What every tool's `details` carry of how the call ended. */
export interface OutcomeFields {
  outcome: Outcome;
  /** With `outcome: "timed_out"`: ids of the questions that took their recommended option. */
  defaulted?: string[];
  /** With `outcome: "partial"`: ids of the shown questions submitted without an answer. */
  unanswered?: string[];
}

export function timedOutFields(result: FormResult): OutcomeFields {
  const outcome = outcomeOf(result);
  if (outcome === "timed_out") return { outcome, defaulted: [...(result.defaulted ?? [])] };
  return outcome === "partial" ? { outcome, unanswered: openIds(result) } : { outcome };
}

export function partialLine(spec: FormSpec, result: FormResult, nameOf = (q: QuestionSpec) => q.label): string {
  const open = new Set(openIds(result));
  return partialSentence(spec.questions.filter((q) => open.has(q.id)).map((q) => quoted(nameOf(q))));
}

/** A form that timed out closed with its answers: not a decline. */
export function outcomeFields(result: FormResult): { cancelled: boolean } & OutcomeFields {
  return { cancelled: result.cancelled && !result.timedOut, ...timedOutFields(result) };
}

export function timedOutHeadline(spec: FormSpec): string {
  const seconds = Math.round((spec.timeoutMs ?? 0) / 1000);
  return `The form timed out: nobody pressed a key within ${seconds}s, so the user submitted nothing.`;
}

/** Each question named as the model wrote it. */
export function timedOutText(
  spec: FormSpec,
  result: FormResult,
  /** How a question is named: its label, or for a tool of one question without labels, its prompt. */
  nameOf: (q: QuestionSpec) => string = (q) => q.label,
): string {
  const defaulted = new Set(result.defaulted ?? []);
  const given: string[] = [];
  const taken: string[] = [];
  const open: string[] = [];
  spec.questions.forEach((q, i) => {
    const outcome = result.answers[i];
    if (defaulted.has(q.id)) {
      taken.push(`${quoted(nameOf(q))}: ${outcome.options.map((o) => chosenText(q, o)).join(", ")}`);
    } else if (outcome.answered) given.push(answerLine(q, outcome, nameOf(q)));
    else if (!result.hidden.includes(q.id)) open.push(quoted(nameOf(q)));
  });
  const lines = [timedOutHeadline(spec)];
  if (given.length) lines.push("Answers the user gave:", ...given);
  if (taken.length) lines.push("Taken by default (the option you marked recommended):", ...taken);
  if (open.length) lines.push(`No answer: ${open.join(", ")}`);
  return lines.join("\n");
}

export function notesLine(result: FormResult): string[] {
  return result.additionalText ? [`Additional notes: ${quoted(result.additionalText)}`] : [];
}

/** A question of a tool that asks one and takes no label: named by the prompt the model wrote. */
export const byPrompt = (q: QuestionSpec): string => q.prompt;
